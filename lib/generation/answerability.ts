import type { IContextChunk } from "@/types/generation.types";
import { extractFacts, keyTerms } from "./facts";

export interface IAnswerability {
  requested: number;
  /** Distinct facts a question can be built on. */
  capacity: number;
  terms: number;
  enough: boolean;
  reasons: string[];
}

/** Offline coverage check: one distinct fact per question, and enough concepts for MCQ options. */
export function assessAnswerability(
  chunks: readonly IContextChunk[],
  requested: number,
  mcqCount: number,
): IAnswerability {
  const facts = extractFacts(chunks);
  const terms = keyTerms(chunks, facts).length;
  const reasons: string[] = [];
  if (facts.length < requested) {
    reasons.push(
      `The selected passages hold ${facts.length} distinct usable facts for ${requested} questions.`,
    );
  }
  if (mcqCount > 0 && terms < 4) {
    reasons.push(`Only ${terms} distinct concepts for MCQ options (4 needed for term-based options).`);
  }
  return { requested, capacity: facts.length, terms, enough: facts.length >= requested, reasons };
}
