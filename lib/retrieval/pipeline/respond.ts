import type { TRetrievalItem, TRetrievalQueryResponse } from "@/schema/retrieval.schema";
import type { IAssessedPass } from "./correct";
import { type ICandidate, type IRetrievalRun, scoreOf } from "./types";

function toItem(c: ICandidate): TRetrievalItem {
  return {
    documentId: c.row.document_id,
    chunkIndex: c.row.chunk_index,
    content: c.row.content,
    tokens: c.row.tokens,
    score: scoreOf(c),
    fusedScore: c.fused,
    vectorScore: c.row.vector_score,
    keywordScore: c.row.keyword_score,
    ...(c.rerank !== undefined ? { rerankScore: c.rerank } : {}),
    title: c.row.title,
    bucket: c.row.bucket,
    path: c.row.path,
    resourceType: c.row.resource_type,
    chapterNumber: c.row.chapter_number,
    chapterName: c.row.chapter_name,
    ...(c.row.page_start !== null ? { pageStart: c.row.page_start } : {}),
    ...(c.row.page_end !== null ? { pageEnd: c.row.page_end } : {}),
    ...(c.row.section_path ? { sectionPath: c.row.section_path } : {}),
    ...(c.expandedFrom !== undefined ? { expandedFrom: c.expandedFrom } : {}),
    ...(c.explanation ? { explanation: c.explanation } : {}),
  };
}

/** Advice for a teacher looking at an empty or weak list. */
function suggestionsFor(assessed: IAssessedPass): string[] {
  if (assessed.top.length === 0) {
    return ["No passages matched. Check the Board, Class and Subject filters, or broaden the query."];
  }
  if (assessed.confidence.confidence < 40) {
    return ["Try naming the topic or chapter, or remove resource-type and chapter filters."];
  }
  return [];
}

const round = (n: number) => Math.round(n * 100) / 100;

/** Stage 7, respond: items with provenance, the classification, confidence, advice and timings. */
export function buildResponse(
  run: IRetrievalRun,
  assessed: IAssessedPass,
  startedAt: number,
  explanations: string[],
): TRetrievalQueryResponse {
  const { req, deps, understanding } = run;
  const { classification } = understanding;
  const { pass, top, confidence } = assessed;
  const warnings = [...assessed.warnings, ...pass.warnings];
  if (pass.scopeChunks > 0 && top.length < Math.min(req.topK, pass.scopeChunks)) {
    warnings.push(`Only ${top.length} passages matched in this scope.`);
  }
  return {
    ok: true,
    items: top.map(toItem),
    classification: {
      type: classification.type,
      alpha: understanding.alpha,
      alphaSource: req.alpha !== undefined ? "request" : "classifier",
      searchText: classification.searchText,
      adjacentWindow: classification.adjacentWindow,
      fanout: understanding.fanout,
      ...(classification.bloomHint ? { bloomHint: classification.bloomHint } : {}),
      reasons: classification.reasons,
    },
    confidence: confidence.confidence,
    explanations: [...explanations, ...confidence.reasons],
    warnings,
    suggestions: suggestionsFor(assessed),
    debug: {
      vectorMs: round(pass.vectorMs),
      keywordMs: round(pass.keywordMs),
      fuseMs: round(pass.fuseMs),
      embedMs: round(pass.embedMs),
      rerankMs: round(pass.rerankMs),
      totalMs: round(performance.now() - startedAt),
      candidates: pass.candidates.length,
      scopeChunks: pass.scopeChunks,
      bloomHintApplied: !!req.bloomTargets?.length && pass.reranker !== "none",
      reranker: pass.reranker,
      retried: assessed.retried,
      embeddingModel: deps.embedder.modelId,
    },
  };
}
