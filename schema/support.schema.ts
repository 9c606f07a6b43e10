import { z } from "zod";
import { QUESTION_TYPES } from "@/schema/enums.schema";
import { BLOOM_LEVELS } from "@/types/bloom.types";
import { ChunkRefSchema } from "./generation.schema";

/** The passages the teacher has selected, to be read for what questions they can support. */
export const GenerationSupportRequestSchema = z.strictObject({
  context: z.array(ChunkRefSchema).min(1, "Select at least one passage").max(60),
});

export const SupportRowSchema = z.object({
  type: z.enum(QUESTION_TYPES),
  level: z.enum(BLOOM_LEVELS),
  /**
   * Distinct questions the offline forms write for this type and level that pass the quality gate
   * (a dry run, counted up to 3; 0: none can be written, and `reason` says why).
   */
  count: z.number().int().min(0),
  /** Why the count is 0, in the teacher's terms; empty otherwise. */
  reason: z.string(),
  /**
   * The same count when the rest of the selected passages' section is also used ("Also use the
   * rest of the section" in the blueprint; `useSection` on generation): never below `count`.
   */
  withSection: z.number().int().min(0).optional(),
});

export const GenerationSupportResponseSchema = z.object({
  ok: z.literal(true),
  /** One row per question type and Bloom level (3 × 6). */
  support: z.array(SupportRowSchema),
});

export type TGenerationSupportRequest = z.infer<typeof GenerationSupportRequestSchema>;
export type TSupportRow = z.infer<typeof SupportRowSchema>;
