/**
 * Production defaults of the retrieval stages. Each was chosen on the open eval's even-numbered
 * queries and confirmed on the odd ones; the measured effect of each is in the README's
 * "Retrieval quality" section (not here, where it would go stale).
 */

/** Weight of the document-level smoothing stage (see coherence.ts). */
export const DEFAULT_COHERENCE = 0.5;
/** Passages smoothing keeps in place, so a lone, clearly best match is never buried. */
export const DEFAULT_COHERENCE_PROTECT = 8;
/**
 * The SQL returns `fanout × DEFAULT_POOL_FACTOR` candidates; the reranker scores the top `fanout`
 * and the rest keep their fused order below them. With a pool of exactly `fanout`, document
 * smoothing had little to pull up: the other passages of a chapter with several strong matches
 * (an exam question's answer and the sections around it) were often just below the cut.
 */
export const DEFAULT_POOL_FACTOR = 3;
/**
 * Every query's results are spread over sections (MMR on rank, see diversify.ts): a second
 * passage of the same section adds context but no new source, so it yields to the next section's
 * best passage unless it ranks clearly higher. Chapter-wide requests keep their own score-based MMR.
 */
export const DEFAULT_SECTION_SPREAD_LAMBDA = 0.5;
/** Score of a neighbour pulled in by adjacent expansion, relative to its anchor. */
export const NEIGHBOUR_DISCOUNT = 0.9;
/** The corrective pass searches this many times as many candidates. */
export const RETRY_POOL_MULTIPLIER = 2;
/** …and moves α this far toward the middle. */
export const RETRY_ALPHA_SHIFT = 0.2;

/**
 * The planner's weights and limits (lib/steps/plan/offline.ts, gather-plan.ts, focus.ts). Each probe's fused scores are
 * averaged with these weights (the query's own probe weighs 1); weighted score fusion beat RRF on
 * the even queries for every probe kind (README, "Query planner").
 */
export const PLAN_DEFAULTS = {
  /** Offline HyDE: a pseudo-passage of the first results' key sentences, searched by meaning. */
  hydeWeight: 0.4,
  hydeSentences: 5,
  hydeMaxChars: 1200,
  /** First-pass passages the offline HyDE passage and the feedback variants are drawn from. */
  feedbackDocs: 5,
  /** Sub-queries of a comparison or a multi-part stem. */
  subQueryWeight: 0.3,
  /**
   * Each option of a pasted MCQ (with the stem's topic). 0.5 on the even MCQ lines (0.2 → 0.35 →
   * 0.5 → 0.7: nDCG@10 0.822 → 0.827 → 0.828 → ≈; docs/exam-questions.md, wave 6).
   */
  optionWeight: 0.5,
  /** Phrasings from the language model or the enhancer. */
  variantWeight: 0.5,
  /** The previous turn's query beside a follow-up ("more on X", "examples of this"). */
  sessionWeight: 0.3,
  /** The language model's hypothetical passage. */
  llmHydeWeight: 0.5,
  /** Offline variants (WordNet synonyms, feedback terms, heading terms): measured, off by default. */
  offlineVariantWeight: 0.3,
  /** Chapter focus: vote depth, minimum share, sections kept ahead, chapter sections next, then kept. */
  focusDepth: 10,
  focusMinShare: 0.3,
  focusHeadSections: 3,
  focusFillFirst: 3,
  focusKeepSections: 2,
  /**
   * The same layout for a question read as a pasted exam question (lib/steps/plan/exam.ts): its
   * chapter counts for more than a topic query's, so fewer other sections stay ahead of the
   * chapter's and more of the chapter follows the head (chosen on the even MCQ lines).
   */
  examFocusHeadSections: 2,
  examFocusFillFirst: 5,
  examFocusKeepSections: 1,
  /**
   * The exam head ends at the focused chapter's first section when the chapter's share of the
   * first results' vote is at least this (focus.ts; 0: never). Chosen on the even MCQ and
   * short-answer lines with the open set as the guard: always (no threshold) raised nDCG@10 most
   * but moved right sections from another chapter from rank 2 to 6–7 (open MRR@10 −0.004); 0.8
   * keeps the open set's figures (docs/exam-questions.md, wave 6).
   */
  examFocusHeadToChapter: 0.8,
  /**
   * The same threshold for a question the section ranking also orders (section-search.ts: a
   * question with options). 0.3 = `focusMinShare`: whenever the chapter is focused, the head ends
   * at its first section, so a second section from another chapter no longer sits between the
   * examined section and the rest of its chapter. Even Biology MCQ lines, nDCG@10 / Recall@8 /
   * MRR@10: 0.8 0.849 / 0.955 / 0.865; 0.5 (with the guard) 0.864 / 0.953 / 0.861; always 0.868 /
   * 0.953 / 0.860; always with the guard 0.867 / 0.953 / 0.860 (docs/exam-questions.md, wave 13).
   * `examHeadToChapterGuard` 1 keeps the head when the section ranking puts its later section
   * (another chapter's) above the chapter's first one.
   */
  examFocusHeadToChapterRanked: 0.3,
  examHeadToChapterGuard: 1,
  /**
   * Exam questions with options: weight of the probes' own chapter votes (the stem's search and
   * each option's, voting separately) mixed into the first results' vote (chapter-vote.ts; 0: the
   * pooled vote alone). Even MCQ lines, nDCG@10: 0 0.834, 0.5 0.838, 0.8 0.838
   * (docs/exam-questions.md, wave 7).
   */
  examAgreementWeight: 0.5,
  /** …where each option's vote counts this much beside the stem's 1. */
  examOptionVoteWeight: 1,
  /**
   * Exam questions of at least `examKeyPhraseMinWords` content words: their `examKeyPhraseWords`
   * scope-rarest words searched as one more probe with this weight (0: off). Measured and off: at
   * 0.5 the even short answers gained 0.002 nDCG@10 but all short answers lost 0.002, MCQ stems
   * 0.008 and Physics 0.009–0.010 (docs/exam-questions.md, wave 7).
   */
  examKeyPhraseWeight: 0,
  examKeyPhraseMinWords: 8,
  /**
   * Exam questions whose stem sets a scene before it asks: the asking sentence's content words
   * (exam.ts askingWords) searched as one more part with this weight (0: off). Measured and off:
   * even short answers 0.796 → 0.798 nDCG@10 at 0.5 but Recall@8 0.889 → 0.882, 1 lost 0.003
   * (docs/exam-questions.md, wave 14).
   */
  examAskWeight: 0,
  examKeyPhraseWords: 4,
  /**
   * Exam questions: the focused chapter leads the list when its share is at least this (0: never).
   * Measured and off: at 0.6 (with agreement 0.5) even MCQs 0.838 → 0.836, MRR@10 0.844 → 0.838.
   */
  examLeadShare: 0,
  /**
   * Exam questions with options: the scope's sections ranked by BM25 over each section's whole
   * text (section-search.ts; the options' content words count `examSectionBm25OptionWeight`).
   * The first `examSectionBm25Depth` sections vote on the focus chapter with weight
   * `examSectionBm25Weight` (0: no vote), the focused chapter's sections fill in that rank's order
   * (`examSectionBm25Fill` 1) and the first-ranked section's best passage leads the list
   * (`examSectionBm25Lead` 1: always; 2: only when the list starts in another chapter). Even
   * Biology MCQ lines, nDCG@10 / Recall@8 / MRR@10: off 0.838 / 0.940 / 0.844; lead 2 + fill + vote
   * 0.5 0.849 / 0.955 / 0.865; lead 1 0.850 / 0.955 / 0.868, but within a chapter the lead cost
   * Physics (MCQs 0.953 → 0.942). Questions without options (short answers, pasted stems, the
   * open set's questions) take none of these three uses: with the lead the open set's questions
   * lost MRR@10 0.758 → 0.729 (docs/exam-questions.md, wave 9). `examSectionBm25WithoutOptions`:
   * 0 no ranking for them, 1 all three uses, 2 (default since wave 13) the ranking only guards the
   * head cut (`examFocusHeadToChapterRanked`, `examHeadToChapterGuard`): even short answers
   * 0.786 / 0.893 / 0.765 → 0.799 / 0.893 / 0.763.
   */
  examSectionBm25Weight: 0.5,
  examSectionBm25Depth: 10,
  examSectionBm25OptionWeight: 0.5,
  examSectionBm25Fill: 1,
  examSectionBm25Lead: 2,
  examSectionBm25WithoutOptions: 2,
  /**
   * Questions without options at `examSectionBm25WithoutOptions` 2: weight of the section
   * ranking's chapter vote beside the passages' (0: the ranking only guards the head cut).
   */
  examSectionBm25VoteWithoutOptions: 0,
  /**
   * Exam questions the section ranking does not lead (no options): the book section the first
   * results vote for most (focus.ts sectionVoteLeader) leads the list when its vote is at least
   * this many times the first passage's section's (0: off). Even short answers (with wave 14's
   * scaffolding), nDCG@10 / Recall@8 / MRR@10: off 0.797 / 0.893 / 0.763, 1.5 0.798 / 0.893 / 0.763,
   * 1 0.799 / 0.893 / 0.769; the open set's questions lose MRR@10 0.737 → 0.724
   * (docs/exam-questions.md, wave 14).
   */
  examSectionVoteLead: 1,
  /** Optional probes start only while the request has used less than this (offline). */
  latencyBudgetMs: 30,
  /** Share of the LLM timeout the planner's call may use; the reranker gets the rest. */
  llmBudgetShare: 0.4,
};
export type TPlanTuning = typeof PLAN_DEFAULTS;
