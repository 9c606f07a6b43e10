import { describe, expect, it } from "vitest";
import { chapterShares, mixShares, probeAgreement, topShare } from "@/lib/retrieval/pipeline/chapter-vote";
import { dominantChapter } from "@/lib/retrieval/pipeline/focus";
import type { ICandidate } from "@/lib/retrieval/pipeline/types";
import type { IHybridRow } from "@/lib/retrieval/store";

/** A passage of chapter document `doc` (chapter number `n`), chunk `i`. */
const c = (doc: string, n: number, i: number): ICandidate => ({
  row: {
    document_id: doc,
    chapter_number: n,
    chunk_index: i,
    section_path: `${n}.1`,
    fused_score: 0.5,
  } as IHybridRow,
  fused: 0.5,
});

describe("chapterShares (rank-weighted vote of the first passages)", () => {
  it("weighs rank r by 1/(r + 2) and sums to 1", () => {
    const shares = chapterShares([c("a", 1, 0), c("b", 2, 0), c("a", 1, 1)], 10);
    const a = 1 / 2 + 1 / 4;
    const b = 1 / 3;
    expect(shares.get("a")).toBeCloseTo(a / (a + b), 10);
    expect(shares.get("b")).toBeCloseTo(b / (a + b), 10);
  });

  it("only counts the first `depth` passages and is empty for no passages", () => {
    expect(chapterShares([c("a", 1, 0), c("b", 2, 0)], 1)).toEqual(new Map([["a", 1]]));
    expect(chapterShares([], 10).size).toBe(0);
  });
});

describe("probeAgreement (the stem and each option vote separately)", () => {
  it("averages the probes' shares by weight, skipping probes that found nothing", () => {
    const agreed = probeAgreement([
      { shares: new Map([["a", 1]]), weight: 1 },
      {
        shares: new Map([
          ["b", 0.5],
          ["a", 0.5],
        ]),
        weight: 1,
      },
      { shares: new Map(), weight: 5 },
    ]);
    expect(agreed.get("a")).toBeCloseTo(0.75, 10);
    expect(agreed.get("b")).toBeCloseTo(0.25, 10);
  });

  it("is empty without votes", () => {
    expect(probeAgreement([]).size).toBe(0);
  });
});

describe("mixShares and topShare", () => {
  it("mixes two votes linearly and picks the largest share", () => {
    const mixed = mixShares(
      new Map([
        ["a", 0.6],
        ["b", 0.4],
      ]),
      new Map([["b", 1]]),
      0.5,
    );
    expect(mixed.get("a")).toBeCloseTo(0.3, 10);
    expect(mixed.get("b")).toBeCloseTo(0.7, 10);
    expect(topShare(mixed)).toEqual({ documentId: "b", share: mixed.get("b") });
    expect(topShare(new Map())).toBeNull();
  });

  it("weight 0 keeps the first vote", () => {
    expect(mixShares(new Map([["a", 1]]), new Map([["b", 1]]), 0)).toEqual(new Map([["a", 1]]));
  });
});

describe("dominantChapter with the probes' agreement", () => {
  // One strong passage of chapter 41 first, chapter 5 behind it: the pooled vote is close.
  const pooled = [c("ch41", 41, 0), c("ch5", 5, 0), c("ch41", 41, 1), c("ch5", 5, 1)];

  it("without agreement follows the pooled list", () => {
    expect(dominantChapter(pooled, 10)?.documentId).toBe("ch41");
  });

  it("the chapter the stem and the options agree on wins with enough weight", () => {
    const shares = probeAgreement([
      { shares: new Map([["ch5", 1]]), weight: 1 },
      { shares: new Map([["ch5", 1]]), weight: 1 },
      { shares: new Map([["ch41", 1]]), weight: 1 },
    ]);
    const chapters = new Map([
      ["ch5", 5],
      ["ch41", 41],
    ]);
    const evidence = dominantChapter(pooled, 10, { shares, weight: 0.5, chapters });
    expect(evidence?.documentId).toBe("ch5");
    expect(evidence?.chapterNumber).toBe(5);
  });

  it("an empty agreement (no options voted) leaves the pooled vote and its share unchanged", () => {
    const alone = dominantChapter(pooled, 10);
    const empty = dominantChapter(pooled, 10, { shares: new Map(), weight: 0.5, chapters: new Map() });
    expect(empty).toEqual(alone);
  });

  it("takes the chapter number from the votes when the pooled list lacks the document", () => {
    const evidence = dominantChapter([c("ch41", 41, 0)], 10, {
      shares: new Map([["ch9", 1]]),
      weight: 0.9,
      chapters: new Map([["ch9", 9]]),
    });
    expect(evidence).toEqual({ documentId: "ch9", chapterNumber: 9, share: 0.9 });
  });
});
