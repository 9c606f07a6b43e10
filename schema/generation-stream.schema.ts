import { z } from "zod";
import { DIFFICULTIES, QUESTION_TYPES } from "@/schema/enums.schema";
import { BLOOM_LEVELS } from "@/types/bloom.types";
import {
  DRAFT_FIELDS,
  type IGenerationErrorData,
  type IGenerationSetData,
  type IProgressPartData,
  type TQuestionPartData,
} from "@/types/generation.types";
import { MarkingPointSchema, QuestionSchema } from "./generation.schema";

/**
 * The events of `POST /api/generation`, for the OpenAPI document: an AI SDK UI message stream
 * (server-sent events), one JSON object per `data:` line, closed by the line `data: [DONE]`. The
 * TypeScript types the server writes (types/generation.types.ts) are checked against these below.
 */

const SlotSchema = z.object({
  id: z.string(),
  index: z.number().int(),
  type: z.enum(QUESTION_TYPES),
  bloomLevel: z.enum(BLOOM_LEVELS),
  marks: z.number().int(),
  difficulty: z.enum(DIFFICULTIES),
  /** `documentId:chunkIndex` keys of the passages to draw on, best first. */
  sourceKeys: z.array(z.string()),
});

const DraftSchema = z.object({
  attempt: z.number().int(),
  writing: z.enum(DRAFT_FIELDS),
  promptText: z.string(),
  options: z.array(z.string()).optional(),
  correctIndex: z.number().int().optional(),
  explanation: z.string().optional(),
  distractorRationales: z.array(z.string()).optional(),
  suggestedAnswer: z.string().optional(),
  evaluatorKeywords: z.array(z.string()).optional(),
  markingScheme: z.array(MarkingPointSchema).optional(),
  citations: z.array(z.string()).optional(),
});

export const QuestionPartDataSchema = z
  .union([
    z.object({ slot: SlotSchema, status: z.literal("generating"), note: z.string().optional() }),
    z.object({ slot: SlotSchema, status: z.literal("draft"), draft: DraftSchema }),
    z.object({ slot: SlotSchema, status: z.literal("final"), question: QuestionSchema }),
    z.object({ slot: SlotSchema, status: z.literal("failed"), reason: z.string() }),
  ])
  .meta({
    id: "GenerationQuestionPart",
    description:
      "One question slot, rewritten in place under the same part id: generating → draft (a language model is writing it; never usable) → final (the accepted question) | failed (why the slot is empty)",
  });

export const ProgressPartDataSchema = z
  .object({
    stage: z.enum(["answerability", "planning", "generating", "persisting", "done"]),
    done: z.number().int(),
    total: z.number().int(),
    message: z.string(),
  })
  .meta({ id: "GenerationProgressPart", description: "How far the run is" });

export const ErrorPartDataSchema = z
  .object({ code: z.string(), message: z.string(), slotId: z.string().optional() })
  .meta({ id: "GenerationErrorPart", description: "A failure of the whole run, or of one slot (slotId)" });

export const SetPartDataSchema = z
  .object({
    setId: z.string(),
    generated: z.number().int(),
    requested: z.number().int(),
    warnings: z.array(z.string()),
  })
  .meta({
    id: "GenerationSetPart",
    description:
      "The last data part: the saved set (GET /api/question-sets/{id}) and how many slots were filled",
  });

const dataPart = <T extends string, S extends z.ZodType>(type: T, data: S) =>
  z.object({ type: z.literal(type), id: z.string().optional(), data, transient: z.boolean().optional() });

/** One `data:` line of the stream (JSON). The AI SDK's own control events are listed last. */
export const GenerationStreamEventSchema = z
  .union([
    dataPart("data-question", QuestionPartDataSchema),
    dataPart("data-progress", ProgressPartDataSchema),
    dataPart("data-error", ErrorPartDataSchema),
    dataPart("data-set", SetPartDataSchema),
    dataPart("data-notice", z.object({ message: z.string() })),
    z.object({ type: z.literal("start"), messageId: z.string().optional() }).loose(),
    z.object({ type: z.enum(["start-step", "finish-step", "finish", "abort"]) }).loose(),
    z.object({ type: z.literal("error"), errorText: z.string() }),
  ])
  .meta({
    id: "GenerationStreamEvent",
    description:
      "One server-sent event of the generation stream: each line `data: <JSON>` holds one of these; the stream ends with the line `data: [DONE]` (not JSON)",
  });

// The server writes the TypeScript types; these fail to compile when a schema drifts from them.
type TSame<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agree: [
  TSame<z.infer<typeof QuestionPartDataSchema>, TQuestionPartData>,
  TSame<z.infer<typeof ProgressPartDataSchema>, IProgressPartData>,
  TSame<z.infer<typeof ErrorPartDataSchema>, IGenerationErrorData>,
  TSame<z.infer<typeof SetPartDataSchema>, IGenerationSetData>,
] = [true, true, true, true];
void agree;
