import "server-only";
import { terms } from "@/lib/text/tokenize";
import type { TRetrievalQueryRequest, TRetrievalQueryResponse } from "@/schema/retrieval.schema";
import { isAboutExcluded, resolveFollowUp } from "./follow-up";
import { assessAndCorrect } from "./pipeline/correct";
import { gatherPlan, tuningOf } from "./pipeline/execute";
import { focusOnChapter, focusOnSection } from "./pipeline/focus";
import { judgeRelevance } from "./pipeline/judge";
import { resolveNavigation } from "./pipeline/navigate";
import { rankGathered, runPass } from "./pipeline/pass";
import { buildResponse, type IPlanOutcome } from "./pipeline/respond";
import type { ICandidate, IRetrievalRun, IRetrieveAblation, IRetrieveDeps } from "./pipeline/types";
import { understandQuery } from "./pipeline/understand";
import { planQuery } from "./plan";

export {
  DEFAULT_COHERENCE,
  DEFAULT_COHERENCE_PROTECT,
  DEFAULT_POOL_FACTOR,
  DEFAULT_SECTION_SPREAD_LAMBDA,
} from "./pipeline/defaults";
export type { IRetrieveAblation, IRetrieveDeps } from "./pipeline/types";

/**
 * The retrieval pipeline behind POST /api/retrieval/query, one named stage per step:
 *
 *   resolveFollowUp (session turns) → understandQuery (scope, classifier) → planQuery →
 *   gatherPlan (the query's probe, then optional probes: sub-queries, MCQ options, variants, HyDE;
 *   fused) → rankGathered (adjacent expansion → rerank → chapter smoothing → section spread) →
 *   widen a narrowed chapter if too small → focus (chapter for exam questions, section for
 *   "the next section") → leave out excluded topics → assessAndCorrect (confidence, one corrective
 *   retry) → judgeRelevance (calibrated relevance, refusal) → buildResponse
 */
export async function retrieve(
  deps: IRetrieveDeps,
  userId: string,
  request: TRetrievalQueryRequest,
  ablation: IRetrieveAblation = {},
): Promise<TRetrievalQueryResponse> {
  const started = performance.now();
  const followUp = resolveFollowUp(request.query, request.session?.turns ?? [], request.bloomTargets);
  const req: TRetrievalQueryRequest = followUp.isFollowUp
    ? {
        ...request,
        query: followUp.query,
        ...(followUp.bloomTargets ? { bloomTargets: followUp.bloomTargets } : {}),
      }
    : request;
  const understanding = await understandQuery(deps, userId, req, ablation);
  const plannerOn = req.planner !== false && ablation.planner !== false;
  // The planner's probes are the corrective search: a second pass after them found nothing better
  // on the open set and was the slowest requests' cost (README, "Query planner"). "The next section"
  // names its target: no retry may widen the search away from it.
  const run: IRetrievalRun = {
    deps,
    userId,
    req,
    ablation: followUp.navigation || plannerOn ? { ...ablation, retry: false } : ablation,
    understanding,
    llmDeadline: started + deps.llmTimeoutMs,
  };
  const explanations = [...understanding.explanations];
  const { classification, alpha, limit } = understanding;

  const navigation =
    followUp.navigation && followUp.anchor
      ? await resolveNavigation(deps.db, followUp.anchor, followUp.navigation, understanding.chapters)
      : null;
  if (followUp.navigation && !navigation)
    explanations.push("There is no such neighbouring section in this scope.");
  if (navigation) {
    understanding.chapterNumber = navigation.chapter;
    explanations.push(`Moved to ${navigation.label}.`);
  }
  const plan = planQuery({
    query: req.query,
    classification,
    clientVariants: req.variants,
    switches: {
      planner: plannerOn,
      variants: ablation.variants !== false,
      hyde: ablation.hyde !== false,
      hydeLookups: ablation.hydeLookups === true,
      focus: ablation.focus !== false && !navigation,
      llm: deps.model !== null,
    },
  });
  if (navigation) plan.mainText = navigation.text;
  else if (followUp.context) plan.contextText = followUp.context;

  const planStarted = performance.now();
  const gathered = await gatherPlan(run, plan, started);
  let pass = await rankGathered(run, gathered.gathered);
  const { chapterNumber } = understanding;
  // A chapter the query named (not the filter) with too few passages: search the whole subject.
  if (
    chapterNumber !== null &&
    !navigation &&
    req.filters.chapterNumber === undefined &&
    pass.candidates.length < req.topK
  ) {
    explanations.push("Too few passages in that chapter; searched the whole subject.");
    pass = await runPass(run, { searchText: plan.mainText, alpha, limit, chapter: null });
  }

  let focus: IPlanOutcome["focus"] = null;
  if (navigation?.sectionKey) {
    pass = { ...pass, candidates: focusOnSection(pass.candidates, navigation.sectionKey) };
    focus = { chapterNumber: navigation.chapter, share: 1, kind: "section" };
  } else if (plan.chapterFocus && chapterNumber === null) {
    const tuning = tuningOf(run);
    const focused = await focusOnChapter(run, pass.candidates, plan.mainText, {
      depth: tuning.focusDepth,
      minShare: tuning.focusMinShare,
      head: tuning.focusHeadSections,
      fillFirst: tuning.focusFillFirst,
      keep: tuning.focusKeepSections,
    });
    pass = { ...pass, candidates: focused.candidates };
    if (focused.focused) {
      focus = {
        chapterNumber: focused.focused.chapterNumber,
        share: round(focused.focused.share),
        kind: "chapter",
      };
    }
  }
  const planMs = performance.now() - planStarted - pass.rerankMs;

  let excludedCount = 0;
  if (followUp.excluded.length > 0) {
    const kept: ICandidate[] = [];
    for (const c of pass.candidates) {
      if (
        isAboutExcluded({ content: c.row.content, sectionPath: c.row.section_path }, followUp.excluded, terms)
      )
        excludedCount++;
      else kept.push(c);
    }
    pass = { ...pass, candidates: kept };
  }

  const assessed = await assessAndCorrect(run, pass);
  const judgement = judgeRelevance(run, assessed.top, assessed.pass.candidates, plan.options);
  return buildResponse(run, assessed, started, explanations, {
    plan,
    probes: gathered.probes,
    fallbacks: gathered.fallbacks,
    focus,
    budgetMs: tuningOf(run).latencyBudgetMs,
    planMs,
    llmPlanMs: gathered.llmMs,
    judgement,
    followUp,
    excludedCount,
    rawQuery: request.query,
    ...(navigation ? { topic: navigation.text } : {}),
  });
}

const round = (n: number) => Math.round(n * 1000) / 1000;
