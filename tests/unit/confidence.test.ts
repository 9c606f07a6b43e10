import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeConfidence, RETRY_THRESHOLD, shouldRetry } from "@/lib/retrieval/confidence";

const GOOD_TEXT =
  "Photosynthesis is the process by which plants use light energy to make sugar. The light-dependent reactions of photosynthesis take place in the thylakoid membrane.";

describe("computeConfidence", () => {
  it("is high when the top passages hold the query terms and the top score stands out", () => {
    const c = computeConfidence({
      scores: [0.92, 0.7, 0.66, 0.6, 0.55],
      queryTerms: ["photosynthesis", "light"],
      topContents: [GOOD_TEXT, GOOD_TEXT],
    });
    expect(c.confidence).toBeGreaterThanOrEqual(80);
    expect(shouldRetry(c)).toBe(false);
    expect(c.reasons.some((r) => r.includes("coverage"))).toBe(true);
  });

  it("is low when the query terms are missing from the top passages", () => {
    const c = computeConfidence({
      scores: [0.6, 0.59, 0.59, 0.58],
      queryTerms: ["lattice", "gauge", "quark", "confinement"],
      topContents: [GOOD_TEXT, "Cells divide by mitosis.", "Rivers carry sediment."],
    });
    expect(c.confidence).toBeLessThan(RETRY_THRESHOLD);
    expect(shouldRetry(c)).toBe(true);
    expect(c.reasons.some((r) => r.includes("flat"))).toBe(true);
  });

  it("gives 0 with no results", () => {
    expect(computeConfidence({ scores: [], queryTerms: ["x"], topContents: [] })).toEqual({
      confidence: 0,
      reasons: ["no results"],
    });
  });

  it("matches query terms by stem", () => {
    const c = computeConfidence({
      scores: [0.9, 0.5],
      queryTerms: ["dividing", "cells"],
      topContents: ["A cell divides."],
    });
    expect(c.reasons[0]).toContain("100%");
  });

  it("expects less coverage from long queries", () => {
    const longQuery =
      "explain how the nephron filters blood generates urine kidney tubule reabsorption".split(" ");
    const text = "The nephron filters blood and generates urine in the kidney.";
    const c = computeConfidence({ scores: [0.9, 0.6, 0.5], queryTerms: longQuery, topContents: [text] });
    expect(c.confidence).toBeGreaterThan(RETRY_THRESHOLD);
  });

  it("shouldRetry accepts a number and a custom threshold", () => {
    expect(shouldRetry(20)).toBe(true);
    expect(shouldRetry(50)).toBe(false);
    expect(shouldRetry(50, 60)).toBe(true);
  });

  it("stays in 0–100 and grows with coverage", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 10 }),
        fc.array(fc.string({ maxLength: 40 }), { maxLength: 4 }),
        (raw, contents) => {
          const scores = [...raw].sort((a, b) => b - a);
          const base = computeConfidence({
            scores,
            queryTerms: ["osmosis", "membrane"],
            topContents: contents,
          });
          expect(base.confidence).toBeGreaterThanOrEqual(0);
          expect(base.confidence).toBeLessThanOrEqual(100);
          expect(Number.isInteger(base.confidence)).toBe(true);
          const covered = computeConfidence({
            scores,
            queryTerms: ["osmosis", "membrane"],
            topContents: ["Osmosis across a membrane.", ...contents],
          });
          expect(covered.confidence).toBeGreaterThanOrEqual(base.confidence);
        },
      ),
    );
  });
});
