import { describe, expect, it } from "vitest";
import { cohensKappa } from "@/eval/scripts/support/readings";

describe("cohensKappa", () => {
  it("is 1 for full agreement and 0 when agreement is what the label frequencies give by chance", () => {
    expect(
      cohensKappa([
        ["use", "use"],
        ["edit", "edit"],
        ["reject", "reject"],
      ]),
    ).toBe(1);
    // Each rater says "use" half the time, independently: observed 0.5 = chance 0.5.
    expect(
      cohensKappa([
        ["use", "use"],
        ["use", "edit"],
        ["edit", "use"],
        ["edit", "edit"],
      ]),
    ).toBeCloseTo(0, 10);
  });

  it("matches a worked example (observed 0.7, chance 0.5 → 0.4)", () => {
    const pairs = [
      ...Array.from({ length: 20 }, () => ["yes", "yes"] as const),
      ...Array.from({ length: 5 }, () => ["yes", "no"] as const),
      ...Array.from({ length: 10 }, () => ["no", "yes"] as const),
      ...Array.from({ length: 15 }, () => ["no", "no"] as const),
    ];
    expect(cohensKappa(pairs)).toBeCloseTo(0.4, 10);
  });

  it("is below 0 when raters disagree more than chance, and NaN for no items", () => {
    expect(
      cohensKappa([
        ["use", "reject"],
        ["reject", "use"],
      ]),
    ).toBeLessThan(0);
    expect(cohensKappa([])).toBeNaN();
  });
});
