import "server-only";
import { describeError, log } from "@/lib/log";
import { hypotheticalPassage, offlineVariant, startLlmPlan } from "@/lib/steps/plan";
import { keyPhraseWords } from "@/lib/steps/plan/exam";
import type { IQueryPlan } from "@/lib/steps/plan/offline";
import { contentWords } from "@/lib/text/tokenize";
import type { EProbeSource } from "@/types/retrieval.types";
import { scopeVocabulary } from "../scope-vocabulary";
import { chapterShares, type IProbeChapterVote } from "./chapter-vote";
import type { IProbeVotes } from "./focus";
import { fuseProbeLists, type IProbeList } from "./fuse-probes";
import { type IGathered, searchCandidates } from "./pass";
import type { IRetrievalRun } from "./types";

export interface IProbeReport {
  source: EProbeSource;
  text: string;
  weight: number;
  /** Passages this probe returned. */
  found: number;
  status: "used" | "skipped" | "failed";
  note?: string;
}

export interface IGatherOutcome {
  gathered: IGathered;
  /** An exam question's chapter votes, one per probe that ran (stem, options). */
  probeVotes: IProbeVotes;
  probes: IProbeReport[];
  fallbacks: string[];
  llmMs: number;
}

/**
 * Stage 2, gather: run the plan's probes and fuse their lists (execute the query plan). The
 * query's own probe always runs; every other probe is optional: it is skipped once the request is
 * past its latency budget, and a failed one is reported and left out, so the worst case is the
 * single query's result.
 */
export async function gatherPlan(
  run: IRetrievalRun,
  plan: IQueryPlan,
  startedAt: number,
): Promise<IGatherOutcome> {
  const { understanding, settings } = run;
  const tuning = settings.plan;
  const { alpha, limit, chapterNumber } = understanding;
  const probes: IProbeReport[] = [];
  const fallbacks: string[] = [];
  const lists: IProbeList[] = [];
  const votes: IProbeChapterVote[] = [];
  const chapters = new Map<string, number | null>();
  /** The stem's and each option's own chapter vote (exam questions; cheap: the lists are here). */
  const vote = (g: IGathered, weight: number) => {
    // Only a question with options: without them the stem's vote is the pooled vote again (and
    // a key-phrase probe's vote beside it cost the even short answers 0.003 nDCG@10).
    if (plan.exam === null || plan.options.length === 0) return;
    votes.push({ shares: chapterShares(g.candidates, tuning.focusDepth), weight });
    for (const c of g.candidates.slice(0, tuning.focusDepth))
      chapters.set(c.row.document_id, c.row.chapter_number);
  };
  const llmBudget = Math.max(1, Math.round(run.deps.llmTimeoutMs * tuning.llmBudgetShare));
  const llm = startLlmPlan(run, plan, llmBudget);

  const main = await searchCandidates(run, {
    searchText: plan.mainText,
    alpha,
    limit,
    chapter: chapterNumber,
  });
  lists.push({ gathered: main, weight: 1 });
  vote(main, 1);
  probes.push({
    source: "query",
    text: plan.mainText,
    weight: 1,
    found: main.candidates.length,
    status: "used",
  });

  // With a language model the probes may wait for its answer; without, they get the offline budget.
  const budgetMs = tuning.latencyBudgetMs + (llm ? llmBudget : 0);
  const overBudget = () => performance.now() - startedAt > budgetMs;
  const optional = async (
    source: EProbeSource,
    text: string,
    weight: number,
    legs: "both" | "vector" = "both",
  ): Promise<void> => {
    if (overBudget()) {
      probes.push({ source, text, weight, found: 0, status: "skipped", note: "latency budget spent" });
      return;
    }
    try {
      const g = await searchCandidates(run, {
        searchText: text,
        alpha: legs === "vector" ? 1 : alpha,
        // A probe beside the query only needs to reach its head: fewer full vectors to re-score.
        limit: Math.min(limit, Math.max(run.req.topK, understanding.fanout)),
        chapter: chapterNumber,
        legs,
      });
      lists.push({ gathered: g, weight });
      if (source === "option" || source === "key-phrase") vote(g, tuning.examOptionVoteWeight);
      probes.push({ source, text, weight, found: g.candidates.length, status: "used" });
    } catch (err) {
      // An optional probe must never sink the request: the other lists still answer.
      log.warn("retrieval.probe_failed", { source, error: describeError(err) });
      probes.push({
        source,
        text,
        weight,
        found: 0,
        status: "failed",
        note: describeError(err).slice(0, 120),
      });
    }
  };

  // A long exam question: its scope-rarest content words as one more probe (exam.ts keyPhraseWords).
  if (
    plan.exam &&
    tuning.examKeyPhraseWeight > 0 &&
    plan.exam.focusWords.length >= tuning.examKeyPhraseMinWords
  ) {
    const vocabulary = await scopeVocabulary(
      run.deps.db,
      run.userId,
      run.req.filters,
      plan.exam.focusWords,
    ).catch(() => null);
    const words = vocabulary
      ? keyPhraseWords(plan.exam.focusWords, vocabulary.df, tuning.examKeyPhraseWords)
      : [];
    if (words.length) await optional("key-phrase", words.join(" "), tuning.examKeyPhraseWeight);
  }
  // A stem that sets a scene before it asks: its asking sentence as one more part (exam.ts askingWords).
  if (plan.exam && tuning.examAskWeight > 0 && plan.exam.askWords.length > 0)
    await optional("sub-query", plan.exam.askWords.join(" "), tuning.examAskWeight);
  for (const sub of plan.subQueries) await optional("sub-query", sub, tuning.subQueryWeight);
  const stemTopic = contentWords(plan.mainText).slice(0, 10).join(" ");
  for (const option of plan.options) await optional("option", `${stemTopic} ${option}`, tuning.optionWeight);
  for (const v of plan.clientVariants) await optional("client-variant", v, tuning.variantWeight);
  if (plan.contextText) await optional("session", plan.contextText, tuning.sessionWeight);

  let llmHyde = false;
  let llmMs = 0;
  if (llm) {
    const outcome = await llm;
    llmMs = outcome.ms;
    if (outcome.ok) {
      for (const v of outcome.plan.variants) await optional("llm-variant", v, tuning.variantWeight);
      if (outcome.plan.hypotheticalPassage) {
        await optional("llm-hyde", outcome.plan.hypotheticalPassage, tuning.llmHydeWeight, "vector");
        llmHyde = true;
      }
      fallbacks.push(...outcome.plan.rejected.map((r) => `language model ${r}: left out`));
    } else {
      fallbacks.push(`language model gave no variants (${outcome.reason}); offline equivalents used`);
    }
  }

  const firstContents = main.candidates.slice(0, tuning.feedbackDocs).map((c) => c.row.content);
  if (plan.hyde && !llmHyde && settings.hyde) {
    const passage = hypotheticalPassage(plan.mainText, firstContents, {
      maxSentences: tuning.hydeSentences,
      maxChars: tuning.hydeMaxChars,
    });
    if (passage) await optional("hyde", passage, tuning.hydeWeight, "vector");
    else
      probes.push({
        source: "hyde",
        text: "",
        weight: 0,
        found: 0,
        status: "skipped",
        note: "no key sentences",
      });
  }
  for (const kind of settings.offlineVariants) {
    const text = offlineVariant(
      kind,
      plan.mainText,
      understanding.classification.topicTerms,
      firstContents,
      main.candidates.slice(0, tuning.feedbackDocs).map((c) => c.row.section_path),
    );
    if (text) await optional(kind, text, tuning.offlineVariantWeight);
  }
  return {
    gathered: fuseProbeLists(lists, settings.fusion),
    probeVotes: { votes, chapters },
    probes,
    fallbacks,
    llmMs,
  };
}
