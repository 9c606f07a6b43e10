import type { IGathered } from "./pass";
import { type ICandidate, keyOf } from "./types";

export type EProbeFusion = "rrf" | "score";

export interface IProbeList {
  gathered: IGathered;
  weight: number;
}

/** RRF's k (Cormack et al. 2009 use 60). */
const RRF_K = 60;

/**
 * Fuses the candidate lists of several probes into one, best first:
 * - "score": weighted mean of each probe's fused score (0 where a probe did not return the passage);
 * - "rrf": weighted reciprocal rank fusion, scaled so a passage first in every list scores 1.
 * The first list is the query's own; a passage keeps the row (and scores) of the first list that
 * found it. Timings add up.
 */
export function fuseProbeLists(lists: readonly IProbeList[], method: EProbeFusion): IGathered {
  const [first] = lists;
  if (!first) throw new Error("fuseProbeLists needs at least one list");
  if (lists.length === 1) return first.gathered;
  const total = lists.reduce((a, l) => a + l.weight, 0);
  const merged = new Map<string, { c: ICandidate; score: number; order: number }>();
  let order = 0;
  for (const { gathered, weight } of lists) {
    gathered.candidates.forEach((c, rank) => {
      const key = keyOf(c.row.document_id, c.row.chunk_index);
      const part = method === "rrf" ? (weight * (RRF_K + 1)) / (RRF_K + rank + 1) : weight * c.fused;
      const hit = merged.get(key);
      if (hit) hit.score += part;
      else merged.set(key, { c, score: part, order: order++ });
    });
  }
  const candidates = [...merged.values()]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ c, score }) => ({ ...c, fused: score / total, row: { ...c.row, fused_score: score / total } }));
  const sum = (f: (g: IGathered) => number) => lists.reduce((a, l) => a + f(l.gathered), 0);
  return {
    candidates,
    vectorMs: sum((g) => g.vectorMs),
    keywordMs: sum((g) => g.keywordMs),
    fuseMs: sum((g) => g.fuseMs),
    embedMs: sum((g) => g.embedMs),
    scopeChunks: first.gathered.scopeChunks,
  };
}
