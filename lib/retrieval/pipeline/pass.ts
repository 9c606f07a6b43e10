import "server-only";
import { rerankCandidates } from "@/lib/steps/rerank";
import { expandAdjacent } from "./expand";
import { smoothByChapter, spreadOverSections } from "./order";
import { searchProbe } from "./search";
import type { ICandidate, IPassResult, IProbe, IRetrievalRun } from "./types";
import { attachZones, favourZones } from "./zones";

/** What one or more probes found, before ranking. */
export interface IGathered {
  candidates: ICandidate[];
  vectorMs: number;
  keywordMs: number;
  fuseMs: number;
  embedMs: number;
  scopeChunks: number;
}

/** Stage 2a for one probe: its search results as candidates (no expansion yet). */
export async function searchCandidates(run: IRetrievalRun, probe: IProbe): Promise<IGathered> {
  const { rows, embedMs, sqlMs } = await searchProbe(run, probe);
  const vectorMs = rows[0]?.vector_ms ?? 0;
  const keywordMs = rows[0]?.keyword_ms ?? 0;
  return {
    candidates: rows.map((row) => ({ row, fused: row.fused_score })),
    vectorMs,
    keywordMs,
    fuseMs: Math.max(0, sqlMs - vectorMs - keywordMs),
    embedMs,
    scopeChunks: rows[0]?.scope_chunks ?? 0,
  };
}

/** Adjacent expansion → zones → rerank → zone preference → chapter smoothing → section spread. */
export async function rankGathered(run: IRetrievalRun, gathered: IGathered): Promise<IPassResult> {
  const expanded = await attachZones(run, await expandAdjacent(run, gathered.candidates));
  const t0 = performance.now();
  const reranked = await rerankCandidates(run, expanded);
  const rerankMs = performance.now() - t0;
  const candidates = spreadOverSections(run, smoothByChapter(run, favourZones(run, reranked.candidates)));
  return {
    candidates,
    vectorMs: gathered.vectorMs,
    keywordMs: gathered.keywordMs,
    fuseMs: gathered.fuseMs,
    embedMs: gathered.embedMs,
    rerankMs,
    scopeChunks: gathered.scopeChunks,
    reranker: reranked.reranker,
    warnings: reranked.warnings,
  };
}

/** One pass: search → adjacent expansion → rerank → chapter smoothing → section spread. */
export async function runPass(run: IRetrievalRun, probe: IProbe): Promise<IPassResult> {
  return rankGathered(run, await searchCandidates(run, probe));
}
