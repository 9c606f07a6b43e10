import { describe, expect, it } from "vitest";
import { rescaleBlueprint, scaleTargets } from "@/lib/papers/rescale";

describe("rescaleBlueprint", () => {
  it("scales targets in marks with the total, each group still adding up", () => {
    const bp = {
      bloomBands: { "Remember+Understand": 10, Apply: 6, "Analyze+Evaluate+Create": 4 },
      types: { mcq: 6, short: 8, long: 6 },
      difficulty: { easy: 40, medium: 40, hard: 20 },
      tolerance: 2,
    };
    const scaled = rescaleBlueprint(bp, 20, 13);
    expect(scaled.bloomBands).toEqual({ "Remember+Understand": 6, Apply: 4, "Analyze+Evaluate+Create": 3 });
    expect(Object.values(scaled.types!).reduce((a, b) => a + b, 0)).toBe(13);
    // Percentages do not depend on the total.
    expect(scaled.difficulty).toEqual(bp.difficulty);
    expect(scaled.tolerance).toBe(1);
  });

  it("returns the blueprint unchanged when the total does not change", () => {
    const bp = { types: { mcq: 5 }, tolerance: 1 };
    expect(rescaleBlueprint(bp, 20, 20)).toBe(bp);
  });

  it("rounds by largest remainder so no mark is lost or invented", () => {
    expect(scaleTargets({ a: 1, b: 1, c: 1 }, 3, 2)).toEqual({ a: 1, b: 1, c: 0 });
    expect(scaleTargets({ a: 20, b: 20, c: 15, d: 25 }, 80, 40)).toEqual({ a: 10, b: 10, c: 8, d: 12 });
  });
});
