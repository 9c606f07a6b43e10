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
  /** A finding the `strict` profile refuses, shown as a warning under the `model` profile. */
  downgraded?: boolean;
  /** Refuses under every profile (a near copy of a question already in the set). */
  hard?: boolean;
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
  /** The passage was in the context the question was written from (the teacher's selection). */
  selected: boolean;
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

/**
 * Which findings refuse. `strict` (the offline generator, which proposes many candidates and
 * relies on the gate to drop its junk): every rule refuses as written. `model` (a language-model
 * draft, of which there is one per slot, and which teachers read as usable far more often than the
 * strict rules allowed): only the faults that make a question wrong or unsafe refuse
 * (`REFUSAL_FLAGS`); style, wording, a possible duplicate or a Bloom doubt become warnings on the card.
 */
export type EGateProfile = "strict" | "model";

/** Findings that refuse a question under the `model` profile: a wrong, unsupported, planted or broken question. */
export const REFUSAL_FLAGS: ReadonlySet<EQualityFlag> = new Set<EQualityFlag>([
  "schema",
  "citation",
  "injection",
  "wrong_key",
  "multiple_correct",
  "answer_not_in_passage",
  "off_topic",
]);

/** Checks a run may leave out: the author-written reference MCQs carry no rationales or citations. */
export interface IGateOptions {
  skip?: readonly EQualityFlag[];
  /** Default `strict`. */
  profile?: EGateProfile;
}
