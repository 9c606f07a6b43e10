import "server-only";
import { splitMcqOptions } from "@/lib/steps/plan/variants";
import type { TRetrievalQueryRequest } from "@/schema/retrieval.schema";
import type { IQueryClassification } from "@/types/retrieval.types";
import { classifyQuery } from "../classify";
import { scopeChapters } from "../store";
import type { IQueryUnderstanding, IRetrievalSettings, IRetrieveDeps } from "./types";

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

function alphaFor(classification: IQueryClassification, settings: IRetrievalSettings): number {
  if (settings.legs === "vector") return 1;
  if (settings.legs === "keyword") return 0;
  return settings.alpha ?? Math.min(1, Math.max(0, classification.alpha + settings.alphaShift));
}

/**
 * Stage 1, understand the query: the scope's chapters, the classifier's reading (type → α,
 * fan-out, adjacent window, search text), and the chapter a generate request names.
 */
export async function understandQuery(
  deps: IRetrieveDeps,
  userId: string,
  req: TRetrievalQueryRequest,
  settings: IRetrievalSettings,
): Promise<IQueryUnderstanding> {
  const { filters } = req;
  const chapters = await scopeChapters(deps.db, userId, filters);
  // A pasted MCQ is classified by its stem; the options become probes (plan.ts).
  const mcq = splitMcqOptions(req.query);
  const classified = classifyQuery(mcq?.stem ?? req.query, { chapters });
  const classification = settings.classifier ? classified : neutralClassification(classified, req.query);
  const alpha = alphaFor(classification, settings);
  const fanout =
    req.rerankFanout ?? Math.max(req.topK, Math.round(req.topK * classification.fanoutMultiplier));
  const explanations = [...classification.reasons];

  // "Generate 10 MCQs on Photosynthesis" names a chapter: search inside it unless filters say otherwise.
  let chapterNumber = filters.chapterNumber ?? null;
  if (
    chapterNumber === null &&
    !filters.chapterName &&
    classification.chapterRef !== undefined &&
    settings.chapterNarrowing &&
    chapters.some((c) => c.number === classification.chapterRef)
  ) {
    chapterNumber = classification.chapterRef;
    explanations.push(`Searched within chapter ${chapterNumber}, which the query names.`);
  }
  const limit = Math.max(Math.round(fanout * settings.poolFactor), req.topK);
  return { chapters, classification, alpha, fanout, chapterNumber, limit, explanations };
}
