import "server-only";
import { describeError, log } from "@/lib/log";
import { focusWordsOf } from "@/lib/steps/plan/exam";
import { planQuery } from "@/lib/steps/plan/offline";
import type { TRetrievalQueryRequest, TRetrievalQueryResponse } from "@/schema/retrieval.schema";
import { MODEL_USES_MEANING, MODEL_USES_PHRASES } from "./calibrate";
import { assessAndCorrect } from "./pipeline/correct";
import { applyFocus } from "./pipeline/focus";
import { gatherPlan } from "./pipeline/gather-plan";
import { judgedWords, judgeRelevance } from "./pipeline/judge";
import { resolveNavigation } from "./pipeline/navigate";
import { rankGathered, runPass } from "./pipeline/pass";
import { buildResponse } from "./pipeline/respond";
import { applyFollowUp, leaveOutExcluded } from "./pipeline/session";
import { resolveSettings } from "./pipeline/settings";
import type { IRetrievalRun, IRetrieveAblation, IRetrieveDeps } from "./pipeline/types";
import { understandQuery } from "./pipeline/understand";
import { scopeVocabulary, warmScopePhrases } from "./scope-vocabulary";
import { examSectionRank } from "./section-search";
import { scopeSpelling } from "./spelling";

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
 *   applyFollowUp (session turns) → understandQuery (scope, classifier) → resolveNavigation →
 *   planQuery → gatherPlan (the query's probe, then optional probes: sub-queries, MCQ options,
 *   variants, HyDE; fused) → rankGathered (adjacent expansion → rerank → chapter smoothing →
 *   section spread) → widen a narrowed chapter if too small → applyFocus (chapter for exam
 *   questions, section for "the next section") → leaveOutExcluded → assessAndCorrect (confidence;
 *   the corrective retry only without the planner) → judgeRelevance (calibrated relevance,
 *   refusal) → buildResponse
 */
export async function retrieve(
  deps: IRetrieveDeps,
  userId: string,
  request: TRetrievalQueryRequest,
  ablation: IRetrieveAblation = {},
): Promise<TRetrievalQueryResponse> {
  const started = performance.now();
  const { followUp, req: asTyped } = applyFollowUp(request);
  // The query in the scope's own spelling ("colour" searched as "color" in an American book), once,
  // before every stage that reads it: lexical search, embedding, phrase evidence, refusal.
  const spelling = await scopeSpelling(deps.db, userId, asTyped.filters, asTyped.query);
  const req = spelling.changes.length ? { ...asTyped, query: spelling.query } : asTyped;
  // Every setting from the request, the ablation knobs and the defaults, resolved once.
  const settings = resolveSettings(deps, req, ablation, { navigation: Boolean(followUp.navigation) });
  // The scope's phrase index (the refusal's phrase evidence) builds while the passages are ranked,
  // whether or not this query is refusal-checked: the scope's next one finds it ready. Never rejects.
  if (MODEL_USES_PHRASES) void warmScopePhrases(deps.db, userId, req.filters);
  const understanding = await understandQuery(deps, userId, req, settings);
  const run: IRetrievalRun = {
    deps,
    userId,
    req,
    settings,
    understanding,
    llmDeadline: started + deps.llmTimeoutMs,
  };
  const explanations = [...understanding.explanations];
  if (spelling.changes.length)
    explanations.push(
      `Searched ${spelling.changes.map((c) => `"${c.from}" as "${c.to}"`).join(", ")}, the spelling of this scope's books.`,
    );

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
    classification: understanding.classification,
    clientVariants: req.variants,
    switches: {
      planner: settings.planner,
      variants: settings.variants,
      hyde: settings.hyde,
      hydeLookups: settings.hydeLookups,
      focus: settings.focus && !navigation,
      exam: settings.exam,
      llm: deps.model !== null,
    },
  });
  if (navigation) plan.mainText = navigation.text;
  else if (followUp.context) plan.contextText = followUp.context;

  const planStarted = performance.now();
  const gathered = await gatherPlan(run, plan, started);
  let pass = await rankGathered(run, gathered.gathered);
  // A chapter the query named (not the filter) with too few passages: search the whole subject.
  const { chapterNumber, alpha, limit } = understanding;
  if (
    chapterNumber !== null &&
    !navigation &&
    req.filters.chapterNumber === undefined &&
    pass.candidates.length < req.topK
  ) {
    explanations.push("Too few passages in that chapter; searched the whole subject.");
    pass = await runPass(run, { searchText: plan.mainText, alpha, limit, chapter: null });
  }
  // A pasted exam question: the scope's sections ranked as whole texts vote on its chapter.
  const sectionRank =
    plan.exam && plan.chapterFocus && !navigation
      ? await examSectionRank(
          run,
          {
            stem: plan.mainText,
            // The options' content words: numbers, units and choice words are no section evidence.
            options: plan.exam.options.map((o) => focusWordsOf(o).join(" ")),
          },
          pass.scopeChunks,
        ).catch((err: unknown) => {
          log.warn("retrieval.section_rank_failed", { error: describeError(err) });
          return null;
        })
      : null;
  const focused = await applyFocus(run, pass, {
    sectionKey: navigation?.sectionKey ?? null,
    navigationChapter: navigation?.chapter ?? null,
    chapterFocus: plan.chapterFocus,
    searchText: plan.mainText,
    exam: plan.exam !== null,
    probeVotes: gathered.probeVotes,
    ...(sectionRank ? { sectionRank } : {}),
  });
  const planMs = performance.now() - planStarted - focused.pass.rerankMs;
  const kept = leaveOutExcluded(focused.pass, followUp.excluded);

  const assessed = await assessAndCorrect(run, kept.pass);
  // The scope's frequency of the query's words (the refusal's scope evidence): one indexed lookup,
  // after ranking so that it never delays the LLM stages' deadline.
  const vocabulary =
    !settings.refuse && !settings.onJudged
      ? null
      : await scopeVocabulary(
          deps.db,
          userId,
          req.filters,
          judgedWords([...understanding.classification.topicTerms, ...plan.options]),
          // The meaning profile only where it is used: by the model, or by a fit collecting evidence.
          {
            meaning: MODEL_USES_MEANING || Boolean(settings.onJudged),
            ...(MODEL_USES_PHRASES || settings.onJudged ? { phrasesOf: req.query } : {}),
            // A fit collects every query's evidence: it waits for the scope's phrase index.
            ...(settings.onJudged ? { phraseWaitMs: 600_000 } : {}),
          },
        ).catch(() => null);
  const judgement = judgeRelevance(
    run,
    assessed.top,
    assessed.pass.candidates,
    plan.options,
    vocabulary,
    assessed.pass.reranker,
  );
  return buildResponse(run, assessed, started, explanations, {
    plan,
    probes: gathered.probes,
    fallbacks: gathered.fallbacks,
    focus: focused.focus,
    budgetMs: settings.plan.latencyBudgetMs,
    planMs,
    llmPlanMs: gathered.llmMs,
    judgement,
    followUp,
    excludedCount: kept.excludedCount,
    rawQuery: request.query,
    ...(navigation ? { topic: navigation.text } : {}),
  });
}
