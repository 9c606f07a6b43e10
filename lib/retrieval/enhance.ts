import "server-only";
import { generateText, type LanguageModel, Output } from "ai";
import { z } from "zod";
import { guardModel } from "@/lib/ai/provider-guard";
import type { ISqlExecutor } from "@/lib/db";
import { describeError, log } from "@/lib/log";
import { contentWords } from "@/lib/text/tokenize";
import { synonyms } from "@/lib/text/wordnet";
import type { TEnhanceQueryRequest, TEnhanceQueryResponse } from "@/schema/retrieval.schema";
import type { IEmbedder } from "@/types/chunk.types";
import { classifyQuery } from "./classify";
import { enhanceQueryOffline } from "./enhance-offline";
import { hybridSearch, scopeChapters } from "./search";

export interface IEnhanceDeps {
  db: ISqlExecutor;
  embedder: IEmbedder;
  model: LanguageModel | null;
  llmTimeoutMs: number;
}

const LlmEnhanceSchema = z.object({
  enhancedQuery: z.string().min(1).max(600),
  addedTerms: z.array(z.object({ term: z.string().min(1).max(60), reason: z.string().max(200) })).max(12),
  variants: z.array(z.string().min(1).max(300)).max(3),
});

/** Highlights of each added term's first occurrence in the enhanced query. */
function highlight(
  query: string,
  terms: { term: string; source: TEnhanceQueryResponse["termHighlights"][number]["source"] }[],
) {
  const lower = query.toLowerCase();
  const out: TEnhanceQueryResponse["termHighlights"] = [];
  for (const t of terms) {
    const at = lower.indexOf(t.term.toLowerCase());
    if (at >= 0) out.push({ term: t.term, start: at, end: at + t.term.length, source: t.source });
  }
  return out;
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
      const { output } = await generateText({
        model: guardModel(deps.model, "enhance"),
        output: Output.object({ schema: LlmEnhanceSchema }),
        temperature: 0.2,
        maxRetries: 0,
        abortSignal: AbortSignal.timeout(deps.llmTimeoutMs),
        system:
          "You improve a teacher's search query over their own curriculum resources. Keep every word the teacher " +
          "wrote, add at most 8 closely related subject terms, add no facts and no new topics, stay within the " +
          "given board, class and subject, and explain each added term. Also give up to 3 alternative phrasings.",
        prompt: `Board: ${req.filters.board}\nClass: ${req.filters.grade}\nSubject: ${req.filters.subject}\n${
          req.filters.chapterName ? `Chapter: ${req.filters.chapterName}\n` : ""
        }${req.bloomTargets ? `Bloom levels: ${req.bloomTargets.join(", ")}\n` : ""}Query: ${req.rawQuery}`,
      });
      const kept = contentWords(req.rawQuery).every((w) => output.enhancedQuery.toLowerCase().includes(w));
      if (!kept || output.enhancedQuery.length > req.rawQuery.length * 2 + 200) {
        throw new Error("rewrite dropped the teacher's words or grew too long");
      }
      const added = output.addedTerms.map((t) => ({
        term: t.term,
        source: "llm" as const,
        reason: t.reason,
      }));
      return {
        ok: true,
        rawQuery: req.rawQuery,
        enhancedQuery: output.enhancedQuery,
        addedTerms: added,
        explanations: added.map((a) => `Added “${a.term}”: ${a.reason}`),
        termHighlights: highlight(output.enhancedQuery, added),
        variants: output.variants,
        debug: { ms: Math.round(performance.now() - started), source: "llm" },
      };
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
