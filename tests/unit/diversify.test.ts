import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diversifyBySection } from "@/lib/retrieval/diversify";

interface IItem {
  id: string;
  section: string;
  score: number;
}
const opts = (lambda?: number) => ({
  key: (i: IItem) => i.section,
  score: (i: IItem) => i.score,
  ...(lambda !== undefined ? { lambda } : {}),
});

/** A chapter-wide ranking dominated by one section, as "Generate 10 MCQs on Photosynthesis" returns. */
const CHAPTER: IItem[] = [
  { id: "a1", section: "8.2", score: 0.95 },
  { id: "a2", section: "8.2", score: 0.93 },
  { id: "a3", section: "8.2", score: 0.92 },
  { id: "a4", section: "8.2", score: 0.9 },
  { id: "b1", section: "8.1", score: 0.85 },
  { id: "a5", section: "8.2", score: 0.84 },
  { id: "c1", section: "8.3", score: 0.8 },
  { id: "a6", section: "8.2", score: 0.78 },
  { id: "b2", section: "8.1", score: 0.76 },
  { id: "d1", section: "8.0", score: 0.7 },
  { id: "c2", section: "8.3", score: 0.68 },
];

describe("diversifyBySection", () => {
  it("surfaces several sections in the top 8 while keeping the best item first", () => {
    const before = new Set(CHAPTER.slice(0, 8).map((i) => i.section)).size;
    const out = diversifyBySection(CHAPTER, opts());
    const after = new Set(out.slice(0, 8).map((i) => i.section)).size;
    expect(out[0]?.id).toBe("a1");
    expect(after).toBeGreaterThan(before);
    expect(after).toBe(4);
    // Within a section, the better chunk still comes first.
    const eightTwo = out.filter((i) => i.section === "8.2").map((i) => i.id);
    expect(eightTwo).toEqual(["a1", "a2", "a3", "a4", "a5", "a6"]);
  });

  it("lambda = 1 keeps the relevance order", () => {
    expect(diversifyBySection(CHAPTER, opts(1)).map((i) => i.id)).toEqual(CHAPTER.map((i) => i.id));
  });

  it("lambda = 0 round-robins across sections", () => {
    const out = diversifyBySection(CHAPTER, opts(0)).slice(0, 4);
    expect(new Set(out.map((i) => i.section)).size).toBe(4);
  });

  it("respects limit and returns every item", () => {
    const out = diversifyBySection(CHAPTER, { ...opts(), limit: 3 });
    expect(out).toHaveLength(CHAPTER.length);
    expect(out.slice(0, 3).map((i) => i.section)).toEqual(["8.2", "8.1", "8.3"]);
  });

  it("handles empty, single and equal-score inputs", () => {
    expect(diversifyBySection([], opts())).toEqual([]);
    expect(diversifyBySection([CHAPTER[0] as IItem], opts())).toEqual([CHAPTER[0]]);
    const flat = [
      { id: "x1", section: "s", score: 0.5 },
      { id: "x2", section: "s", score: 0.5 },
      { id: "y1", section: "t", score: 0.5 },
    ];
    expect(diversifyBySection(flat, opts()).map((i) => i.id)).toEqual(["x1", "y1", "x2"]);
  });

  it("always returns a permutation and never demotes the top item", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            section: fc.constantFrom("a", "b", "c", "d"),
            score: fc.double({ min: 0, max: 1, noNaN: true }),
          }),
          {
            minLength: 1,
            maxLength: 25,
          },
        ),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (raw, lambda) => {
          const items = raw.map((r, i) => ({ ...r, id: `i${i}` })).sort((x, y) => y.score - x.score);
          const out = diversifyBySection(items, opts(lambda));
          expect(out.map((i) => i.id).sort()).toEqual(items.map((i) => i.id).sort());
          expect(out[0]?.id).toBe(items[0]?.id);
        },
      ),
    );
  });
});
