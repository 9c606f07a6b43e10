import "server-only";
import { splitMcqOptions } from "@/lib/steps/plan/variants";
import type { TRetrievalQueryRequest } from "@/schema/retrieval.schema";
import type { IQueryClassification } from "@/types/retrieval.types";
import { classifyQuery } from "../classify";
import { scopeChapters } from "../store";
import { DEFAULT_POOL_FACTOR } from "./defaults";
import type { IQueryUnderstanding, IRetrieveAblation, IRetrieveDeps } from "./types";

/** With the classifier ablated, every query is searched as typed with an even split. */
function neutralClassification(classified: IQueryClassification, query: string): IQueryClassification {
  return {
    ...classified,
    type: "general",
    alpha: 0.5,
    searchText: query,
    adjacentWindow: 0,
    broad: false,
    fanoutMultiplier: 3,
  };
}

function alphaFor(
  req: TRetrievalQueryRequest,
  classification: IQueryClassification,
  ablation: IRetrieveAblation,
): number {
  if (ablation.legs === "vector") return 1;
  if (ablation.legs === "keyword") return 0;
  return req.alpha ?? Math.min(1, Math.max(0, classification.alpha + (ablation.alphaShift ?? 0)));
}

/**
 * Stage 1, understand the query: the scope's chapters, the classifier's reading (type → α,
 * fan-out, adjacent window, search text), and the chapter a generate request names.
 */
export async function understandQuery(
  deps: IRetrieveDeps,
  userId: string,
  req: TRetrievalQueryRequest,
  ablation: IRetrieveAblation,
): Promise<IQueryUnderstanding> {
  const { filters } = req;
  const chapters = await scopeChapters(deps.db, userId, filters);
  // A pasted MCQ is classified by its stem; the options become probes (plan.ts).
  const mcq = splitMcqOptions(req.query);
  const classified = classifyQuery(mcq?.stem ?? req.query, { chapters });
  const classification =
    ablation.classifier === false ? neutralClassification(classified, req.query) : classified;
  const alpha = alphaFor(req, classification, ablation);
  const fanout =
    req.rerankFanout ?? Math.max(req.topK, Math.round(req.topK * classification.fanoutMultiplier));
  const explanations = [...classification.reasons];

  // "Generate 10 MCQs on Photosynthesis" names a chapter: search inside it unless filters say otherwise.
  let chapterNumber = filters.chapterNumber ?? null;
  if (
    chapterNumber === null &&
    !filters.chapterName &&
    classification.chapterRef !== undefined &&
    ablation.chapterNarrowing !== false &&
    chapters.some((c) => c.number === classification.chapterRef)
  ) {
    chapterNumber = classification.chapterRef;
    explanations.push(`Searched within chapter ${chapterNumber}, which the query names.`);
  }
  const limit = Math.max(
    Math.round(fanout * Math.max(1, ablation.poolFactor ?? DEFAULT_POOL_FACTOR)),
    req.topK,
  );
  return { chapters, classification, alpha, fanout, chapterNumber, limit, explanations };
}
