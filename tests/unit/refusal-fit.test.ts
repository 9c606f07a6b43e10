import { describe, expect, it } from "vitest";
import { fitLogisticNewton, predictLogistic } from "@/lib/eval/logistic";
import { REFUSAL_FEATURES, refusalScore, type TRefusalFeature } from "@/lib/retrieval/calibrate";
import {
  cutFor,
  fitRefusalModel,
  type IRefusalExample,
  splitJudged,
} from "../../eval/scripts/support/refusal-fit";

/** A deterministic pseudo-random stream (no Math.random in tests). */
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe("Newton/IRLS logistic regression (the refusal fit)", () => {
  it("recovers the coefficients that generated the labels", () => {
    const rand = lcg(7);
    const xs: number[][] = [];
    const ys: number[] = [];
    for (let k = 0; k < 4000; k++) {
      const x = [rand() * 4 - 2, rand() * 0.2];
      const p = 1 / (1 + Math.exp(-(0.5 + 1.5 * x[0]! - 10 * x[1]!)));
      xs.push(x);
      ys.push(rand() < p ? 1 : 0);
    }
    const m = fitLogisticNewton(xs, ys, { l2: 0 });
    expect(m.intercept).toBeCloseTo(0.5, 0);
    expect(m.weights[0]).toBeCloseTo(1.5, 0);
    expect(m.weights[1]).toBeGreaterThan(-14);
    expect(m.weights[1]).toBeLessThan(-6);
    // Same data, same model (deterministic).
    expect(fitLogisticNewton(xs, ys, { l2: 0 })).toEqual(m);
  });

  it("sample weights balance the classes", () => {
    const xs = [[0], [0], [0], [0], [1]];
    const ys = [0, 0, 0, 1, 1];
    const plain = fitLogisticNewton(xs, ys, { l2: 0.01 });
    const balanced = fitLogisticNewton(xs, ys, { l2: 0.01, sampleWeights: [1, 1, 1, 3, 3] });
    expect(predictLogistic(balanced, [0])).toBeGreaterThan(predictLogistic(plain, [0]));
  });
});

describe("the refusal model fit", () => {
  const zero = Object.fromEntries(REFUSAL_FEATURES.map((f) => [f, 0])) as Record<TRefusalFeature, number>;
  const rand = lcg(11);
  const examples: IRefusalExample[] = [];
  for (let k = 0; k < 600; k++) {
    const inScope = k % 3 !== 0;
    const absent = inScope ? rand() * 0.3 : 0.4 + rand() * 0.6;
    examples.push({
      features: { ...zero, absent, cosine: rand() * 0.5 },
      inScope,
      half: k % 2 === 0 ? "even" : "odd",
      set: inScope ? "in" : "out",
      query: `q${k}`,
    });
  }

  it("cutFor refuses at most the allowed share of in-scope scores", () => {
    const scores = Array.from({ length: 1000 }, (_, i) => i / 100);
    const cut = cutFor(scores, 0.006);
    expect(scores.filter((s) => s < cut).length).toBeLessThanOrEqual(6);
    expect(cut).toBe(0.06);
    expect(cutFor([1.23456], 0)).toBe(1.234);
  });

  it("fits on the even in-scope lines and the out-of-scope ones, and keeps its refusal budget", () => {
    const m = fitRefusalModel(examples, ["absent", "cosine"], {
      maxRefused: 0.01,
      l2: 1e-3,
      fit: fitLogisticNewton,
    });
    expect(m.features).toEqual(["absent", "cosine"]);
    expect(m.weights[0]).toBeLessThan(0);
    const evenIn = examples.filter((e) => e.inScope && e.half === "even");
    const refusedIn = evenIn.filter((e) => refusalScore(m, e.features) < m.cut).length;
    expect(refusedIn).toBeLessThanOrEqual(Math.floor(0.01 * evenIn.length));
    const out = examples.filter((e) => !e.inScope);
    expect(out.filter((e) => refusalScore(m, e.features) < m.cut).length).toBe(out.length);
    expect(
      fitRefusalModel(examples, ["absent", "cosine"], { maxRefused: 0.01, l2: 1e-3, fit: fitLogisticNewton }),
    ).toEqual(m);
  });
});

describe("splitJudged (the fit's rows and the in-scope controls)", () => {
  const lines = [
    { id: "open", inScope: true },
    { id: "cal", inScope: false, file: "out-of-scope-calibration-5.jsonl" },
    { id: "heldout", inScope: false, file: "out-of-scope-heldout.jsonl" },
    { id: "control", inScope: true, control: true, file: "in-scope-controls.jsonl" },
    { id: "other control", inScope: true, control: true, file: "in-scope-spelling-gb.jsonl" },
  ];
  it("fits on in-scope lines and the named calibration files only, never on controls", () => {
    const { rows, controls } = splitJudged(
      lines,
      ["eval/retrieval/out-of-scope-calibration-5.jsonl"],
      ["eval/retrieval/in-scope-controls.jsonl"],
    );
    expect(rows.map((r) => r.id)).toEqual(["open", "cal"]);
    expect(controls.map((r) => r.id)).toEqual(["control"]);
  });
  it("reports no controls when none are named", () => {
    expect(splitJudged(lines, [], []).controls).toEqual([]);
    expect(splitJudged(lines, [], []).rows.map((r) => r.id)).toEqual(["open"]);
  });
});
