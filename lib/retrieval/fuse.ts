import type { IFusionCandidate, IRankedKey, TFused } from "@/types/retrieval.types";

/**
 * Score fusion. The SQL search does the same arithmetic in one statement; these functions are the
 * reference the SQL is tested against and the baseline (RRF) the eval compares with.
 */

/** Cosine (or L2) distance → similarity in [0,1]; a negative distance (float error) counts as 0, NaN as no match. */
export function normalizeVector(distance: number): number {
  if (Number.isNaN(distance)) return 0;
  return 1 / (1 + Math.max(0, distance));
}

/** Full-text rank → [0,1] relative to the best rank in the result set (0 when nothing matched). */
export function normalizeKeyword(rank: number, maxRank: number): number {
  if (!(maxRank > 0) || !Number.isFinite(rank) || rank <= 0) return 0;
  return Math.min(1, rank / maxRank);
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}

/** `alpha*vec + (1-alpha)*kw`; a candidate seen by only one search is scored by that signal alone. */
export function fusedScoreOf(candidate: IFusionCandidate, alpha: number): number {
  const a = clamp01(alpha);
  const v = candidate.vectorScore;
  const k = candidate.keywordScore;
  if (v === undefined && k === undefined) return 0;
  if (v === undefined) return clamp01(k ?? 0);
  if (k === undefined) return clamp01(v);
  return a * clamp01(v) + (1 - a) * clamp01(k);
}

/** Fuse and sort descending (ties keep input order, so the result is deterministic). */
export function fuseScores<T extends IFusionCandidate>(candidates: readonly T[], alpha: number): TFused<T>[] {
  return candidates
    .map((c, i) => ({ c: { ...c, fusedScore: fusedScoreOf(c, alpha) }, i }))
    .sort((x, y) => y.c.fusedScore - x.c.fusedScore || x.i - y.i)
    .map(({ c }) => c);
}

/**
 * Reciprocal rank fusion (Cormack et al. 2009): Σ w_i / (k + rank_i), rank 1-based. Used as the
 * baseline that needs no score normalisation. `lists` hold keys best first; duplicates within a
 * list count once (first occurrence).
 */
export function reciprocalRankFusion(
  lists: readonly (readonly string[])[],
  k = 50,
  weights?: readonly number[],
): IRankedKey[] {
  const scores = new Map<string, number>();
  const firstSeen = new Map<string, number>();
  let order = 0;
  lists.forEach((list, li) => {
    const w = weights?.[li] ?? 1;
    const seen = new Set<string>();
    list.forEach((key, idx) => {
      if (seen.has(key)) return;
      seen.add(key);
      if (!firstSeen.has(key)) firstSeen.set(key, order++);
      scores.set(key, (scores.get(key) ?? 0) + w / (k + idx + 1));
    });
  });
  return [...scores.entries()]
    .map(([key, score]) => ({ key, score }))
    .sort((a, b) => b.score - a.score || (firstSeen.get(a.key) ?? 0) - (firstSeen.get(b.key) ?? 0));
}
