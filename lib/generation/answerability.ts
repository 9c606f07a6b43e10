import type { IContextChunk } from "@/types/generation.types";
import { extractConcepts, extractTerms } from "./knowledge/lexicon";
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
  const terms = extractConcepts(sentences, extractTerms(sentences)).length;
  const reasons: string[] = [];
  if (capacity < requested) {
    reasons.push(`The selected passages hold ${capacity} testable sentences for ${requested} questions.`);
  }
  if (mcqCount > 0 && terms < 4) {
    reasons.push(`Only ${terms} distinct concepts for MCQ options (4 needed).`);
  }
  return { requested, capacity, terms, enough: capacity >= requested, reasons };
}
