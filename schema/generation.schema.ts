import { z } from "zod";
import { DIFFICULTIES, QUESTION_TYPES, STRATEGIES } from "@/schema/enums.schema";
import { BLOOM_LEVELS } from "@/types/bloom.types";
import { queryIntOr } from "./query.schema";
import { BloomTargetsSchema, RetrievalFiltersSchema } from "./retrieval.schema";

export const MAX_QUESTIONS = 60;

const BlueprintItemSchema = z.strictObject({
  type: z.enum(QUESTION_TYPES),
  count: z.number().int().min(1).max(50),
  bloomLevel: z.enum(BLOOM_LEVELS).optional(),
  marks: z.number().int().min(1).max(20).optional(),
});

export const BlueprintSchema = z
  .strictObject({
    items: z.array(BlueprintItemSchema).min(1).max(10),
    bloomTargets: BloomTargetsSchema.optional(),
    /** Per-level share: fractions summing to 1, or counts summing to the question total. */
    bloomDistribution: z.partialRecord(z.enum(BLOOM_LEVELS), z.number().min(0).max(MAX_QUESTIONS)).optional(),
    difficulty: z.enum([...DIFFICULTIES, "mixed"]).default("mixed"),
    /**
     * Leave a slot empty (with its reason) rather than fill it at the nearest level the passages
     * support. Off by default: a substituted question says so and carries its true level.
     */
    strictLevels: z.boolean().default(false),
  })
  .superRefine((b, ctx) => {
    const total = b.items.reduce((n, i) => n + i.count, 0);
    if (total > MAX_QUESTIONS) {
      ctx.addIssue({
        code: "custom",
        path: ["items"],
        message: `At most ${MAX_QUESTIONS} questions per request (asked for ${total})`,
      });
    }
    if (b.bloomDistribution) {
      const values = Object.values(b.bloomDistribution).filter((v): v is number => typeof v === "number");
      const sum = values.reduce((a, v) => a + v, 0);
      const fractions = Math.abs(sum - 1) <= 0.01;
      const counts = values.every((v) => Number.isInteger(v)) && sum === total;
      if (!fractions && !counts) {
        ctx.addIssue({
          code: "custom",
          path: ["bloomDistribution"],
          message: `Must be fractions adding up to 1 or counts adding up to ${total} (got ${Math.round(sum * 100) / 100})`,
        });
      }
    }
  });
export type TBlueprint = z.infer<typeof BlueprintSchema>;

/** Hex 8-4-4-4-12 without an RFC version check (stored ids are not all version 4). */
const ANY_UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export const ChunkRefSchema = z.strictObject({
  documentId: z.uuid(),
  chunkIndex: z.number().int().min(0).max(1_000_000),
});

export const GenerationRequestSchema = z
  .strictObject({
    filters: RetrievalFiltersSchema,
    context: z.array(ChunkRefSchema).min(1, "Select at least one passage").max(60),
    blueprint: BlueprintSchema,
    strategy: z.enum(STRATEGIES).default("grounded"),
    samples: z.number().int().min(2).max(3).optional(),
    temperature: z.number().min(0).max(1.5).optional(),
    language: z
      .string()
      .regex(/^[a-z]{2,3}(-[A-Za-z]{2,4})?$/, "Use a language code such as 'en' or 'hi'")
      .optional(),
    /**
     * What the set is about (the teacher's query, a section title): questions come from the
     * passages of the sections that match it; other passages only supply wrong options.
     */
    topic: z.string().trim().max(500).optional(),
    /**
     * Also draw on the rest of the selected passages' section for a slot the selection cannot fill
     * (said so on the set). Off by default: questions cite only the passages the teacher kept.
     */
    useSection: z.boolean().default(false),
    /** Questions already in the teacher's set: a regenerated question must differ from them. */
    avoidPrompts: z.array(z.string().max(1500)).max(60).optional(),
    /**
     * "Regenerate" / "Try again": the saved question this one-question set replaces. "Add
     * questions from your sets" then lists the latest version once, with its earlier versions.
     */
    replaces: z.string().regex(ANY_UUID, "Not a question id").optional(),
    /**
     * The client's id for this run. With it, a dropped connection (a reload, a closed tab) lets the
     * set finish and be saved; only `POST /api/generation/stop` with the same id stops it. Without
     * it, the reader going away stops the run and nothing is saved.
     */
    runId: z.string().regex(ANY_UUID, "Not a run id (a UUID)").optional(),
    /** Deterministic runs (offline generator); defaults to a random seed. */
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .optional(),
  })
  .meta({
    id: "GenerationRequest",
    description:
      "What to generate: the filters, the passages chosen as context (by document and chunk; the server loads them) and the blueprint of question types, counts and Bloom levels",
  });
export type TGenerationRequest = z.infer<typeof GenerationRequestSchema>;
export type TGenerationRequestInput = z.input<typeof GenerationRequestSchema>;

/** What an LLM must return for one question (OpenAI strict output: nullable, not optional). */
export const LlmQuestionSchema = z.object({
  promptText: z.string().min(8).max(1200),
  options: z.array(z.string().min(1).max(300)).nullable(),
  correctIndex: z.number().int().min(0).max(3).nullable(),
  explanation: z.string().max(1500).nullable(),
  distractorRationales: z.array(z.string().max(400)).nullable(),
  suggestedAnswer: z.string().max(3000).nullable(),
  evaluatorKeywords: z.array(z.string().max(60)).nullable(),
  markingScheme: z
    .array(z.object({ point: z.string().max(400), marks: z.number().int().min(1).max(20) }))
    .nullable(),
  citations: z.array(z.string().max(80)).min(1),
});
export type TLlmQuestion = z.infer<typeof LlmQuestionSchema>;

// ---- Responses: what the API returns for saved questions (types/generation.types.ts infers them).

export const ContextRefSchema = z.object({
  documentId: z.string(),
  chunkIndex: z.number().int(),
  title: z.string(),
  pageStart: z.number().int().optional(),
  pageEnd: z.number().int().optional(),
  /** The sentence(s) of the passage that support the question. */
  quote: z.string(),
});

/** What the gate checked about a question before it was accepted. */
export const ValidationSchema = z.object({
  citationsOk: z.boolean(),
  supported: z.boolean(),
  /** The quality gate's reading of the demand equals the label. */
  bloomAgreed: z.boolean(),
  regenerated: z.boolean(),
  /** Warnings of the quality gate (rejections never reach a saved question). */
  flags: z.array(z.string()),
  /** The Bloom level the question's demand supports, as the quality gate reads it. */
  demand: z.enum(BLOOM_LEVELS).optional(),
  /** The level the blueprint asked for when nothing acceptable could be written at it. */
  substitutedFor: z.enum(BLOOM_LEVELS).optional(),
  /**
   * In a set the language model writes: why the offline generator wrote this question instead
   * ("the model's drafts were refused: …", "the model provider was not responding").
   */
  offlineReason: z.string().optional(),
});

export const MarkingPointSchema = z.object({ point: z.string(), marks: z.number() });

const questionBase = {
  id: z.string(),
  bloomLevel: z.enum(BLOOM_LEVELS),
  promptText: z.string(),
  marks: z.number().int(),
  difficulty: z.enum(DIFFICULTIES),
  contextRefs: z.array(ContextRefSchema),
  validation: ValidationSchema,
  /** Which generator wrote it: the LLM, or the offline algorithm (also as a fallback). */
  source: z.enum(["llm", "offline"]),
  /** The teacher has changed it by hand since it was generated. */
  edited: z.boolean().optional(),
  /** Its stem or options changed and the teacher has not yet confirmed the key / model answer. */
  checkAnswer: z.boolean().optional(),
};

export const McqQuestionSchema = z.object({
  ...questionBase,
  type: z.literal("mcq"),
  options: z.array(z.string()),
  correctIndex: z.number().int(),
  explanation: z.string(),
  distractorRationales: z.array(z.string()),
});

export const ShortQuestionSchema = z.object({
  ...questionBase,
  type: z.literal("short"),
  suggestedAnswer: z.string(),
  evaluatorKeywords: z.array(z.string()),
  /** Separate, checkable ideas that add up to the marks (absent on sets saved before schemes). */
  markingScheme: z.array(MarkingPointSchema).optional(),
});

export const LongQuestionSchema = z.object({
  ...questionBase,
  type: z.literal("long"),
  suggestedAnswer: z.string(),
  evaluatorKeywords: z.array(z.string()),
  markingScheme: z.array(MarkingPointSchema),
});

export const QuestionSchema = z
  .discriminatedUnion("type", [McqQuestionSchema, ShortQuestionSchema, LongQuestionSchema])
  .meta({
    id: "Question",
    description:
      "A generated question: mcq (options, correctIndex, explanation, distractorRationales), short or long (suggestedAnswer, evaluatorKeywords, markingScheme), with the passages it cites and what the quality gate checked",
  });

export const QUESTION_STATUSES = ["draft", "approved", "rejected"] as const;

/** A question as saved: its set and review status besides the question itself. */
export const SavedQuestionSchema = z
  .intersection(QuestionSchema, z.object({ setId: z.string(), status: z.enum(QUESTION_STATUSES) }))
  .meta({
    id: "SavedQuestion",
    description: "A question as saved: its set and review status besides the question",
  });

/** A saved set's scope as its request gave it (board, class, subject, chapter, resource subset). */
const SetFiltersSchema = z.object({
  board: z.string(),
  grade: z.string(),
  subject: z.string(),
  chapterNumber: z.number().int().optional(),
  documentIds: z.array(z.uuid()).optional(),
});

export const QuestionSetSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    board: z.string(),
    grade: z.string(),
    subject: z.string(),
    generator: z.string(),
    warnings: z.array(z.string()),
    /** ISO 8601 time the set was generated. */
    createdAt: z.string(),
    /** What the questions are about: the query the passages were found with (null when not given). */
    topic: z.string().nullable(),
    /** The scope the set was made in (with its resource subset, when one was chosen). */
    filters: SetFiltersSchema,
    /** The passages the set was generated from, in the order they were sent. */
    context: z.array(z.object({ documentId: z.uuid(), chunkIndex: z.number().int() })),
    questions: z.array(SavedQuestionSchema),
  })
  .meta({
    id: "QuestionSet",
    description: "A generated question set with its saved questions, in slot order",
  });

/** One of the caller's recent sets (GET /api/question-sets): enough to find it and reopen it. */
export const QuestionSetSummarySchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    topic: z.string().nullable(),
    filters: SetFiltersSchema,
    createdAt: z.string(),
    /** Passages the set was generated from. */
    contextCount: z.number().int(),
    questionCount: z.number().int(),
    approved: z.number().int(),
    rejected: z.number().int(),
  })
  .meta({
    id: "QuestionSetSummary",
    description: "A generated set in the recent-sets list: topic, scope, time, size and review counts",
  });

export type TQuestionSetSummary = z.infer<typeof QuestionSetSummarySchema>;
export type TQuestionSet = z.infer<typeof QuestionSetSchema>;

/** GET /api/question-sets: the caller's recent sets, newest first. */
export const ListQuestionSetsQuerySchema = z.strictObject({
  limit: queryIntOr(1, 50, 10),
});

export const QuestionSummarySchema = z
  .object({
    id: z.string(),
    setId: z.string(),
    setTitle: z.string(),
    /** The subject of the set it came from (a paper of another subject asks before adding it). */
    subject: z.string(),
    type: z.enum(QUESTION_TYPES),
    bloomLevel: z.enum(BLOOM_LEVELS),
    difficulty: z.enum(DIFFICULTIES),
    marks: z.number().int(),
    promptText: z.string(),
    status: z.enum(QUESTION_STATUSES),
    chapter: z.string().optional(),
    createdAt: z.string(),
    /**
     * Earlier versions this question replaced ("Regenerate" / "Try again"), newest first; they are
     * not listed on their own.
     */
    earlierVersions: z
      .array(
        z.object({
          id: z.string(),
          promptText: z.string(),
          status: z.enum(QUESTION_STATUSES),
          createdAt: z.string(),
        }),
      )
      .optional(),
  })
  .meta({ id: "QuestionSummary", description: "A saved question in search results (for reuse in papers)" });

/** POST /api/generation/stop: the teacher's Stop for the run started with this `runId`. */
export const StopGenerationSchema = z.strictObject({
  runId: z.string().regex(ANY_UUID, "Not a run id (a UUID)"),
});

/** GET /api/questions: the caller's saved questions, for reuse in papers. */
export const QuestionSearchQuerySchema = z.strictObject({
  type: z.enum(QUESTION_TYPES).optional(),
  bloomLevel: z.enum(BLOOM_LEVELS).optional(),
  chapter: z.string().trim().min(1).max(200).optional(),
  q: z.string().trim().min(1).max(200).optional(),
  limit: queryIntOr(1, 200, 50),
});
export type TQuestionSearchQuery = z.input<typeof QuestionSearchQuerySchema>;

const editText = (min: number, max: number, message: string) => z.string().trim().min(min, message).max(max);

/** A marking point as a teacher edits it: the idea and its whole marks. */
export const EditMarkingPointSchema = z.strictObject({
  point: editText(1, 400, "A marking point is empty"),
  marks: z
    .number()
    .int("Marks must be whole numbers")
    .min(1, "A marking point carries at least 1 mark")
    .max(20),
});

/**
 * PATCH /api/questions/[id]: review state and edits by hand. Fields a question type does not have
 * (options on a short answer) are refused; the merged question must still hold together
 * (`questionEditIssues`).
 */
export const PatchQuestionSchema = z
  .strictObject({
    status: z.enum(QUESTION_STATUSES).optional(),
    promptText: editText(8, 1500, "The question needs at least 8 characters").optional(),
    marks: z.number().int().min(1).max(20).optional(),
    bloomLevel: z.enum(BLOOM_LEVELS).optional(),
    options: z
      .array(editText(1, 300, "An option is empty"))
      .min(2)
      .max(6)
      .optional(),
    correctIndex: z.number().int().min(0).max(5).optional(),
    /** The MCQ's explanation of the key. */
    explanation: editText(0, 1500, "").optional(),
    /** The model answer of a short or long answer. */
    suggestedAnswer: editText(0, 3000, "").optional(),
    markingScheme: z.array(EditMarkingPointSchema).max(20).optional(),
    /** true: the stem or options changed and the key needs checking; false: the teacher checked it. */
    checkAnswer: z.boolean().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, "Nothing to change");
export type TPatchQuestion = z.infer<typeof PatchQuestionSchema>;

/** What an edited question must satisfy as a whole, whichever fields were changed. */
export interface IEditableQuestion {
  type: (typeof QUESTION_TYPES)[number];
  marks: number;
  options?: readonly string[];
  correctIndex?: number;
  markingScheme?: readonly { point: string; marks: number }[];
}

/**
 * Problems of an edited question as a whole, with the field they belong to: exactly one key among
 * distinct options, and marking points that add up to the marks. The card and the paper builder
 * show them; PATCH refuses a question that has any (422).
 */
export function questionEditIssues(q: IEditableQuestion): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  if (q.type === "mcq") {
    const options = q.options ?? [];
    const norm = options.map((o) => o.trim().toLowerCase().replace(/\s+/g, " "));
    const dup = norm.findIndex((o, i) => o !== "" && norm.indexOf(o) !== i);
    if (dup >= 0) {
      issues.push({
        path: `options.${dup}`,
        message: `Options ${String.fromCharCode(65 + norm.indexOf(norm[dup]!))} and ${String.fromCharCode(65 + dup)} are the same: there must be exactly one right answer`,
      });
    }
    if (q.correctIndex === undefined || q.correctIndex < 0 || q.correctIndex >= options.length) {
      issues.push({ path: "correctIndex", message: "Mark exactly one option as the right answer" });
    }
  }
  const scheme = q.markingScheme ?? [];
  if (scheme.length > 0) {
    const sum = scheme.reduce((a, p) => a + p.marks, 0);
    if (sum !== q.marks) {
      issues.push({
        path: "markingScheme",
        message: `The marking points add up to ${sum} mark${sum === 1 ? "" : "s"}; the question carries ${q.marks}`,
      });
    }
  }
  return issues;
}
