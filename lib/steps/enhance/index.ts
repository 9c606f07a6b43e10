import "server-only";
import type { LanguageModel } from "ai";
import type { ISqlExecutor } from "@/lib/db";
import { describeError, log } from "@/lib/log";
import { classifyQuery } from "@/lib/retrieval/classify";
import { hybridSearch, scopeChapters } from "@/lib/retrieval/store";
import { synonyms } from "@/lib/text/wordnet";
import type { TEnhanceQueryRequest, TEnhanceQueryResponse } from "@/schema/retrieval.schema";
import type { IEmbedder } from "@/types/chunk.types";
import { enhanceWithLlm } from "./llm";
import { enhanceQueryOffline } from "./offline";

export interface IEnhanceDeps {
  db: ISqlExecutor;
  embedder: IEmbedder;
  model: LanguageModel | null;
  llmTimeoutMs: number;
}

/**
 * Query enhancement: an LLM rewrite with constraints when configured (kept only if it keeps the
 * teacher's words and stays short), otherwise — and on any LLM failure — the offline enhancer
 * (WordNet synonyms, scope metadata, pseudo-relevance feedback, Bloom verbs).
 */
export async function enhanceQuery(
  deps: IEnhanceDeps,
  userId: string,
  req: TEnhanceQueryRequest,
): Promise<TEnhanceQueryResponse> {
  const started = performance.now();
  const chapters = await scopeChapters(deps.db, userId, req.filters);
  const classification = classifyQuery(req.rawQuery, { chapters });
  let fallbackReason: string | undefined;

  if (deps.model) {
    try {
      return await enhanceWithLlm(deps.model, deps.llmTimeoutMs, req, started);
    } catch (err) {
      fallbackReason = `Language model unavailable (${describeError(err).slice(0, 120)}); used the offline enhancer`;
      log.warn("enhance.llm_failed", { error: describeError(err) });
    }
  }

  // Pseudo-relevance feedback: the top few passages for the query as typed.
  const embedding = await deps.embedder.embedQuery(classification.searchText || req.rawQuery);
  const rows = await hybridSearch(deps.db, {
    userId,
    board: req.filters.board,
    grade: req.filters.grade,
    subject: req.filters.subject,
    resourceTypes: req.filters.resourceType
      ? Array.isArray(req.filters.resourceType)
        ? req.filters.resourceType
        : [req.filters.resourceType]
      : null,
    chapterNumber: req.filters.chapterNumber ?? null,
    chapterName: req.filters.chapterName ?? null,
    documentIds: req.filters.documentIds ?? null,
    query: classification.searchText || req.rawQuery,
    embedding,
    embeddingModel: deps.embedder.modelId,
    alpha: classification.alpha,
    limit: 5,
  });
  const result = enhanceQueryOffline({
    rawQuery: req.rawQuery,
    classification,
    filters: req.filters,
    bloomTargets: req.bloomTargets,
    feedbackDocs: rows.map((r) => r.content),
    synonyms: (w) => synonyms(w, { maxSenses: 1 }),
  });
  return {
    ok: true,
    rawQuery: req.rawQuery,
    enhancedQuery: result.enhancedQuery,
    addedTerms: result.addedTerms,
    explanations: fallbackReason ? [fallbackReason, ...result.explanations] : result.explanations,
    termHighlights: result.termHighlights,
    variants: [],
    debug: {
      ms: Math.round(performance.now() - started),
      source: "offline",
      ...(fallbackReason ? { fallbackReason } : {}),
    },
  };
}
