import { describe, expect, it } from "vitest";
import {
  dominantChapter,
  type ISectionRankVote,
  leadWithSection,
  orderBySectionRank,
} from "@/lib/retrieval/pipeline/focus";
import {
  type ISectionLength,
  type ISectionTermHit,
  rankSections,
  sectionRankShares,
} from "@/lib/retrieval/pipeline/section-rank";
import { bookSectionOf, type ICandidate } from "@/lib/retrieval/pipeline/types";
import type { IHybridRow } from "@/lib/retrieval/store";

const len = (doc: string, path: string, length: number, chapter = 1): ISectionLength => ({
  documentId: doc,
  sectionPath: path,
  chapterNumber: chapter,
  length,
});
const hit = (doc: string, path: string, lexeme: string, tf: number, option = false): ISectionTermHit => ({
  documentId: doc,
  sectionPath: path,
  lexeme,
  tf,
  option,
});
const opts = { k1: 1.2, b: 0.75, optionWeight: 0.5 };

describe("rankSections (BM25 over whole book sections)", () => {
  it("folds sub-section paths into their book section: tf and length add up", () => {
    const lengths = [
      len("a", "Ch 1 > 1.1 Osmosis", 100),
      len("a", "Ch 1 > 1.1 Osmosis > Tonicity", 100),
      len("a", "Ch 1 > 1.2 Diffusion", 200),
      len("b", "Ch 2 > 2.1 Kidney", 200, 2),
    ];
    const ranked = rankSections(
      [
        hit("a", "Ch 1 > 1.1 Osmosis", "osmosi", 2),
        hit("a", "Ch 1 > 1.1 Osmosis > Tonicity", "osmosi", 3),
        hit("b", "Ch 2 > 2.1 Kidney", "osmosi", 1),
      ],
      lengths,
      bookSectionOf,
      opts,
    );
    expect(ranked.map((r) => r.key)).toEqual(["a|Ch 1 > 1.1 Osmosis", "b|Ch 2 > 2.1 Kidney"]);
    // Two book sections of three hold the lexeme; the first has tf 5 at the average length 200.
    const idf = Math.log(1 + (3 - 2 + 0.5) / (2 + 0.5));
    expect(ranked[0]!.score).toBeCloseTo((idf * 5 * 2.2) / (5 + 1.2), 10);
    expect(ranked[1]).toMatchObject({ documentId: "b", chapterNumber: 2 });
  });

  it("a section holding several of the question's words beats one repeating a single word", () => {
    const lengths = [len("a", "A > 1.1", 100), len("a", "A > 1.2", 100), len("b", "B > 2.1", 100, 2)];
    const ranked = rankSections(
      [
        hit("a", "A > 1.1", "pituitari", 9),
        hit("b", "B > 2.1", "pituitari", 1),
        hit("b", "B > 2.1", "signal", 2),
        hit("b", "B > 2.1", "receptor", 2),
      ],
      lengths,
      bookSectionOf,
      opts,
    );
    expect(ranked[0]!.key).toBe("b|B > 2.1");
  });

  it("weighs a lexeme only the options use by optionWeight, and leaves out sections without hits", () => {
    const lengths = [len("a", "A > 1.1", 100), len("a", "A > 1.2", 100), len("a", "A > 1.3", 100)];
    const hits = [hit("a", "A > 1.1", "cell", 1), hit("a", "A > 1.2", "wall", 1, true)];
    const full = rankSections(hits, lengths, bookSectionOf, { ...opts, optionWeight: 1 });
    const half = rankSections(hits, lengths, bookSectionOf, opts);
    expect(full[0]!.score).toBeCloseTo(full[1]!.score, 10);
    expect(half[1]!.score).toBeCloseTo(full[1]!.score / 2, 10);
    expect(half).toHaveLength(2);
    expect(rankSections(hits, [], bookSectionOf, opts)).toEqual([]);
  });

  it("keeps the book's order on a tie and ignores hits outside the scope's sections", () => {
    const lengths = [len("a", "A > 1.1", 100), len("a", "A > 1.2", 100)];
    const ranked = rankSections(
      [hit("a", "A > 1.2", "x", 1), hit("a", "A > 1.1", "x", 1), hit("z", "Z > 9.9", "x", 5)],
      lengths,
      bookSectionOf,
      opts,
    );
    expect(ranked.map((r) => r.key)).toEqual(["a|A > 1.1", "a|A > 1.2"]);
  });
});

describe("sectionRankShares (the first sections vote for their chapter)", () => {
  it("weighs rank r by 1/(r + 2), sums to 1 and stops at depth", () => {
    const ranked = [
      { key: "a|1", documentId: "a", chapterNumber: 1, score: 3 },
      { key: "b|1", documentId: "b", chapterNumber: 2, score: 2 },
      { key: "a|2", documentId: "a", chapterNumber: 1, score: 1 },
    ];
    const shares = sectionRankShares(ranked, 10);
    const a = 1 / 2 + 1 / 4;
    const b = 1 / 3;
    expect(shares.get("a")).toBeCloseTo(a / (a + b), 10);
    expect(sectionRankShares(ranked, 1)).toEqual(new Map([["a", 1]]));
    expect(sectionRankShares([], 10).size).toBe(0);
  });
});

const c = (doc: string, n: number, path: string, i = 0): ICandidate => ({
  row: {
    document_id: doc,
    chapter_number: n,
    chunk_index: i,
    section_path: path,
    fused_score: 0.5,
  } as IHybridRow,
  fused: 0.5,
});

describe("the section vote in the focus stage", () => {
  const vote = (weight: number): ISectionRankVote => ({
    shares: new Map([["b", 1]]),
    weight,
    chapters: new Map([["b", 7]]),
    order: [],
    fill: false,
    lead: false,
  });

  it("moves the chapter to one the pooled passages never reached, with its chapter number", () => {
    const pool = [c("a", 1, "A > 1.1"), c("a", 1, "A > 1.2", 1)];
    expect(dominantChapter(pool, 10, undefined, vote(0.6))).toMatchObject({
      documentId: "b",
      chapterNumber: 7,
    });
    expect(dominantChapter(pool, 10, undefined, vote(0.4))?.documentId).toBe("a");
    expect(dominantChapter(pool, 10, undefined, vote(0))?.documentId).toBe("a");
  });

  it("orderBySectionRank puts ranked sections first and keeps the others' order after them", () => {
    const fill = [c("a", 1, "A > 1.1"), c("a", 1, "A > 1.2"), c("a", 1, "A > 1.3"), c("a", 1, "A > 1.4")];
    orderBySectionRank(fill, ["a|A > 1.3", "x|X > 9.1", "a|A > 1.2"]);
    expect(fill.map((f) => f.row.section_path)).toEqual(["A > 1.3", "A > 1.2", "A > 1.1", "A > 1.4"]);
  });
});

describe("leadWithSection", () => {
  it("moves the section's first passage to the front and leaves the list alone without one", () => {
    const list = [c("a", 1, "A > 1.1"), c("b", 2, "B > 2.1"), c("b", 2, "B > 2.1", 1)];
    expect(leadWithSection(list, "b|B > 2.1").map((x) => x.row.chunk_index)).toEqual([0, 0, 1]);
    expect(leadWithSection(list, "b|B > 2.1")[0]!.row.document_id).toBe("b");
    expect(leadWithSection(list, "z|Z > 9.9")).toEqual(list);
    expect(leadWithSection(list, undefined)).toEqual(list);
  });

  it("with acrossOnly, leads only when the list starts in another chapter document", () => {
    const inChapter = [c("a", 1, "A > 1.1"), c("a", 1, "A > 1.2")];
    expect(leadWithSection(inChapter, "a|A > 1.2", true)).toEqual(inChapter);
    expect(leadWithSection(inChapter, "a|A > 1.2")[0]!.row.section_path).toBe("A > 1.2");
    const across = [c("a", 1, "A > 1.1"), c("b", 2, "B > 2.1")];
    expect(leadWithSection(across, "b|B > 2.1", true)[0]!.row.document_id).toBe("b");
  });
});
