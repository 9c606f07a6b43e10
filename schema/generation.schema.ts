import { z } from "zod";
import { BLOOM_LEVELS } from "@/types/bloom.types";
import { DIFFICULTIES, QUESTION_TYPES, STRATEGIES } from "@/types/generation.types";
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

export const ChunkRefSchema = z.strictObject({
  documentId: z.uuid(),
  chunkIndex: z.number().int().min(0).max(1_000_000),
});

export const GenerationRequestSchema = z.strictObject({
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
  /** Questions already in the teacher's set: a regenerated question must differ from them. */
  avoidPrompts: z.array(z.string().max(1500)).max(60).optional(),
  /** Deterministic runs (offline generator); defaults to a random seed. */
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .optional(),
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
