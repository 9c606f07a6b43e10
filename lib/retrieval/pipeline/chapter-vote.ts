import type { ICandidate } from "./types";

/**
 * Chapter votes for a pasted exam question (pure). The focus stage picks the chapter the first
 * results agree on; these functions add the agreement of the question's separate probes: the
 * stem's own search and each option's search vote for a chapter separately, so a chapter that the
 * stem and most options land in outweighs one that a single strong passage (or one distractor)
 * put first in the pooled list.
 */

/** Rank-weighted share of each chapter document among the first `depth` passages (sums to 1). */
export function chapterShares(candidates: readonly ICandidate[], depth: number): Map<string, number> {
  const shares = new Map<string, number>();
  let total = 0;
  candidates.slice(0, depth).forEach((c, rank) => {
    const w = 1 / (rank + 2);
    total += w;
    shares.set(c.row.document_id, (shares.get(c.row.document_id) ?? 0) + w);
  });
  if (total > 0) for (const [k, v] of shares) shares.set(k, v / total);
  return shares;
}

/** One probe's vote: its chapter shares and how much it counts. */
export interface IProbeChapterVote {
  shares: Map<string, number>;
  weight: number;
}

/**
 * Agreement across probes: each probe's chapter shares, weighted, averaged (sums to 1 when every
 * probe found something). The stem's probe and the options' probes vote separately.
 */
export function probeAgreement(votes: readonly IProbeChapterVote[]): Map<string, number> {
  const out = new Map<string, number>();
  const total = votes.reduce((a, v) => a + (v.shares.size ? v.weight : 0), 0);
  if (total <= 0) return out;
  for (const v of votes) {
    if (!v.shares.size) continue;
    for (const [doc, s] of v.shares) out.set(doc, (out.get(doc) ?? 0) + (v.weight * s) / total);
  }
  return out;
}

/** Mix of two share maps: (1 − w)·a + w·b (w = 0: a alone). */
export function mixShares(
  a: ReadonlyMap<string, number>,
  b: ReadonlyMap<string, number>,
  w: number,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const [k, v] of a) out.set(k, (1 - w) * v);
  if (w > 0) for (const [k, v] of b) out.set(k, (out.get(k) ?? 0) + w * v);
  return out;
}

/** The document with the largest share (first seen wins a tie), or null. */
export function topShare(shares: ReadonlyMap<string, number>): { documentId: string; share: number } | null {
  let best: { documentId: string; share: number } | null = null;
  for (const [documentId, share] of shares) if (!best || share > best.share) best = { documentId, share };
  return best;
}
