import { describe, expect, it } from "vitest";
import { rankedAboveChapter, sectionVoteLeader, takeSections } from "@/lib/retrieval/pipeline/focus";
import type { ICandidate } from "@/lib/retrieval/pipeline/types";
import type { IHybridRow } from "@/lib/retrieval/store";

/** A passage of chapter document `doc`, section `section`. */
const c = (doc: string, section: string, i: number): ICandidate => ({
  row: { document_id: doc, chunk_index: i, section_path: section, fused_score: 0.5 } as IHybridRow,
  fused: 0.5,
});

describe("takeSections (the head kept ahead of the focused chapter)", () => {
  const list = [c("ch5", "5.2", 0), c("ch5", "5.2", 1), c("ch41", "41.1", 0), c("ch5", "5.3", 0)];

  it("keeps the first n distinct sections, with all their passages in order", () => {
    const seen = new Set<string>();
    expect(takeSections(list, 2, seen)).toBe(3);
    expect(seen.size).toBe(2);
    expect(takeSections(list, 1, new Set())).toBe(2);
  });

  it("ends the head at the focused chapter's first section when asked", () => {
    // The first section is the focused chapter's own: the head is that section alone.
    expect(takeSections(list, 2, new Set(), "ch5")).toBe(2);
    // A section of another chapter first: the head runs on to the chapter's first section.
    const other = [c("ch41", "41.1", 0), c("ch5", "5.2", 0), c("ch9", "9.1", 0)];
    expect(takeSections(other, 2, new Set(), "ch5")).toBe(2);
    // …never past n sections.
    const none = [c("ch41", "41.1", 0), c("ch9", "9.1", 0), c("ch5", "5.2", 0)];
    expect(takeSections(none, 2, new Set(), "ch5")).toBe(2);
  });
});

describe("rankedAboveChapter (the section ranking guards the head cut)", () => {
  const list = [c("ch5", "5.2", 0), c("ch41", "41.1", 0), c("ch5", "5.3", 0)];

  it("is true when a later head section of another chapter ranks above the chapter's first", () => {
    expect(rankedAboveChapter(list, 2, "ch5", ["ch41|41.1", "ch5|5.2"])).toBe(true);
    // A section the ranking does not hold ranks below every ranked one.
    expect(rankedAboveChapter(list, 2, "ch5", ["ch41|41.1"])).toBe(true);
  });

  it("is false when the chapter's first section ranks higher, or nothing follows it in the head", () => {
    expect(rankedAboveChapter(list, 2, "ch5", ["ch5|5.2", "ch41|41.1"])).toBe(false);
    expect(rankedAboveChapter(list, 1, "ch5", ["ch41|41.1"])).toBe(false);
    // Sections before the chapter's first one are not the cut's business.
    const other = [c("ch41", "41.1", 0), c("ch5", "5.2", 0), c("ch9", "9.1", 0)];
    expect(rankedAboveChapter(other, 2, "ch5", ["ch41|41.1", "ch5|5.2"])).toBe(false);
    // No section of the chapter in the head.
    expect(rankedAboveChapter(other, 2, "ch9", [])).toBe(false);
  });
});

describe("sectionVoteLeader (the section the first results vote for leads)", () => {
  it("names a section whose several passages outvote the first passage's section", () => {
    // 41.1 first (1/2); 5.2 at ranks 2 and 3 (1/3 + 1/4 = 0.58).
    const list = [c("ch41", "41.1", 0), c("ch5", "5.2", 0), c("ch5", "5.2", 1), c("ch9", "9.1", 0)];
    expect(sectionVoteLeader(list, 10, 1)).toBe("ch5|5.2");
    // A higher margin asks for more than that.
    expect(sectionVoteLeader(list, 10, 1.5)).toBeUndefined();
    // Only the first `depth` passages vote.
    expect(sectionVoteLeader(list, 2, 1)).toBeUndefined();
  });

  it("is undefined when the first passage's section already has the most votes, or the list is empty", () => {
    const list = [c("ch5", "5.2", 0), c("ch41", "41.1", 0), c("ch5", "5.2", 1)];
    expect(sectionVoteLeader(list, 10, 1)).toBeUndefined();
    expect(sectionVoteLeader([], 10, 1)).toBeUndefined();
  });
});
