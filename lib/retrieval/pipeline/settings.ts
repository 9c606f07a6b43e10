import type { TRetrievalQueryRequest } from "@/schema/retrieval.schema";
import {
  DEFAULT_COHERENCE,
  DEFAULT_COHERENCE_PROTECT,
  DEFAULT_POOL_FACTOR,
  DEFAULT_SECTION_SPREAD_LAMBDA,
  PLAN_DEFAULTS,
} from "./defaults";
import type { IRetrievalSettings, IRetrieveAblation, IRetrieveDeps } from "./types";

/** Resolves the run's settings once, at the top of `retrieve()` (see `IRetrievalSettings`). */
export function resolveSettings(
  deps: IRetrieveDeps,
  req: TRetrievalQueryRequest,
  ablation: IRetrieveAblation,
  opts: { navigation: boolean },
): IRetrievalSettings {
  const planner = req.planner !== false && ablation.planner !== false;
  return {
    legs: ablation.legs ?? "both",
    alpha: req.alpha,
    alphaShift: ablation.alphaShift ?? 0,
    classifier: ablation.classifier !== false,
    chapterNarrowing: ablation.chapterNarrowing !== false,
    poolFactor: Math.max(1, ablation.poolFactor ?? DEFAULT_POOL_FACTOR),
    adjacent:
      req.expand === false || ablation.expansion === false
        ? "off"
        : req.expand
          ? "at-least-one"
          : "classifier",
    bm25: ablation.bm25,
    rerank: req.enableRerank && ablation.rerank !== false,
    rerankFusedWeight: ablation.rerankFusedWeight,
    coherenceWeight: ablation.coherenceWeight ?? DEFAULT_COHERENCE,
    coherenceProtect: ablation.coherenceProtect ?? DEFAULT_COHERENCE_PROTECT,
    diversify: ablation.diversify !== false,
    sectionSpreadLambda: ablation.sectionSpreadLambda ?? DEFAULT_SECTION_SPREAD_LAMBDA,
    zones: ablation.zones !== false,
    // The planner's probes are the corrective search: a second pass after them found nothing better
    // on the open set and was the slowest requests' cost (README, "Query planner"). "The next
    // section" names its target: no retry may widen the search away from it.
    retry: ablation.retry !== false && !planner && !opts.navigation,
    refuse: ablation.refuse !== false,
    onJudged: ablation.onJudged,
    planner,
    variants: ablation.variants !== false,
    hyde: ablation.hyde !== false,
    hydeLookups: ablation.hydeLookups === true,
    focus: ablation.focus !== false,
    exam: ablation.exam !== false,
    fusion: ablation.fusion ?? "score",
    offlineVariants: ablation.offlineVariants ?? [],
    plan: {
      ...PLAN_DEFAULTS,
      ...(deps.planBudgetMs !== undefined ? { latencyBudgetMs: deps.planBudgetMs } : {}),
      ...ablation.planTuning,
    },
  };
}
