import "server-only";
import { fetchNeighbours } from "../store";
import { NEIGHBOUR_DISCOUNT } from "./defaults";
import { type ICandidate, type IRetrievalRun, keyOf } from "./types";

/** Neighbours each side of a hit: the request's `expand` wins over the query type's window. */
export function adjacentWindowFor(run: IRetrievalRun): number {
  const { settings, understanding } = run;
  if (settings.adjacent === "off") return 0;
  const window = understanding.classification.adjacentWindow;
  return settings.adjacent === "at-least-one" ? Math.max(1, window) : window;
}

/**
 * Stage 3, adjacent expansion: the neighbours of the top-K hits in the same section join the
 * candidates just below their anchor (explanations and worked examples span several chunks).
 */
export async function expandAdjacent(run: IRetrievalRun, candidates: ICandidate[]): Promise<ICandidate[]> {
  const window = adjacentWindowFor(run);
  if (window <= 0 || candidates.length === 0) return candidates;
  const seen = new Set(candidates.map((c) => keyOf(c.row.document_id, c.row.chunk_index)));
  const anchors = candidates.slice(0, Math.min(candidates.length, run.req.topK));
  const neighbours = await fetchNeighbours(
    run.deps.db,
    anchors.map((c) => ({
      documentId: c.row.document_id,
      chunkIndex: c.row.chunk_index,
      sectionPath: c.row.section_path,
    })),
    window,
  );
  const out = [...candidates];
  for (const n of neighbours) {
    const key = keyOf(n.document_id, n.chunk_index);
    if (seen.has(key)) continue;
    seen.add(key);
    const anchor = anchors[n.anchor_index]!;
    const fused = anchor.fused * NEIGHBOUR_DISCOUNT;
    out.push({
      row: { ...anchor.row, ...n, vector_score: null, keyword_score: null, fused_score: fused },
      fused,
      expandedFrom: anchor.row.chunk_index,
      explanation: `Neighbour of chunk ${anchor.row.chunk_index} in the same section`,
    });
  }
  return out.sort((a, b) => b.fused - a.fused);
}
