import "server-only";
import type { TRetrievalQueryRequest, TRetrievalQueryResponse } from "@/schema/retrieval.schema";
import { assessAndCorrect } from "./pipeline/correct";
import { runPass } from "./pipeline/pass";
import { buildResponse } from "./pipeline/respond";
import type { IRetrievalRun, IRetrieveAblation, IRetrieveDeps } from "./pipeline/types";
import { understandQuery } from "./pipeline/understand";

export {
  DEFAULT_COHERENCE,
  DEFAULT_COHERENCE_PROTECT,
  DEFAULT_POOL_FACTOR,
  DEFAULT_SECTION_SPREAD_LAMBDA,
} from "./pipeline/defaults";
export type { IRetrieveAblation, IRetrieveDeps } from "./pipeline/types";

/**
 * The retrieval pipeline behind POST /api/retrieval/query, one named stage per step (each in
 * lib/retrieval/pipeline/):
 *
 *   understandQuery → runPass (searchProbe → expandAdjacent → rerankCandidates → smoothByChapter
 *   → spreadOverSections) → widen a narrowed chapter if too small → assessAndCorrect → buildResponse
 */
export async function retrieve(
  deps: IRetrieveDeps,
  userId: string,
  req: TRetrievalQueryRequest,
  ablation: IRetrieveAblation = {},
): Promise<TRetrievalQueryResponse> {
  const started = performance.now();
  const understanding = await understandQuery(deps, userId, req, ablation);
  const run: IRetrievalRun = { deps, userId, req, ablation, understanding };
  const explanations = [...understanding.explanations];
  const { classification, alpha, limit, chapterNumber } = understanding;
  const searchText = classification.searchText || req.query;

  let pass = await runPass(run, { searchText, alpha, limit, chapter: chapterNumber });
  // A chapter the query named (not the filter) with too few passages: search the whole subject.
  if (
    chapterNumber !== null &&
    req.filters.chapterNumber === undefined &&
    pass.candidates.length < req.topK
  ) {
    explanations.push("Too few passages in that chapter; searched the whole subject.");
    pass = await runPass(run, { searchText, alpha, limit, chapter: null });
  }
  const assessed = await assessAndCorrect(run, pass);
  return buildResponse(run, assessed, started, explanations);
}
