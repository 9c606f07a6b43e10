import type { IContextChunk } from "@/types/generation.types";
import { extractPhraseConcepts } from "./knowledge/lexicon";
import { collectSentences } from "./knowledge/sentences";

export interface IAnswerability {
  requested: number;
  /** Standalone, testable sentences a question can be built on. */
  capacity: number;
  terms: number;
  enough: boolean;
  reasons: string[];
}

/** Offline coverage check: one testable sentence per question, and enough concepts for MCQ options. */
export function assessAnswerability(
  chunks: readonly IContextChunk[],
  requested: number,
  mcqCount: number,
): IAnswerability {
  const sentences = collectSentences(chunks);
  const capacity = sentences.filter((s) => s.standalone && !s.sideBox).length;
  // Recurring names are enough to count options; definitions are the generator's business.
  const terms = extractPhraseConcepts(sentences).length;
  const reasons: string[] = [];
  if (capacity < requested) {
    reasons.push(`The selected passages hold ${capacity} testable sentences for ${requested} questions.`);
  }
  if (mcqCount > 0 && terms < 4) {
    reasons.push(`Only ${terms} distinct concepts for MCQ options (4 needed).`);
  }
  return { requested, capacity, terms, enough: capacity >= requested, reasons };
}
