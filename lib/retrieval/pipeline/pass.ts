import "server-only";
import { expandAdjacent } from "./expand";
import { searchProbe } from "./gather";
import { smoothByChapter, spreadOverSections } from "./order";
import { rerankCandidates } from "./rerank";
import type { ICandidate, IPassResult, IProbe, IRetrievalRun } from "./types";

/** One pass: search → adjacent expansion → rerank → chapter smoothing → section spread. */
export async function runPass(run: IRetrievalRun, probe: IProbe): Promise<IPassResult> {
  const { rows, embedMs, sqlMs } = await searchProbe(run, probe);
  const vectorMs = rows[0]?.vector_ms ?? 0;
  const keywordMs = rows[0]?.keyword_ms ?? 0;
  const found: ICandidate[] = rows.map((row) => ({ row, fused: row.fused_score }));
  const expanded = await expandAdjacent(run, found);
  const t2 = performance.now();
  const reranked = await rerankCandidates(run, expanded);
  const rerankMs = performance.now() - t2;
  const candidates = spreadOverSections(run, smoothByChapter(run, reranked.candidates));
  return {
    candidates,
    vectorMs,
    keywordMs,
    fuseMs: Math.max(0, sqlMs - vectorMs - keywordMs),
    embedMs,
    rerankMs,
    scopeChunks: rows[0]?.scope_chunks ?? 0,
    reranker: reranked.reranker,
    warnings: reranked.warnings,
  };
}
