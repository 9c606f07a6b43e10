import { smoothByGroup } from "../coherence";
import { diversifyBySection } from "../diversify";
import { type ICandidate, type IRetrievalRun, scoreOf, sectionOf } from "./types";

/** Stage 5a, document smoothing: chapters with several strong passages lift their members (coherence.ts). */
export function smoothByChapter(run: IRetrievalRun, candidates: ICandidate[]): ICandidate[] {
  const weight = run.settings.coherenceWeight;
  if (weight <= 0 || candidates.length <= 1) return candidates;
  return smoothByGroup(candidates, {
    group: (c) => c.row.document_id,
    score: scoreOf,
    weight,
    protect: run.settings.coherenceProtect,
  }).map(({ item }) => item);
}

/**
 * Stage 5b, section spread (diversify.ts): chapter-wide requests get score-based MMR over sections;
 * every other query a rank-based spread, so a second passage of one section yields to the next
 * section's best unless it ranks clearly higher.
 */
export function spreadOverSections(run: IRetrievalRun, candidates: ICandidate[]): ICandidate[] {
  const { settings, understanding } = run;
  if (!settings.diversify) return candidates;
  if (understanding.classification.broad) {
    return diversifyBySection(candidates, { key: (c) => sectionOf(c.row), score: scoreOf });
  }
  if (candidates.length <= 1) return candidates;
  const lambda = settings.sectionSpreadLambda;
  if (lambda >= 1) return candidates;
  // Relevance = rank after smoothing (its scores are not comparable across the protected head).
  const rank = new Map(candidates.map((c, i) => [c, i]));
  const n = candidates.length;
  return diversifyBySection(candidates, {
    key: (c) => sectionOf(c.row),
    score: (c) => 1 - (rank.get(c) ?? n) / n,
    lambda,
  });
}
