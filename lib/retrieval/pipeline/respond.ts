import type { IQueryPlan } from "@/lib/steps/plan/offline";
import type { TRetrievalItem, TRetrievalQueryResponse, TSessionTurn } from "@/schema/retrieval.schema";
import type { IFollowUp } from "../follow-up";
import { orderByRelevance } from "../result-order";
import type { IAssessedPass } from "./correct";
import type { IProbeReport } from "./gather-plan";
import type { IJudgement } from "./judge";
import { type ICandidate, type IRetrievalRun, scoreOf } from "./types";

/** What the planner, the judge and the session stage add to the response. */
export interface IPlanOutcome {
  plan: IQueryPlan;
  probes: IProbeReport[];
  fallbacks: string[];
  focus: TRetrievalQueryResponse["plan"]["focus"];
  budgetMs: number;
  planMs: number;
  llmPlanMs: number;
  judgement: IJudgement;
  followUp: IFollowUp;
  excludedCount: number;
  /** The query as the teacher typed it (before follow-up resolution). */
  rawQuery: string;
  /** What the turn was about, for later follow-ups (default: the classifier's search text). */
  topic?: string;
}

function toItem(c: ICandidate, relevance: number, weak: boolean): TRetrievalItem {
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
    resourceType: c.row.resource_type,
    chapterNumber: c.row.chapter_number,
    chapterName: c.row.chapter_name,
    ...(c.row.page_start !== null ? { pageStart: c.row.page_start } : {}),
    ...(c.row.page_end !== null ? { pageEnd: c.row.page_end } : {}),
    ...(c.row.section_path ? { sectionPath: c.row.section_path } : {}),
    ...(c.zone ? { zone: c.zone } : {}),
    ...(c.zoneSpans ? { zoneSpans: c.zoneSpans } : {}),
    ...(c.expandedFrom !== undefined ? { expandedFrom: c.expandedFrom } : {}),
    ...(c.explanation ? { explanation: c.explanation } : {}),
    relevance,
    weak,
  };
}

/** The product spec's advice for an empty list. */
export const EMPTY_ADVICE = [
  "Broaden the filters (all resource types, the whole subject).",
  "Remove the chapter filter.",
  "Try Enhance to add related terms, or rephrase with the textbook's words.",
];

/** Advice for a teacher looking at an empty or weak list. */
function suggestionsFor(assessed: IAssessedPass, refused: boolean): string[] {
  if (refused || assessed.top.length === 0) return EMPTY_ADVICE;
  if (assessed.confidence.confidence < 40) {
    return ["Try naming the topic or chapter, or remove resource-type and chapter filters."];
  }
  return [];
}

const round = (n: number) => Math.round(n * 100) / 100;

/** Stage 9, respond: items with provenance, the classification, confidence, advice and timings. */
export function buildResponse(
  run: IRetrievalRun,
  assessed: IAssessedPass,
  startedAt: number,
  explanations: string[],
  outcome: IPlanOutcome,
): TRetrievalQueryResponse {
  const { req, deps, understanding } = run;
  const { classification } = understanding;
  const { pass, top, confidence } = assessed;
  const { judgement, followUp } = outcome;
  const allExcluded = top.length === 0 && outcome.excludedCount > 0;
  const refusal: TRetrievalQueryResponse["refusal"] = allExcluded
    ? {
        code: "all_excluded",
        message: "Every passage found is about a topic you asked to leave out.",
        bestRelevance: 0,
        threshold: judgement.refusal?.threshold ?? 0,
      }
    : judgement.refusal;
  const warnings = [...assessed.warnings, ...pass.warnings];
  if (!refusal && pass.scopeChunks > 0 && top.length < Math.min(req.topK, pass.scopeChunks)) {
    warnings.push(`Only ${top.length} passages matched in this scope.`);
  }
  const items = refusal
    ? []
    : top.map((c, i) => toItem(c, judgement.relevance[i] ?? 0, judgement.weak[i] ?? true));
  const best = top[0];
  const turn: TSessionTurn = {
    query: outcome.rawQuery.slice(0, 2000),
    resolvedQuery: req.query.slice(0, 2000),
    topic: (outcome.topic ?? (classification.searchText || req.query)).slice(0, 2000),
    ...(req.bloomTargets?.length ? { bloomTargets: req.bloomTargets } : {}),
    ...(best && !refusal
      ? {
          anchor: {
            documentId: best.row.document_id,
            chapterNumber: best.row.chapter_number,
            sectionPath: best.row.section_path.slice(0, 1000),
          },
        }
      : {}),
    ...(followUp.excluded.length ? { excluded: followUp.excluded.slice(-5) } : {}),
    // The list as the teacher sees it (by relevance), so "the second one" is the second card.
    ...(items.length
      ? {
          results: orderByRelevance(items).map((i) => ({
            documentId: i.documentId,
            chunkIndex: i.chunkIndex,
            chapterNumber: i.chapterNumber ?? null,
            sectionPath: (i.sectionPath ?? "").slice(0, 300),
          })),
        }
      : {}),
  };
  return {
    ok: true,
    items,
    ...(refusal ? { refusal } : {}),
    plan: {
      strategy: outcome.plan.strategy,
      examStyle: outcome.plan.examStyle,
      probes: outcome.probes,
      focus: outcome.focus,
      reasons: outcome.plan.reasons,
      fallbacks: outcome.fallbacks,
      budgetMs: outcome.budgetMs,
      elapsedMs: round(performance.now() - startedAt),
    },
    session: {
      followUp: followUp.isFollowUp,
      resolvedQuery: req.query,
      reasons: followUp.reasons,
      excluded: followUp.excluded,
      excludedCount: outcome.excludedCount,
      ...(followUp.navigation ? { navigation: followUp.navigation } : {}),
      ...(followUp.bloomTargets ? { bloomTargets: followUp.bloomTargets } : {}),
      turn,
    },
    classification: {
      type: classification.type,
      alpha: understanding.alpha,
      alphaSource: run.settings.alpha !== undefined ? "request" : "classifier",
      searchText: classification.searchText,
      adjacentWindow: classification.adjacentWindow,
      fanout: understanding.fanout,
      ...(classification.bloomHint ? { bloomHint: classification.bloomHint } : {}),
      reasons: classification.reasons,
    },
    confidence: confidence.confidence,
    explanations: [...followUp.reasons, ...explanations, ...confidence.reasons],
    warnings,
    suggestions: suggestionsFor(assessed, !!refusal),
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
      planMs: round(outcome.planMs),
      llmPlanMs: round(outcome.llmPlanMs),
    },
  };
}
