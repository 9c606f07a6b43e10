import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  fusedScoreOf,
  fuseScores,
  normalizeKeyword,
  normalizeVector,
  reciprocalRankFusion,
} from "@/lib/retrieval/fuse";

const unit = fc.double({ min: 0, max: 1, noNaN: true });
const both = fc.array(fc.record({ vectorScore: unit, keywordScore: unit }), { minLength: 1, maxLength: 30 });
const withKeys = <T extends object>(xs: T[]) => xs.map((x, i) => ({ ...x, key: `k${i}` }));
const optional = fc.option(unit, { nil: undefined });
const partial = fc.array(fc.record({ vectorScore: optional, keywordScore: optional }), {
  minLength: 1,
  maxLength: 30,
});

function isSortedBy<T>(xs: readonly T[], f: (x: T) => number): boolean {
  return xs.every((x, i) => i === 0 || f(xs[i - 1] as T) >= f(x));
}

describe("normalisers", () => {
  it("maps distances to 1/(1+d)", () => {
    expect(normalizeVector(0)).toBe(1);
    expect(normalizeVector(1)).toBe(0.5);
    expect(normalizeVector(2)).toBeCloseTo(1 / 3);
    expect(normalizeVector(-0.0001)).toBe(1);
    expect(normalizeVector(Number.NaN)).toBe(0);
    expect(normalizeVector(Number.POSITIVE_INFINITY)).toBe(0);
  });
  it("maps ranks to rank/max, 0 when max is 0", () => {
    expect(normalizeKeyword(0.2, 0.4)).toBe(0.5);
    expect(normalizeKeyword(0.4, 0.4)).toBe(1);
    expect(normalizeKeyword(0.3, 0)).toBe(0);
    expect(normalizeKeyword(0, 0)).toBe(0);
    expect(normalizeKeyword(Number.NaN, 1)).toBe(0);
  });
  it("vector similarity is in [0,1] and decreasing in distance", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 10, noNaN: true }),
        fc.double({ min: 0, max: 10, noNaN: true }),
        (a, b) => {
          const [x, y] = [normalizeVector(a), normalizeVector(b)];
          expect(x).toBeGreaterThanOrEqual(0);
          expect(x).toBeLessThanOrEqual(1);
          if (a < b) expect(x).toBeGreaterThanOrEqual(y);
        },
      ),
    );
  });
});

describe("fuseScores", () => {
  it("uses the one signal present", () => {
    expect(fusedScoreOf({ key: "a", vectorScore: 0.8 }, 0.3)).toBe(0.8);
    expect(fusedScoreOf({ key: "a", keywordScore: 0.6 }, 0.9)).toBe(0.6);
    expect(fusedScoreOf({ key: "a" }, 0.5)).toBe(0);
    expect(fusedScoreOf({ key: "a", vectorScore: 0.8, keywordScore: 0.4 }, 0.25)).toBeCloseTo(0.5);
  });

  it("keeps extra fields and sorts descending", () => {
    const out = fuseScores(
      [
        { key: "a", vectorScore: 0.2, keywordScore: 0.2, chunkIndex: 3 },
        { key: "b", vectorScore: 0.9, keywordScore: 0.9, chunkIndex: 7 },
      ],
      0.5,
    );
    expect(out.map((o) => o.key)).toEqual(["b", "a"]);
    expect(out[0]?.chunkIndex).toBe(7);
  });

  it("alpha = 1 is the vector order and alpha = 0 the keyword order", () => {
    fc.assert(
      fc.property(both, (raw) => {
        const cs = withKeys(raw);
        expect(isSortedBy(fuseScores(cs, 1), (c) => c.vectorScore)).toBe(true);
        expect(isSortedBy(fuseScores(cs, 0), (c) => c.keywordScore)).toBe(true);
      }),
    );
  });

  it("scores stay in [0,1] and the output is a sorted permutation", () => {
    fc.assert(
      fc.property(partial, unit, (raw, alpha) => {
        const cs = withKeys(raw);
        const out = fuseScores(cs, alpha);
        expect(out.map((o) => o.key).sort()).toEqual(cs.map((c) => c.key).sort());
        expect(isSortedBy(out, (o) => o.fusedScore)).toBe(true);
        for (const o of out) {
          expect(o.fusedScore).toBeGreaterThanOrEqual(0);
          expect(o.fusedScore).toBeLessThanOrEqual(1);
        }
      }),
    );
  });

  it("is monotone in each signal", () => {
    fc.assert(
      fc.property(unit, unit, unit, unit, (v, k, bump, alpha) => {
        const base = fusedScoreOf({ key: "x", vectorScore: v, keywordScore: k }, alpha);
        const v2 = Math.min(1, v + bump);
        const k2 = Math.min(1, k + bump);
        expect(fusedScoreOf({ key: "x", vectorScore: v2, keywordScore: k }, alpha)).toBeGreaterThanOrEqual(
          base - 1e-12,
        );
        expect(fusedScoreOf({ key: "x", vectorScore: v, keywordScore: k2 }, alpha)).toBeGreaterThanOrEqual(
          base - 1e-12,
        );
      }),
    );
  });

  it("clamps alpha and out-of-range scores", () => {
    expect(fusedScoreOf({ key: "a", vectorScore: 2, keywordScore: -1 }, 5)).toBe(1);
    expect(fusedScoreOf({ key: "a", vectorScore: 0.4, keywordScore: 1 }, -1)).toBe(1);
  });
});

describe("reciprocalRankFusion", () => {
  it("sums 1/(k+rank) over lists", () => {
    const out = reciprocalRankFusion([
      ["a", "b", "c"],
      ["b", "a", "d"],
    ]);
    expect(
      out
        .map((o) => o.key)
        .slice(0, 2)
        .sort(),
    ).toEqual(["a", "b"]);
    expect(out.find((o) => o.key === "a")?.score).toBeCloseTo(1 / 51 + 1 / 52);
    expect(out.find((o) => o.key === "d")?.score).toBeCloseTo(1 / 53);
  });

  it("applies weights and ignores duplicates within a list", () => {
    const out = reciprocalRankFusion(
      [
        ["a", "a", "b"],
        ["b", "a"],
      ],
      10,
      [1, 3],
    );
    expect(out[0]?.key).toBe("b");
    expect(out.find((o) => o.key === "a")?.score).toBeCloseTo(1 / 11 + 3 / 12);
  });

  it("a key ranked first in every list wins", () => {
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 3 }), { maxLength: 8 }), {
          minLength: 1,
          maxLength: 4,
        }),
        (lists) => {
          const withTop = lists.map((l) => ["TOP", ...l.filter((x) => x !== "TOP")]);
          expect(reciprocalRankFusion(withTop)[0]?.key).toBe("TOP");
        },
      ),
    );
  });
});
