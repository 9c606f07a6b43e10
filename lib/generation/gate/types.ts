import type { EBloomLevel } from "@/types/bloom.types";
import type { TQuestion } from "@/types/generation.types";

/**
 * The flags of `QUESTION-RUBRIC.md` (the shared definition of quality), plus the structural
 * ones a question must pass before quality is even looked at.
 */
export const QUALITY_FLAGS = [
  "schema",
  "citation",
  "injection",
  "fragment",
  "vague_stem",
  "ungrammatical",
  "trivial",
  "copy_paste",
  "nonsense_distractor",
  "multiple_correct",
  "wrong_key",
  "answer_not_in_passage",
  "generic_rationale",
  "bloom_mismatch",
  "duplicate_fact",
  "off_topic",
] as const;
export type EQualityFlag = (typeof QUALITY_FLAGS)[number];

export interface IGateFinding {
  flag: EQualityFlag;
  message: string;
  /** `reject` findings stop the question; `warn` findings are shown to the teacher. */
  severity: "reject" | "warn";
}

export interface IGateResult {
  passed: boolean;
  findings: IGateFinding[];
  /** The Bloom level the question's demand supports (what earns the marks), by `estimateDemand`. */
  demand: EBloomLevel;
}

/** A passage sentence with its content stems, precomputed once per context. */
export interface IGateSentence {
  text: string;
  key: string;
  stems: ReadonlySet<string>;
}

export interface IGatePassage {
  key: string;
  documentId: string;
  content: string;
  sectionPath?: string;
  /** Chapter > section of the passage. */
  section: string;
}

export interface IGateContext {
  passages: ReadonlyMap<string, IGatePassage>;
  sentences: readonly IGateSentence[];
  /** Documents the questions must come from (the request's scope or the context's main documents). */
  scopeDocuments: ReadonlySet<string>;
  /** Sections (chapter > section) the questions must come from; empty: any section of the documents. */
  scopeSections: ReadonlySet<string>;
  /**
   * Whether a short phrase is used anywhere in the subject's text (undefined: unknown). Options
   * that are never used as a phrase ("gas organisms", "electric personality") are not concepts.
   */
  knownPhrase?: (phrase: string) => boolean | undefined;
}

export interface IGateState {
  /** Questions already accepted in this set (duplicate facts). */
  accepted: readonly TQuestion[];
  /** Prompts the new question must differ from (a regeneration). */
  avoidPrompts?: readonly string[];
}

/** Checks a run may leave out: the author-written reference MCQs carry no rationales or citations. */
export interface IGateOptions {
  skip?: readonly EQualityFlag[];
}
