import "server-only";
import { describeError, log } from "@/lib/log";
import type { IRetrievalRun } from "@/lib/retrieval/pipeline/types";
import { synonyms } from "@/lib/text/wordnet";
import { type ILlmQueryPlan, planQueryWithLlm } from "./llm";
import type { IQueryPlan } from "./offline";
import { feedbackVariant, headingVariant, synonymVariant } from "./variants";

/** The offline hypothetical passage (used when the model gave none): key sentences of the first hits. */
export { hypotheticalPassage } from "./variants";

/** The language model's variants and passage, or the reason there are none. */
export type TLlmPlanOutcome =
  | { ok: true; plan: ILlmQueryPlan; ms: number }
  | { ok: false; reason: string; ms: number };

/**
 * The planner's switch, model side: asks the language model for variants and a hypothetical passage
 * when the plan wants it and a model is configured (null otherwise). Never rejects: a failure
 * resolves to its reason, and the gather stage then uses the offline equivalents below.
 */
export function startLlmPlan(
  run: IRetrievalRun,
  plan: IQueryPlan,
  budgetMs: number,
): Promise<TLlmPlanOutcome> | null {
  const { deps, req } = run;
  if (!plan.llm || !deps.model) return null;
  const t0 = performance.now();
  return planQueryWithLlm(
    deps.model,
    {
      query: plan.mainText,
      subject: req.filters.subject,
      grade: req.filters.grade,
      ...(req.filters.chapterName ? { chapterName: req.filters.chapterName } : {}),
    },
    budgetMs,
  ).then(
    (p): TLlmPlanOutcome => ({ ok: true, plan: p, ms: performance.now() - t0 }),
    (err: unknown): TLlmPlanOutcome => {
      log.warn("retrieval.plan_llm_failed", { error: describeError(err) });
      return { ok: false, reason: describeError(err).slice(0, 120), ms: performance.now() - t0 };
    },
  );
}

/** One offline variant of the query (an ablation knob chooses which ones run). */
export function offlineVariant(
  kind: "synonyms" | "feedback" | "headings",
  mainText: string,
  topicTerms: string[],
  firstContents: string[],
  firstHeadings: string[],
): string | null {
  if (kind === "feedback") return feedbackVariant(mainText, firstContents, 3);
  if (kind === "synonyms")
    return synonymVariant(mainText, topicTerms, (w) => synonyms(w, { maxSenses: 1 }), firstContents, 3);
  return headingVariant(mainText, firstHeadings, 2);
}
