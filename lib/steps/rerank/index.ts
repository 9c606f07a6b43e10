import "server-only";
import { describeError, log } from "@/lib/log";
import { type ICandidate, type IRetrievalRun, keyOf, type TReranker } from "@/lib/retrieval/pipeline/types";
import { rerankWithLlm } from "./llm";
import { rerankOffline } from "./offline";

export interface IRerankOutcome {
  candidates: ICandidate[];
  reranker: TReranker;
  warnings: string[];
}

const byRerank = (a: ICandidate, b: ICandidate) => b.rerank! - a.rerank! || b.fused - a.fused;

/** Below this much of the budget left, the language model is not asked at all. */
const MIN_LLM_RERANK_MS = 50;

/** The language model scores the pool list-wise; throws on timeout, error or junk. */
async function rerankPoolWithLlm(
  run: IRetrievalRun,
  pool: ICandidate[],
  timeoutMs: number,
): Promise<ICandidate[]> {
  const { deps, req, understanding } = run;
  const scores = await rerankWithLlm(
    deps.model!,
    {
      query: req.query,
      guidelines: understanding.classification.rerankGuidelines,
      bloomTargets: req.bloomTargets,
      passages: pool.map((c, id) => ({ id, heading: c.row.section_path, text: c.row.content })),
    },
    timeoutMs,
  );
  return pool.map((c, id) => ({ ...c, rerank: scores.get(id) ?? 0 })).sort(byRerank);
}

function rerankPoolOffline(run: IRetrievalRun, pool: ICandidate[]): ICandidate[] {
  const { req, settings, understanding } = run;
  const results = rerankOffline(
    { ...understanding.classification, original: req.query },
    pool.map((c) => ({
      key: keyOf(c.row.document_id, c.row.chunk_index),
      content: c.row.content,
      sectionPath: c.row.section_path,
      title: c.row.title,
      fusedScore: c.fused,
    })),
    {
      bloomTargets: req.bloomTargets,
      ...(settings.rerankFusedWeight !== undefined ? { fusedWeight: settings.rerankFusedWeight } : {}),
    },
  );
  const byKey = new Map(results.map((r) => [r.key, r.rerankScore]));
  return pool
    .map((c) => ({ ...c, rerank: byKey.get(keyOf(c.row.document_id, c.row.chunk_index)) ?? 0 }))
    .sort(byRerank);
}

/**
 * Stage 4, rerank the top `fanout`: the language model when configured (hard timeout; on any
 * failure the fused order stands and a warning says so), else the offline feature reranker.
 * The rest of the pool keeps its fused order below.
 */
export async function rerankCandidates(
  run: IRetrievalRun,
  candidates: ICandidate[],
): Promise<IRerankOutcome> {
  const { deps, settings, understanding } = run;
  if (!settings.rerank || candidates.length <= 1) {
    return { candidates, reranker: "none", warnings: [] };
  }
  const pool = candidates.slice(0, understanding.fanout);
  const rest = candidates.slice(understanding.fanout);
  const remainingMs = Math.round(run.llmDeadline - performance.now());
  if (deps.model && remainingMs < MIN_LLM_RERANK_MS) {
    return {
      candidates: [...rerankPoolOffline(run, pool), ...rest],
      reranker: "offline",
      warnings: [
        "The language-model budget was spent on planning; the offline reranker ordered the results.",
      ],
    };
  }
  if (deps.model) {
    try {
      const reranked = await rerankPoolWithLlm(run, pool, remainingMs);
      return { candidates: [...reranked, ...rest], reranker: "llm", warnings: [] };
    } catch (err) {
      log.warn("rerank.llm_failed", { error: describeError(err) });
      return {
        candidates,
        reranker: "fused-fallback",
        warnings: ["The language-model reranker did not answer in time; results are in fused order."],
      };
    }
  }
  return { candidates: [...rerankPoolOffline(run, pool), ...rest], reranker: "offline", warnings: [] };
}
