import "server-only";
import type { LanguageModel } from "ai";
import { AppError } from "@/lib/errors";
import type { IRetrieveDeps } from "@/lib/retrieval/retrieve";
import { retrieve } from "@/lib/retrieval/retrieve";
import type { TGenerationRequest } from "@/schema/generation.schema";
import { type IContextChunk, passageKey } from "@/types/generation.types";
import { llmAnswerability } from "./llm/answerability";
import { assessAnswerability } from "./offline/answerability";
import { extractConcepts, extractTerms } from "./offline/knowledge/lexicon";
import { chunkKey, collectSentences } from "./offline/knowledge/sentences";

export interface IEvidence {
  chunks: IContextChunk[];
  warnings: string[];
  /** The answerability check met a provider outage: the generator starts offline (IGenerationDeps). */
  providerDown: boolean;
}

/**
 * Is the selected context enough for the blueprint? If not: widen retrieval once around the
 * selection, then decompose into sub-topics (its key terms) and retrieve per sub-topic. If the
 * evidence still covers under half the questions, refuse with the reason (422); otherwise go on
 * and generate fewer, saying so. Never invents content.
 */
export async function ensureEvidence(
  deps: IRetrieveDeps,
  userId: string,
  request: TGenerationRequest,
  selected: IContextChunk[],
  llm: { model: LanguageModel | null; timeoutMs: number } = { model: null, timeoutMs: 0 },
): Promise<IEvidence> {
  const requested = request.blueprint.items.reduce((n, i) => n + i.count, 0);
  const mcqs = request.blueprint.items.filter((i) => i.type === "mcq").reduce((n, i) => n + i.count, 0);
  const warnings: string[] = [];
  const chunks = [...selected];
  let check = assessAnswerability(chunks, requested, mcqs);
  let providerDown = false;
  if (check.enough && llm.model) {
    // The offline count says yes; a model may still judge the facts too thin for the blueprint.
    const answer = await llmAnswerability(llm.model, llm.timeoutMs, chunks, requested);
    providerDown = answer.providerDown;
    const verdict = answer.verdict;
    if (verdict && !verdict.enough) {
      warnings.push(`Answerability check: ${verdict.rationale}`);
      check = { ...check, enough: false };
    }
  }
  if (check.enough) return { chunks, warnings, providerDown };

  const have = new Set(chunks.map(chunkKey));
  const add = (items: Awaited<ReturnType<typeof retrieve>>["items"]) => {
    let added = 0;
    for (const it of items) {
      const k = passageKey(it);
      if (have.has(k)) continue;
      have.add(k);
      added++;
      chunks.push({
        documentId: it.documentId,
        chunkIndex: it.chunkIndex,
        content: it.content,
        title: it.title,
        ...(it.pageStart !== undefined ? { pageStart: it.pageStart } : {}),
        ...(it.pageEnd !== undefined ? { pageEnd: it.pageEnd } : {}),
        sectionPath: it.sectionPath,
      });
    }
    return added;
  };
  const sections = [...new Set(selected.map((c) => c.sectionPath?.split(" > ").pop() ?? c.title))].slice(
    0,
    4,
  );
  const widened = await retrieve(deps, userId, {
    filters: request.filters,
    query: sections.join("; ").slice(0, 1900) || "key ideas",
    topK: Math.min(50, selected.length * 2 + requested),
    enableRerank: false,
  });
  const n1 = add(widened.items);
  if (n1 > 0)
    warnings.push(
      `The selected passages were not enough; retrieval was widened once and added ${n1} related passages.`,
    );
  check = assessAnswerability(chunks, requested, mcqs);

  if (!check.enough) {
    const sentences = collectSentences(selected);
    const terms = extractConcepts(sentences, extractTerms(sentences))
      .map((c) => c.name)
      .slice(0, 4);
    let n2 = 0;
    for (const term of terms) {
      const sub = await retrieve(deps, userId, {
        filters: request.filters,
        query: term,
        topK: 5,
        enableRerank: false,
      });
      n2 += add(sub.items);
    }
    if (n2 > 0)
      warnings.push(
        `Still short: decomposed into sub-topics (${terms.join(", ")}) and added ${n2} passages.`,
      );
    check = assessAnswerability(chunks, requested, mcqs);
  }
  if (check.capacity < Math.ceil(requested / 2)) {
    throw new AppError(
      "unprocessable",
      `Not enough evidence: the passages support about ${check.capacity} distinct questions, but the blueprint asks for ${requested}. Select more passages or ask for fewer questions.`,
      { details: check.reasons.map((message) => ({ path: "blueprint", message })) },
    );
  }
  if (!check.enough)
    warnings.push(`${check.reasons.join(" ")} Some questions may be skipped rather than invented.`);
  return { chunks, warnings, providerDown };
}
