import { z } from "zod";
import { BLOOM_LEVELS } from "@/types/bloom.types";
import { RESOURCE_TYPES } from "@/types/curriculum.types";
import { QUERY_TYPES } from "@/types/retrieval.types";

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
});
export type TRetrievalFilters = z.infer<typeof RetrievalFiltersSchema>;

export const BloomTargetsSchema = z.array(z.enum(BLOOM_LEVELS)).min(1).max(6);

/** Per-level weights: fractions summing to 1, or counts (validated by generation where it matters). */
export const BloomDistributionSchema = z
  .partialRecord(z.enum(BLOOM_LEVELS), z.number().min(0).max(100))
  .refine((d) => Object.values(d).some((v) => (v ?? 0) > 0), "At least one Bloom level needs a weight");

const queryText = (name: string) =>
  z
    .string()
    .max(2000, `${name} is at most 2,000 characters`)
    // Control characters (NUL and friends) become spaces; tabs and newlines are ordinary whitespace.
    .transform((s) => s.replace(/\p{Cc}/gu, " ").trim())
    .pipe(z.string().min(1, `${name} must not be empty`));

export const RetrievalQueryRequestSchema = z.strictObject({
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
});
export type TRetrievalQueryRequest = z.infer<typeof RetrievalQueryRequestSchema>;
export type TRetrievalQueryInput = z.input<typeof RetrievalQueryRequestSchema>;

export const RetrievalItemSchema = z.object({
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
  expandedFrom: z.number().int().optional(),
  explanation: z.string().optional(),
});
export type TRetrievalItem = z.infer<typeof RetrievalItemSchema>;

export const RetrievalQueryResponseSchema = z.object({
  ok: z.literal(true),
  items: z.array(RetrievalItemSchema),
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
            }),
          ),
        }),
      ),
    }),
  ),
});
export type TFacetsResponse = z.infer<typeof FacetsResponseSchema>;
