import "server-only";
import { chapterShares, type IProbeChapterVote, mixShares, probeAgreement, topShare } from "./chapter-vote";
import { searchCandidates } from "./pass";
import { bookSectionOf, type ICandidate, type IPassResult, type IRetrievalRun, keyOf } from "./types";

export interface IChapterEvidence {
  documentId: string;
  chapterNumber: number | null;
  /** Rank-weighted share of the top results in this document (0–1). */
  share: number;
}

/**
 * Which document (chapter) the top results come from: each of the first `depth` passages votes
 * 1/(rank + 2) for its document. A share near 1 means the results agree on one chapter.
 */
export function dominantChapter(
  candidates: readonly ICandidate[],
  depth: number,
  agreement?: {
    shares: ReadonlyMap<string, number>;
    weight: number;
    chapters: ReadonlyMap<string, number | null>;
  },
  sectionRank?: ISectionRankVote,
): IChapterEvidence | null {
  let shares = chapterShares(candidates, depth);
  if (agreement && agreement.weight > 0 && agreement.shares.size > 0)
    shares = mixShares(shares, agreement.shares, agreement.weight);
  // The section-level vote picks the chapter; its share is the larger of the mixed share and the
  // share without it, so that a vote spread over a few chapters does not switch off the focus or
  // the head cut (headToChapter) for a chapter the passages agree on.
  const before = shares;
  if (sectionRank && sectionRank.weight > 0 && sectionRank.shares.size > 0)
    shares = mixShares(shares, sectionRank.shares, sectionRank.weight);
  const top = topShare(shares);
  if (!top) return null;
  const best = { documentId: top.documentId, share: Math.max(top.share, before.get(top.documentId) ?? 0) };
  const row = candidates.find((c) => c.row.document_id === best.documentId)?.row;
  const chapterNumber = row
    ? row.chapter_number
    : (agreement?.chapters.get(best.documentId) ?? sectionRank?.chapters.get(best.documentId) ?? null);
  return { documentId: best.documentId, chapterNumber, share: best.share };
}

/**
 * Exam questions: the section-level BM25 ranking (section-search.ts) as a chapter vote, and its
 * sections' order for the focused chapter's fill.
 */
export interface ISectionRankVote {
  shares: ReadonlyMap<string, number>;
  weight: number;
  chapters: ReadonlyMap<string, number | null>;
  /** Book section keys, best first. */
  order: readonly string[];
  /** Fill the focused chapter's sections in `order` (sections it does not rank keep theirs, after). */
  fill: boolean;
  /** The best passage of the first-ranked section leads the list (when the list holds one). */
  lead: boolean;
  /** …only when the list starts in another chapter document (no reordering inside a chapter). */
  leadAcrossOnly?: boolean;
}

/** The chapter votes of a question's probes, and the chapter number of each voted document. */
export interface IProbeVotes {
  votes: IProbeChapterVote[];
  chapters: Map<string, number | null>;
}

export interface IFocusOptions {
  /** Passages that vote on the chapter. */
  depth: number;
  /** Minimum share of the top chapter to focus on it. */
  minShare: number;
  /** Book sections kept ahead of the chapter's other sections. */
  head: number;
  /**
   * End the head at the first section of the focused chapter (at least one section) when the
   * chapter's share of the vote is at least this (0: never): with the first results agreeing on
   * the chapter, a head section from another chapter after the chapter's own best one is seldom
   * the one examined and only delays the chapter.
   */
  headToChapter?: number;
  /**
   * With a section ranking (`sectionRank`): no head cut when the ranking puts a later head section
   * from another chapter above the focused chapter's first head section.
   */
  headGuard?: boolean;
  /** The chapter's sections placed right after the head… */
  fillFirst: number;
  /** …then this many new sections of the original order, then the rest of the chapter. */
  keep: number;
  /**
   * Exam questions: the chapter votes of the question's separate probes (stem, each option),
   * mixed into the first results' vote with this weight (chapter-vote.ts).
   */
  agreement?: {
    shares: ReadonlyMap<string, number>;
    weight: number;
    chapters: ReadonlyMap<string, number | null>;
  };
  /**
   * When the focused chapter's share is at least this and the first passage is from another
   * chapter, the chapter leads: no head of the original order before it (0: never).
   */
  lead?: number;
  /** Exam questions: the section-level BM25 vote and fill order. */
  sectionRank?: ISectionRankVote;
}

export interface IFocusResult {
  candidates: ICandidate[];
  focused: IChapterEvidence | null;
}

/**
 * Passages up to (not including) the first one of the (n+1)-th distinct book section, or, with
 * `stopAfter`, of the first new section after one of that document's sections was taken.
 */
export function takeSections(
  items: readonly ICandidate[],
  n: number,
  seen: Set<string>,
  stopAfter?: string,
): number {
  let cut = 0;
  const local = new Set<string>();
  let reached = false;
  while (cut < items.length) {
    const row = items[cut]!.row;
    const section = bookSectionOf(row);
    if (!local.has(section) && (local.size >= n || reached)) break;
    if (stopAfter !== undefined && row.document_id === stopAfter) reached = true;
    local.add(section);
    seen.add(section);
    cut++;
  }
  return cut;
}

/**
 * Stage 6, chapter focus (hierarchical retrieval: pick the chapter, then the passages in it). An
 * exam question is set on one chapter; when the first results agree on it, the best passage of
 * each other section of that chapter follows the head of the list, ahead of passages from chapters
 * that only share vocabulary. A few of the original results stay just after the first chapter
 * sections, so a right answer from another chapter is not pushed far down. The chapter's passages
 * come from one more search restricted to it.
 */
export async function focusOnChapter(
  run: IRetrievalRun,
  candidates: ICandidate[],
  searchText: string,
  opts: IFocusOptions,
): Promise<IFocusResult> {
  const evidence = dominantChapter(candidates, opts.depth, opts.agreement, opts.sectionRank);
  if (!evidence || evidence.chapterNumber === null || evidence.share < opts.minShare) {
    return { candidates, focused: null };
  }
  const { understanding } = run;
  const inChapter = await searchCandidates(run, {
    searchText,
    alpha: understanding.alpha,
    limit: understanding.limit,
    chapter: evidence.chapterNumber,
  });
  const seenSections = new Set<string>();
  const leads =
    opts.lead !== undefined &&
    opts.lead > 0 &&
    evidence.share >= opts.lead &&
    candidates[0]?.row.document_id !== evidence.documentId;
  const cutsHead =
    !!opts.headToChapter &&
    evidence.share >= opts.headToChapter &&
    !(
      opts.headGuard &&
      opts.sectionRank &&
      rankedAboveChapter(candidates, opts.head, evidence.documentId, opts.sectionRank.order)
    );
  const cut = takeSections(
    candidates,
    leads ? 0 : opts.head,
    seenSections,
    cutsHead ? evidence.documentId : undefined,
  );
  const head = candidates.slice(0, cut);
  const seenKeys = new Set(head.map((c) => keyOf(c.row.document_id, c.row.chunk_index)));
  const byKey = new Map(candidates.map((c) => [keyOf(c.row.document_id, c.row.chunk_index), c]));
  // The chapter's other sections, in the order the restricted search ranks their best passage.
  const fill: ICandidate[] = [];
  for (const c of inChapter.candidates) {
    if (c.row.document_id !== evidence.documentId) continue;
    const section = bookSectionOf(c.row);
    if (seenSections.has(section)) continue;
    seenSections.add(section);
    const key = keyOf(c.row.document_id, c.row.chunk_index);
    fill.push(byKey.get(key) ?? c);
    seenKeys.add(key);
  }
  if (opts.sectionRank?.fill) orderBySectionRank(fill, opts.sectionRank.order);
  const rest = candidates
    .slice(cut)
    .filter((c) => !seenKeys.has(keyOf(c.row.document_id, c.row.chunk_index)));
  const keptCut = takeSections(rest, opts.keep, new Set());
  return {
    candidates: [
      ...head,
      ...fill.slice(0, opts.fillFirst),
      ...rest.slice(0, keptCut),
      ...fill.slice(opts.fillFirst),
      ...rest.slice(keptCut),
    ],
    focused: evidence,
  };
}

/**
 * Whether the section ranking (`order`, best first) puts a head section that follows the chapter
 * document's first head section, and lies outside that document, above it: the head's first
 * `head` distinct book sections of `candidates` are read in order.
 */
export function rankedAboveChapter(
  candidates: readonly ICandidate[],
  head: number,
  documentId: string,
  order: readonly string[],
): boolean {
  const rank = new Map(order.map((k, i) => [k, i]));
  const at = (k: string) => rank.get(k) ?? Number.POSITIVE_INFINITY;
  const sections: { key: string; documentId: string }[] = [];
  for (const c of candidates) {
    const key = bookSectionOf(c.row);
    if (sections.some((s) => s.key === key)) continue;
    if (sections.length >= head) break;
    sections.push({ key, documentId: c.row.document_id });
  }
  const first = sections.findIndex((s) => s.documentId === documentId);
  if (first < 0) return false;
  const chapterRank = at(sections[first]!.key);
  return sections.slice(first + 1).some((s) => s.documentId !== documentId && at(s.key) < chapterRank);
}

/**
 * Sorts the chapter's fill (one passage per section) by the section-level rank; sections the rank
 * does not hold keep their order after the ranked ones (stable).
 */
export function orderBySectionRank(fill: ICandidate[], order: readonly string[]): void {
  const rank = new Map(order.map((k, i) => [k, i]));
  const at = (c: ICandidate) => rank.get(bookSectionOf(c.row)) ?? Number.POSITIVE_INFINITY;
  const sorted = fill
    .map((c, i) => ({ c, i }))
    .sort((a, b) => at(a.c) - at(b.c) || a.i - b.i)
    .map((x) => x.c);
  fill.splice(0, fill.length, ...sorted);
}

/** The best (first) passage of `sectionKey` moved to the front; the list as is when it has none. */
export function leadWithSection(
  candidates: readonly ICandidate[],
  sectionKey: string | undefined,
  acrossOnly = false,
): ICandidate[] {
  const at = sectionKey === undefined ? -1 : candidates.findIndex((c) => bookSectionOf(c.row) === sectionKey);
  if (at <= 0) return [...candidates];
  if (acrossOnly && candidates[at]!.row.document_id === candidates[0]!.row.document_id)
    return [...candidates];
  return [candidates[at]!, ...candidates.slice(0, at), ...candidates.slice(at + 1)];
}

/**
 * The book section the first `depth` passages vote for (each 1/(rank + 2), summed per section),
 * when its vote is at least `margin` times the first passage's section's and it is another
 * section: several passages of one section among the first results are more evidence that it is
 * the one a question examines than one passage that happens to match best. Undefined otherwise.
 */
export function sectionVoteLeader(
  candidates: readonly ICandidate[],
  depth: number,
  margin: number,
): string | undefined {
  const votes = new Map<string, number>();
  candidates.slice(0, depth).forEach((c, rank) => {
    const key = bookSectionOf(c.row);
    votes.set(key, (votes.get(key) ?? 0) + 1 / (rank + 2));
  });
  const first = candidates[0] ? bookSectionOf(candidates[0].row) : undefined;
  if (first === undefined) return undefined;
  let best = first;
  for (const [key, v] of votes) if (v > (votes.get(best) ?? 0)) best = key;
  return best !== first && (votes.get(best) ?? 0) >= margin * (votes.get(first) ?? 0) ? best : undefined;
}

/** "The next section": that section's passages first, in their order, then everything else. */
export function focusOnSection(candidates: readonly ICandidate[], sectionKey: string): ICandidate[] {
  const inside = candidates.filter((c) => bookSectionOf(c.row) === sectionKey);
  return [...inside, ...candidates.filter((c) => bookSectionOf(c.row) !== sectionKey)];
}

/** What the focus stage did, as the response's `plan.focus` reports it. */
export type TFocusReport = {
  chapterNumber: number | null;
  share: number;
  kind: "chapter" | "section";
} | null;

/**
 * Stage 6, focus: the target section first for "the next section", else the chapter the first
 * results agree on for exam-style questions (when the plan asks for it and no chapter is set).
 */
export async function applyFocus(
  run: IRetrievalRun,
  pass: IPassResult,
  opts: {
    sectionKey: string | null;
    navigationChapter: number | null;
    chapterFocus: boolean;
    searchText: string;
    /** A pasted exam question (the plan read one): the exam layout of the chapter. */
    exam?: boolean;
    /** The exam question's probes' chapter votes (gather-plan.ts). */
    probeVotes?: IProbeVotes;
    /** The exam question's section-level BM25 vote (section-search.ts). */
    sectionRank?: ISectionRankVote;
  },
): Promise<{ pass: IPassResult; focus: TFocusReport }> {
  if (opts.sectionKey !== null) {
    return {
      pass: { ...pass, candidates: focusOnSection(pass.candidates, opts.sectionKey) },
      focus: { chapterNumber: opts.navigationChapter, share: 1, kind: "section" },
    };
  }
  if (!opts.chapterFocus || run.understanding.chapterNumber !== null) return { pass, focus: null };
  const tuning = run.settings.plan;
  const focused = await focusOnChapter(run, pass.candidates, opts.searchText, {
    depth: tuning.focusDepth,
    minShare: tuning.focusMinShare,
    head: opts.exam ? tuning.examFocusHeadSections : tuning.focusHeadSections,
    headToChapter: !opts.exam
      ? 0
      : opts.sectionRank
        ? tuning.examFocusHeadToChapterRanked
        : tuning.examFocusHeadToChapter,
    headGuard: tuning.examHeadToChapterGuard > 0,
    fillFirst: opts.exam ? tuning.examFocusFillFirst : tuning.focusFillFirst,
    keep: opts.exam ? tuning.examFocusKeepSections : tuning.focusKeepSections,
    ...(opts.exam && opts.probeVotes
      ? {
          agreement: {
            shares: probeAgreement(opts.probeVotes.votes),
            weight: tuning.examAgreementWeight,
            chapters: opts.probeVotes.chapters,
          },
          lead: tuning.examLeadShare,
        }
      : {}),
    ...(opts.exam && opts.sectionRank ? { sectionRank: opts.sectionRank } : {}),
  });
  const voted =
    opts.exam && !opts.sectionRank?.lead && tuning.examSectionVoteLead > 0
      ? sectionVoteLeader(pass.candidates, tuning.focusDepth, tuning.examSectionVoteLead)
      : undefined;
  const candidates =
    opts.exam && opts.sectionRank?.lead
      ? leadWithSection(focused.candidates, opts.sectionRank.order[0], opts.sectionRank.leadAcrossOnly)
      : voted !== undefined
        ? leadWithSection(focused.candidates, voted)
        : focused.candidates;
  return {
    pass: { ...pass, candidates },
    focus: focused.focused
      ? {
          chapterNumber: focused.focused.chapterNumber,
          share: Math.round(focused.focused.share * 1000) / 1000,
          kind: "chapter",
        }
      : null,
  };
}
