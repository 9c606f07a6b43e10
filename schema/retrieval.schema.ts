import { z } from "zod";
import { BLOOM_LEVELS } from "@/types/bloom.types";
import { RESOURCE_TYPES } from "@/types/curriculum.types";
import { PLAN_STRATEGIES, PROBE_SOURCES, QUERY_TYPES } from "@/types/retrieval.types";
import { ZoneSchema, ZoneSpanSchema } from "./zones.schema";

const label = (name: string) =>
  z
    .string()
    .trim()
    .min(1, `${name} is required`)
    .max(80, `${name} is at most 80 characters`)
    .refine((s) => !/[\p{Cc}]/u.test(s), `${name} contains control characters`);

export const RetrievalFiltersSchema = z.strictObject({
  board: label("Board"),
  grade: label("Class"),
  subject: label("Subject"),
  /** One type or several; omitted = all types (subject-wide). */
  resourceType: z.union([z.enum(RESOURCE_TYPES), z.array(z.enum(RESOURCE_TYPES)).min(1).max(4)]).optional(),
  chapterNumber: z.number().int().min(0).max(999).optional(),
  chapterName: z.string().trim().min(1).max(200).optional(),
  subjectWide: z.boolean().optional(),
  /**
   * The resource subset: search only these resources (document ids of the subject, as the facets
   * list them); omitted = every resource of the subject. Ids outside the subject match nothing.
   */
  documentIds: z
    .array(z.uuid("Each resource id must be a UUID"))
    .min(1, "Pick at least one resource, or leave the subset out for all")
    .max(500, "At most 500 resources")
    .optional()
    .meta({
      description: "Resource subset: search only these documents (ids from the facets); omitted = all",
    }),
});
export type TRetrievalFilters = z.infer<typeof RetrievalFiltersSchema>;

export const BloomTargetsSchema = z.array(z.enum(BLOOM_LEVELS)).min(1).max(6);

/** Per-level weights: fractions summing to 1, or counts (validated by generation where it matters). */
export const BloomDistributionSchema = z
  .partialRecord(z.enum(BLOOM_LEVELS), z.number().min(0).max(100))
  .refine((d) => Object.values(d).some((v) => (v ?? 0) > 0), "At least one Bloom level needs a weight");

const queryText = (name: string, max = 2000) =>
  z
    .string()
    .max(max, `${name} is at most ${max.toLocaleString("en")} characters`)
    // Control characters (NUL and friends) become spaces; tabs and newlines are ordinary whitespace.
    .transform((s) => s.replace(/\p{Cc}/gu, " ").trim())
    .pipe(z.string().min(1, `${name} must not be empty`));

/** One earlier turn of a builder session, as the previous response's `session.turn` gave it. */
export const SessionTurnSchema = z.strictObject({
  query: z.string().max(2000),
  resolvedQuery: z.string().max(2000),
  topic: z.string().max(2000),
  bloomTargets: BloomTargetsSchema.optional(),
  anchor: z
    .strictObject({
      documentId: z.uuid(),
      chapterNumber: z.number().int().nullable(),
      sectionPath: z.string().max(1000),
    })
    .optional(),
  excluded: z.array(z.string().trim().min(1).max(200)).max(5).optional(),
  /** The turn's results in the order shown (by relevance), for "the second one", "not the first". */
  results: z
    .array(
      z.strictObject({
        documentId: z.uuid(),
        chunkIndex: z.number().int().min(0),
        chapterNumber: z.number().int().nullable(),
        sectionPath: z.string().max(300),
      }),
    )
    .max(50)
    .optional(),
});
export type TSessionTurn = z.infer<typeof SessionTurnSchema>;

export const RetrievalQueryRequestSchema = z
  .strictObject({
    filters: RetrievalFiltersSchema,
    query: queryText("Query"),
    topK: z.number().int().min(1).max(50).default(8),
    alpha: z.number().min(0).max(1).optional(),
    bloomTargets: BloomTargetsSchema.optional(),
    bloomDistribution: BloomDistributionSchema.optional(),
    enableRerank: z.boolean().default(true),
    rerankFanout: z.number().int().min(1).max(150).optional(),
    /** Adjacent-chunk expansion; default by query type. */
    expand: z.boolean().optional(),
    /** The query planner (variants, HyDE, chapter focus); on unless false (false = the single query as classified). */
    planner: z.boolean().optional().meta({
      description: "Query planner (sub-queries, variants, HyDE, chapter focus); false = the single query",
    }),
    /** Extra phrasings to search beside the query (for example the enhancer's `variants`). */
    variants: z.array(queryText("Variant", 300)).max(3).optional(),
    /** Earlier turns of the builder session, oldest first, for follow-ups ("harder ones", "not X"). */
    session: z
      .strictObject({ turns: z.array(SessionTurnSchema).max(10) })
      .optional()
      .meta({
        description:
          "Earlier turns of the builder session (each response's `session.turn`, oldest first): follow-ups such as 'harder ones', 'more on X', 'the next section', 'not X' are resolved against them",
      }),
  })
  .meta({ id: "RetrievalQuery", description: "A retrieval query with its filters and options" });
export type TRetrievalQueryRequest = z.infer<typeof RetrievalQueryRequestSchema>;
export type TRetrievalQueryInput = z.input<typeof RetrievalQueryRequestSchema>;

export const RetrievalItemSchema = z
  .object({
    documentId: z.uuid(),
    chunkIndex: z.number().int(),
    content: z.string(),
    tokens: z.number().int(),
    score: z.number(),
    fusedScore: z.number(),
    vectorScore: z.number().nullable(),
    keywordScore: z.number().nullable(),
    /** Present for passages in the reranked head (`rerankFanout`); `score` is this, else `fusedScore`. */
    rerankScore: z.number().optional(),
    title: z.string(),
    resourceType: z.enum(RESOURCE_TYPES),
    chapterNumber: z.number().int().nullable(),
    chapterName: z.string().nullable(),
    pageStart: z.number().int().optional(),
    pageEnd: z.number().int().optional(),
    sectionPath: z.string().optional(),
    /** What the passage is (lesson or side material); retrieval favours the lesson's zones. */
    zone: ZoneSchema.optional(),
    zoneSpans: z.array(ZoneSpanSchema).optional(),
    expandedFrom: z.number().int().optional(),
    explanation: z.string().optional(),
    /**
     * Calibrated relevance in [0, 1], comparable across queries (unlike `fusedScore`/`rerankScore`,
     * which rank passages within one query): an estimate of the chance that the passage is about the
     * query, from absolute evidence (query-term coverage, vector similarity, heading match).
     */
    relevance: z.number().min(0).max(1).meta({
      description:
        "Calibrated relevance, comparable across queries (fusedScore/rerankScore rank within one query)",
    }),
    /** Below the relevance a passage needs to be preselected as context. */
    weak: z.boolean(),
  })
  .meta({
    id: "Passage",
    description:
      "A retrieved passage: its text, where it comes from (document, chunk, pages, chapter), its scores and calibrated relevance",
  });
export type TRetrievalItem = z.infer<typeof RetrievalItemSchema>;

export const PlanProbeSchema = z.object({
  source: z.enum(PROBE_SOURCES),
  text: z.string(),
  weight: z.number(),
  found: z.number().int(),
  status: z.enum(["used", "skipped", "failed"]),
  note: z.string().optional(),
});

export const RetrievalPlanSchema = z.object({
  strategy: z.enum(PLAN_STRATEGIES),
  examStyle: z.boolean(),
  probes: z.array(PlanProbeSchema),
  /** The chapter the results were focused on, when they agreed on one. */
  focus: z
    .object({
      chapterNumber: z.number().int().nullable(),
      share: z.number(),
      kind: z.enum(["chapter", "section"]),
    })
    .nullable(),
  reasons: z.array(z.string()),
  /** Optional steps that failed or were cut, and what was used instead. */
  fallbacks: z.array(z.string()),
  budgetMs: z.number(),
  elapsedMs: z.number(),
});

/** Why `items` is empty although the scope has passages. */
export const RefusalSchema = z.object({
  code: z.enum(["no_terms_in_scope", "weak_evidence", "model_found_nothing", "all_excluded"]),
  message: z.string(),
  /**
   * The best passage's calibrated relevance, below `threshold`; for `model_found_nothing`, the
   * language-model reranker's best score (0–1) of the closest passages.
   */
  bestRelevance: z.number(),
  threshold: z.number(),
});

export const SessionResultSchema = z.object({
  followUp: z.boolean(),
  resolvedQuery: z.string(),
  reasons: z.array(z.string()),
  excluded: z.array(z.string()),
  /** Passages left out because they are about an excluded topic. */
  excludedCount: z.number().int(),
  navigation: z.enum(["next-section", "previous-section", "next-chapter", "previous-chapter"]).optional(),
  bloomTargets: BloomTargetsSchema.optional(),
  /** Append this to `session.turns` for the next request. */
  turn: SessionTurnSchema,
});

export const RetrievalQueryResponseSchema = z.object({
  ok: z.literal(true),
  items: z.array(RetrievalItemSchema),
  /** Set when nothing in the scope is relevant: `items` is then empty and `suggestions` say what to try. */
  refusal: RefusalSchema.optional().meta({
    description: "Present when nothing in the scope is relevant: items is [] and suggestions say what to try",
  }),
  plan: RetrievalPlanSchema.meta({ description: "What the query planner did: probes, focus, fallbacks" }),
  session: SessionResultSchema.meta({
    description: "Follow-up resolution; append `turn` to the next request's session.turns",
  }),
  classification: z.object({
    type: z.enum(QUERY_TYPES),
    alpha: z.number(),
    alphaSource: z.enum(["request", "classifier"]),
    searchText: z.string(),
    adjacentWindow: z.number().int(),
    fanout: z.number().int(),
    bloomHint: z.enum(BLOOM_LEVELS).optional(),
    reasons: z.array(z.string()),
  }),
  confidence: z.number().min(0).max(100),
  explanations: z.array(z.string()),
  warnings: z.array(z.string()),
  suggestions: z.array(z.string()),
  debug: z.object({
    vectorMs: z.number(),
    keywordMs: z.number(),
    fuseMs: z.number(),
    embedMs: z.number(),
    rerankMs: z.number(),
    totalMs: z.number(),
    candidates: z.number().int(),
    scopeChunks: z.number().int(),
    bloomHintApplied: z.boolean(),
    reranker: z.enum(["llm", "offline", "fused-fallback", "none"]),
    retried: z.boolean(),
    embeddingModel: z.string(),
    /** Time in the planner's optional probes and focus (included in the legs' timings above). */
    planMs: z.number(),
    llmPlanMs: z.number(),
  }),
});
export type TRetrievalQueryResponse = z.infer<typeof RetrievalQueryResponseSchema>;

export const EnhanceQueryRequestSchema = z.strictObject({
  rawQuery: queryText("Query"),
  filters: RetrievalFiltersSchema,
  bloomTargets: BloomTargetsSchema.optional(),
});
export type TEnhanceQueryRequest = z.infer<typeof EnhanceQueryRequestSchema>;

export const TermHighlightSchema = z.object({
  term: z.string(),
  start: z.number().int(),
  end: z.number().int(),
  source: z.enum(["synonym", "metadata", "feedback", "bloom", "llm"]),
});

export const EnhanceQueryResponseSchema = z.object({
  ok: z.literal(true),
  rawQuery: z.string(),
  enhancedQuery: z.string(),
  addedTerms: z.array(
    z.object({ term: z.string(), source: TermHighlightSchema.shape.source, reason: z.string() }),
  ),
  explanations: z.array(z.string()),
  termHighlights: z.array(TermHighlightSchema),
  variants: z.array(z.string()),
  debug: z.object({
    ms: z.number(),
    source: z.enum(["llm", "offline"]),
    fallbackReason: z.string().optional(),
  }),
});
export type TEnhanceQueryResponse = z.infer<typeof EnhanceQueryResponseSchema>;

/** One resource of a subject, as the Resource subset picker lists it. */
export const FacetResourceSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  resourceType: z.enum(RESOURCE_TYPES),
  chapterNumber: z.number().int().nullable(),
  chapterName: z.string().nullable(),
  /** The book or paper the resource is part of: its title before " — " (a chapter of a book). */
  group: z.string(),
});
export type TFacetResource = z.infer<typeof FacetResourceSchema>;

export const FacetsResponseSchema = z.object({
  ok: z.literal(true),
  boards: z.array(
    z.object({
      board: z.string(),
      grades: z.array(
        z.object({
          grade: z.string(),
          subjects: z.array(
            z.object({
              subject: z.string(),
              resourceTypes: z.array(z.enum(RESOURCE_TYPES)),
              chapters: z.array(
                z.object({ number: z.number().int().nullable(), name: z.string().nullable() }),
              ),
              chunkCount: z.number().int(),
              /** The subject's resources, for the resource subset (textbooks first, by chapter). */
              resources: z.array(FacetResourceSchema),
            }),
          ),
        }),
      ),
    }),
  ),
});
export type TFacetsResponse = z.infer<typeof FacetsResponseSchema>;
