import { terms } from "@/lib/text/tokenize";
import type { IConfidence, IConfidenceInput } from "@/types/retrieval.types";

/**
 * How much to trust a result list, from signals that need no labels:
 * - coverage: do the top passages contain the query's terms, ideally together in one passage. This
 *   gates everything: a normalised fused score is high for the best of a bad lot, coverage is not;
 * - level: the top score itself;
 * - margin: does the top stand out from the next few.
 *
 *   confidence = 100 · coverage^1.5 · (GATE_FLOOR + (1 − GATE_FLOOR) · (W_LEVEL·level + W_MARGIN·margin))
 *
 * Long queries (objectives, exam stems) rarely have every word in one passage, so the coverage
 * expected of them is lower (see expectedCoverage).
 */

export const CONFIDENCE_WEIGHTS = { level: 0.7, margin: 0.3 } as const;
const GATE_FLOOR = 0.6;
export const RETRY_THRESHOLD = 35;
const TOP_DOCS_FOR_COVERAGE = 3;

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}

/** Share of distinct query stems found in the union of the top passages, and in the best one. */
function termCoverage(
  queryTerms: readonly string[],
  contents: readonly string[],
): { union: number; best: number; n: number } {
  const wanted = [...new Set(queryTerms.flatMap((t) => terms(t)))];
  if (wanted.length === 0) return { union: 0, best: 0, n: 0 };
  const docs = contents.slice(0, TOP_DOCS_FOR_COVERAGE).map((c) => new Set(terms(c)));
  const inAny = wanted.filter((t) => docs.some((d) => d.has(t))).length;
  const best = Math.max(0, ...docs.map((d) => wanted.filter((t) => d.has(t)).length));
  return { union: inAny / wanted.length, best: best / wanted.length, n: wanted.length };
}

/** 1–3 terms: all of them; 8+ terms: 60 % is already a good match. */
function expectedCoverage(n: number): number {
  if (n <= 3) return 1;
  if (n >= 8) return 0.6;
  return 1 - ((n - 3) / 5) * 0.4;
}

/** (top − mean of the next four) / top, stretched so a 25 % lead counts as a clear margin. */
function marginOf(scores: readonly number[]): number {
  const top = scores[0] ?? 0;
  if (top <= 0) return 0;
  const next = scores.slice(1, 5);
  if (next.length === 0) return 1;
  const mean = next.reduce((a, b) => a + b, 0) / next.length;
  return clamp01(((top - mean) / top) * 4);
}

export function computeConfidence(input: IConfidenceInput): IConfidence {
  const scores = input.scores.filter((s) => Number.isFinite(s));
  if (scores.length === 0) return { confidence: 0, reasons: ["no results"] };
  const level = clamp01(scores[0] ?? 0);
  const margin = marginOf(scores);
  const cov = termCoverage(input.queryTerms, input.topContents);
  // A single passage holding the terms is worth more than the terms scattered over three.
  const observed = 0.8 * cov.best + 0.2 * cov.union;
  const coverage = cov.n === 0 ? 0.5 : clamp01(observed / expectedCoverage(cov.n));
  const quality = CONFIDENCE_WEIGHTS.level * level + CONFIDENCE_WEIGHTS.margin * margin;
  const raw = coverage ** 1.5 * (GATE_FLOOR + (1 - GATE_FLOOR) * quality);
  const confidence = Math.round(100 * clamp01(raw));
  const pct = (x: number) => `${Math.round(100 * x)}%`;
  const reasons = [
    input.queryTerms.length === 0
      ? "no query terms to check coverage against"
      : `query-term coverage in the top ${Math.min(TOP_DOCS_FOR_COVERAGE, input.topContents.length)}: ${pct(cov.union)} (best single passage ${pct(cov.best)})`,
    `top score ${level.toFixed(2)}`,
    `margin over the next results ${pct(margin)}${margin < 0.15 ? " (flat: no result stands out)" : ""}`,
  ];
  if (confidence < RETRY_THRESHOLD) reasons.push(`below ${RETRY_THRESHOLD}: worth one corrective retry`);
  return { confidence, reasons };
}

/** One corrective retry (larger K, shifted alpha, alternative query) below the threshold. */
export function shouldRetry(conf: IConfidence | number, threshold = RETRY_THRESHOLD): boolean {
  const value = typeof conf === "number" ? conf : conf.confidence;
  return value < threshold;
}
