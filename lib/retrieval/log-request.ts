import "server-only";
import type { ISqlExecutor } from "@/lib/db";
import { describeError, log } from "@/lib/log";
import type { TRetrievalQueryResponse } from "@/schema/retrieval.schema";

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
    ...timings,
  });
  try {
    await db.query(
      `insert into retrieval_logs (user_id, query_type, query_chars, top_k, alpha, reranker, confidence, retried,
         enhanced, result_count, top_fused, top_rerank, timings)
       values ($1,$2,$3,$4,$5,$6,$7,$8,false,$9,$10,$11,$12)`,
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
      ],
    );
  } catch (err) {
    log.warn("retrieval.log_failed", { error: describeError(err) });
  }
}
