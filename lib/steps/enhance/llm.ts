import "server-only";
import { generateText, type LanguageModel, Output } from "ai";
import { z } from "zod";
import { guardModel } from "@/lib/ai/provider-guard";
import { contentWords } from "@/lib/text/tokenize";
import type { TEnhanceQueryRequest, TEnhanceQueryResponse } from "@/schema/retrieval.schema";

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
 * The language model's rewrite with constraints: kept only if it keeps every word the teacher
 * wrote and stays short; throws otherwise (and on any model failure) so the caller falls back to
 * the offline enhancer.
 */
export async function enhanceWithLlm(
  model: LanguageModel,
  timeoutMs: number,
  req: TEnhanceQueryRequest,
  started: number,
): Promise<TEnhanceQueryResponse> {
  const { output } = await generateText({
    model: guardModel(model, "enhance"),
    output: Output.object({ schema: LlmEnhanceSchema }),
    temperature: 0.2,
    maxRetries: 0,
    abortSignal: AbortSignal.timeout(timeoutMs),
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
}
