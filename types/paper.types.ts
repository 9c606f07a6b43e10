import type { EBloomLevel } from "./bloom.types";
import type { EDifficulty, EQuestionType } from "./generation.types";

export const PAPER_TEMPLATES = ["board-80", "unit-test-20", "blank"] as const;
export type EPaperTemplate = (typeof PAPER_TEMPLATES)[number];

export const EXPORT_FORMATS = ["pdf", "docx", "md", "gift", "qti"] as const;
export type EExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_PARTS = ["paper", "answer-key"] as const;
export type EExportPart = (typeof EXPORT_PARTS)[number];

/** The three-band cognitive mix used by board blueprints (e.g. CBSE 2024+ papers). */
export const BLOOM_BANDS = ["Remember+Understand", "Apply", "Analyze+Evaluate+Create"] as const;
export type EBloomBand = (typeof BLOOM_BANDS)[number];

export const BLOOM_BAND_OF: Record<EBloomLevel, EBloomBand> = {
  Remember: "Remember+Understand",
  Understand: "Remember+Understand",
  Apply: "Apply",
  Analyze: "Analyze+Evaluate+Create",
  Evaluate: "Analyze+Evaluate+Create",
  Create: "Analyze+Evaluate+Create",
};

export interface IPaperCitation {
  documentId: string;
  chunkIndex: number;
  title: string;
  pageStart?: number;
  pageEnd?: number;
  quote: string;
}

/**
 * A question as it stands in a paper: a copy, so later edits to the generated set do not change a
 * finished paper. `sourceQuestionId` remembers where it came from (for "swap for a similar one").
 */
export interface IPaperQuestion {
  type: EQuestionType;
  bloomLevel: EBloomLevel;
  difficulty: EDifficulty;
  promptText: string;
  options?: string[];
  correctIndex?: number;
  explanation?: string;
  distractorRationales?: string[];
  suggestedAnswer?: string;
  evaluatorKeywords?: string[];
  markingScheme?: { point: string; marks: number }[];
  citations: IPaperCitation[];
  /** Chapter label ("4 · Cell Structure") resolved from the cited document, for the blueprint. */
  chapter?: string;
  sourceQuestionId?: string;
}

export interface IPyqMatch {
  documentId: string;
  title: string;
  pageStart?: number;
  /** The past-paper question text that matched. */
  text: string;
  /** Similarity in [0, 1]. */
  score: number;
}

export interface IPaperItem {
  id: string;
  marks: number;
  question: IPaperQuestion;
  /** Internal choice: the OR alternative of this question (same marks). */
  alternative?: IPaperQuestion;
  /** The teacher has seen the past-paper match and keeps the question anyway. */
  keepDespitePyq?: boolean;
}

export interface IPaperSection {
  id: string;
  name: string;
  instructions?: string;
  /** The type this section holds; "mixed" accepts any. */
  questionType: EQuestionType | "mixed";
  /** Marks every question of the section carries (optional for mixed sections). */
  marksPerQuestion?: number;
  /** Internal choice "attempt any N of M": only the N highest-mark items count. */
  attemptAny?: number;
  items: IPaperItem[];
}

export interface IPaperBlueprint {
  /** Target marks per chapter label. */
  chapters?: Record<string, number>;
  /** Target marks per Bloom level, or per three-band mix (use one of the two). */
  bloom?: Partial<Record<EBloomLevel, number>>;
  bloomBands?: Partial<Record<EBloomBand, number>>;
  /** Target marks per question type. */
  types?: Partial<Record<EQuestionType, number>>;
  /** Target share of marks per difficulty, in percent. */
  difficulty?: Partial<Record<EDifficulty, number>>;
  /** How far (in marks, or percentage points for difficulty) a total may stray and still pass. */
  tolerance: number;
}

export interface IPaper {
  id: string;
  title: string;
  schoolName?: string;
  board: string;
  grade: string;
  subject: string;
  durationMinutes: number;
  totalMarks: number;
  instructions: string[];
  sections: IPaperSection[];
  blueprint?: IPaperBlueprint;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface IPaperSummary {
  id: string;
  title: string;
  board: string;
  grade: string;
  subject: string;
  totalMarks: number;
  countedMarks: number;
  itemCount: number;
  updatedAt: string;
}

export type ECheckStatus = "ok" | "under" | "over";

export interface ICheckRow {
  key: string;
  target?: number;
  actual: number;
  status: ECheckStatus;
}

export interface IPaperProblem {
  path: string;
  message: string;
}

/** The live blueprint check: what the paper adds up to against its targets. */
export interface IPaperCheck {
  countedMarks: number;
  totalMarks: number;
  /** Structural problems that block export (marks that do not add up, empty sections, ...). */
  problems: IPaperProblem[];
  chapters: ICheckRow[];
  bloom: ICheckRow[];
  bloomBands: ICheckRow[];
  types: ICheckRow[];
  difficulty: ICheckRow[];
  /** True when there are no problems and every targeted row is within tolerance. */
  blueprintMet: boolean;
}
