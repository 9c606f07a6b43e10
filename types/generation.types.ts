import type { UIMessage } from "ai";
import type { z } from "zod";
import type { DIFFICULTIES, QUESTION_TYPES, STRATEGIES } from "@/schema/enums.schema";
import type {
  ContextRefSchema,
  LongQuestionSchema,
  McqQuestionSchema,
  QuestionSummarySchema,
  ShortQuestionSchema,
  ValidationSchema,
} from "@/schema/generation.schema";
import type { EBloomLevel } from "./bloom.types";
import type { EZone, TZoneSpan } from "./chunk.types";

export type EQuestionType = (typeof QUESTION_TYPES)[number];

export type EDifficulty = (typeof DIFFICULTIES)[number];

export type EStrategy = (typeof STRATEGIES)[number];

/** A passage the teacher selected, loaded by the server (never trusted from the client). */
export interface IContextChunk {
  documentId: string;
  chunkIndex: number;
  content: string;
  title: string;
  pageStart?: number;
  pageEnd?: number;
  sectionPath?: string;
  /** What the passage is (lib/ingestion/zones.ts); read from its text when missing. */
  zone?: EZone;
  /** Its runs by zone, [start, end, zone] offsets into `content`; read from its text when missing. */
  zoneSpans?: TZoneSpan[];
  /**
   * A passage of another document of the subject, cut to its defining sentences (`loadScope`):
   * a source of wrong options of the key's kind only, never of questions, sections or citations.
   */
  optionsOnly?: boolean;
}

/**
 * The one spelling of a passage's key, `documentId:chunkIndex`: selection sets, lookups by
 * citation, the prompt's passage ids and the offline generator's sentence keys all use it.
 */
export const passageKey = (p: Pick<IContextChunk, "documentId" | "chunkIndex">): string =>
  `${p.documentId}:${p.chunkIndex}`;

export type IContextRef = z.infer<typeof ContextRefSchema>;

export type IValidation = z.infer<typeof ValidationSchema>;

export type IMcqQuestion = z.infer<typeof McqQuestionSchema>;

export type IShortQuestion = z.infer<typeof ShortQuestionSchema>;

export type ILongQuestion = z.infer<typeof LongQuestionSchema>;

export type TQuestion = IMcqQuestion | IShortQuestion | ILongQuestion;

/** One planned question: what to write, at which level, from which passages. */
export interface ISlot {
  id: string;
  index: number;
  type: EQuestionType;
  bloomLevel: EBloomLevel;
  marks: number;
  difficulty: EDifficulty;
  /** `documentId:chunkIndex` keys of the passages to draw on, best first. */
  sourceKeys: string[];
}

/** The part of a question a language model is writing, as its draft streams in. */
export const DRAFT_FIELDS = [
  "stem",
  "options",
  "answer",
  "explanation",
  "rationales",
  "keywords",
  "scheme",
  "citations",
] as const;
export type EDraftField = (typeof DRAFT_FIELDS)[number];

/**
 * A language model's question while it is being written: only complete pieces (the stem grows;
 * an option, rationale, keyword or marking point appears once it is complete). Never final: the
 * quality gate reads the whole draft and either accepts it (a `final` part replaces it) or
 * refuses it (a rewrite, an offline question or the slot's reason replaces it).
 */
export interface IQuestionDraft {
  /** 1 for the first draft; 2 for the rewrite after the gate refused the first. */
  attempt: number;
  /** What the model is writing now. */
  writing: EDraftField;
  promptText: string;
  options?: string[];
  correctIndex?: number;
  explanation?: string;
  distractorRationales?: string[];
  suggestedAnswer?: string;
  evaluatorKeywords?: string[];
  markingScheme?: { point: string; marks: number }[];
  /** `documentId:chunkIndex` of the given passages the draft cites. */
  citations?: string[];
}

/**
 * Data parts of the generation stream (AI SDK UI message stream), one per slot with the slot's
 * id, rewritten in place: generating → draft (language model only, repeatedly) → final | failed.
 */
export type TQuestionUpdate =
  | {
      status: "generating";
      /** Why the slot is being written again (the gate refused a draft, the model failed). */
      note?: string;
    }
  | { status: "draft"; draft: IQuestionDraft }
  | { status: "final"; question: TQuestion }
  | {
      status: "failed";
      /** Why the slot is empty (what the gate refused, or what the passages lack). */
      reason: string;
    };

export type TQuestionPartData = { slot: ISlot } & TQuestionUpdate;

export interface IProgressPartData {
  stage: "answerability" | "planning" | "generating" | "persisting" | "done";
  done: number;
  total: number;
  message: string;
}

export interface IGenerationErrorData {
  code: string;
  message: string;
  slotId?: string;
}

export interface IGenerationSetData {
  setId: string;
  generated: number;
  requested: number;
  warnings: string[];
}

export type TGenerationDataParts = {
  question: TQuestionPartData;
  progress: IProgressPartData;
  error: IGenerationErrorData;
  set: IGenerationSetData;
  notice: { message: string };
};

/** The generation stream's message: the route writes it, `hooks/use-generation.ts` reads it. */
export type TGenerationMessage = UIMessage<never, TGenerationDataParts>;

export type IQuestionSummary = z.infer<typeof QuestionSummarySchema>;
