import "server-only";
import type { ISqlExecutor } from "@/lib/db";
import { describeError, log } from "@/lib/log";
import type { TRetrievalQueryResponse } from "@/schema/retrieval.schema";

/** The plan as the log keeps it: decisions and counts, no query or passage text (probe texts are both). */
export function planSummary(res: TRetrievalQueryResponse) {
  return {
    strategy: res.plan.strategy,
    examStyle: res.plan.examStyle,
    probes: res.plan.probes.map((p) => ({ source: p.source, status: p.status, found: p.found })),
    focus: res.plan.focus,
    fallbacks: res.plan.fallbacks.length,
    refusal: res.refusal?.code ?? null,
    followUp: res.session.followUp,
    navigation: res.session.navigation ?? null,
    excluded: res.session.excludedCount,
    planMs: res.debug.planMs,
    llmPlanMs: res.debug.llmPlanMs,
  };
}

/** Observability: shapes and timings only, never the query text or chunk content. */
export async function logRetrieval(
  db: ISqlExecutor,
  userId: string,
  queryChars: number,
  topK: number,
  res: TRetrievalQueryResponse,
): Promise<void> {
  const timings = {
    vectorMs: res.debug.vectorMs,
    keywordMs: res.debug.keywordMs,
    fuseMs: res.debug.fuseMs,
    embedMs: res.debug.embedMs,
    rerankMs: res.debug.rerankMs,
    totalMs: res.debug.totalMs,
  };
  const plan = planSummary(res);
  const top = res.items[0];
  log.info("retrieval.query", {
    type: res.classification.type,
    alpha: res.classification.alpha,
    topK,
    results: res.items.length,
    confidence: res.confidence,
    reranker: res.debug.reranker,
    topFused: top?.fusedScore,
    topRerank: top?.rerankScore,
    topRelevance: top?.relevance,
    plan,
    ...timings,
  });
  try {
    await db.query(
      `insert into retrieval_logs (user_id, query_type, query_chars, top_k, alpha, reranker, confidence, retried,
         enhanced, result_count, top_fused, top_rerank, timings, plan)
       values ($1,$2,$3,$4,$5,$6,$7,$8,false,$9,$10,$11,$12,$13)`,
      [
        userId,
        res.classification.type,
        queryChars,
        topK,
        res.classification.alpha,
        res.debug.reranker,
        Math.round(res.confidence),
        res.debug.retried,
        res.items.length,
        top?.fusedScore ?? null,
        top?.rerankScore ?? null,
        JSON.stringify(timings),
        JSON.stringify(plan),
      ],
    );
  } catch (err) {
    log.warn("retrieval.log_failed", { error: describeError(err) });
  }
}
