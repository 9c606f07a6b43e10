import "server-only";
import type { ISqlExecutor } from "@/lib/db";
import { describeError, log } from "@/lib/log";
import type { TRetrievalQueryResponse } from "@/schema/retrieval.schema";
import { insertRetrievalLog } from "./store";

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
    await insertRetrievalLog(db, {
      userId,
      queryType: res.classification.type,
      queryChars,
      topK,
      alpha: res.classification.alpha,
      reranker: res.debug.reranker,
      confidence: Math.round(res.confidence),
      retried: res.debug.retried,
      resultCount: res.items.length,
      topFused: top?.fusedScore ?? null,
      topRerank: top?.rerankScore ?? null,
      timings: JSON.stringify(timings),
      plan: JSON.stringify(plan),
    });
  } catch (err) {
    log.warn("retrieval.log_failed", { error: describeError(err) });
  }
}
