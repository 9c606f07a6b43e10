import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fitLogistic, logLoss, predictLogistic } from "@/lib/eval/logistic";
import {
  absentShare,
  calibratedRelevance,
  cosineOf,
  medianCosine,
  PRESELECT_FROM,
  queryEvidence,
  queryRelevance,
  REFUSE_BELOW,
  relevanceFeatures,
  specificity,
} from "@/lib/retrieval/calibrate";

const OFFLINE = "paperwise-offline-v1";

describe("calibrated relevance", () => {
  it("weighs rare words above common ones", () => {
    expect(specificity("chlorophyll")).toBeGreaterThan(specificity("make"));
    expect(specificity("42")).toBeLessThan(0.5);
  });

  it("recovers the cosine from 1/(1+distance) and takes the pool's median", () => {
    expect(cosineOf(1 / (1 + 0.25))).toBeCloseTo(0.75);
    expect(cosineOf(null)).toBeNull();
    expect(medianCosine([1 / 1.2, 1 / 1.5, null, 1 / 1.9])).toBeCloseTo(0.5);
  });

  it("scores a passage that covers the query's words under its heading far above an unrelated one", () => {
    const q = queryEvidence(["light", "reactions", "photosynthesis"]);
    const scope = { stems: new Set(["light", "reaction", "photosynthesi"]), medianCosine: 0.4 };
    const good = relevanceFeatures(
      q,
      {
        content: "The light reactions of photosynthesis convert light energy into ATP.",
        sectionPath: "Chapter 8 > 8.2 The Light-Dependent Reactions of Photosynthesis",
        vectorScore: 1 / (1 + 0.3),
      },
      scope,
    );
    const bad = relevanceFeatures(
      q,
      {
        content: "Zebras graze on grasslands.",
        sectionPath: "Chapter 44 > 44.3 Terrestrial Biomes",
        vectorScore: 1 / (1 + 0.8),
      },
      { stems: new Set(), medianCosine: 0.2 },
    );
    expect(calibratedRelevance(good, OFFLINE)).toBeGreaterThan(PRESELECT_FROM);
    expect(calibratedRelevance(bad, OFFLINE)).toBeLessThan(REFUSE_BELOW);
    // Other embedders: the lexical evidence alone still separates them.
    expect(calibratedRelevance(good, "text-embedding-3-small")).toBeGreaterThan(
      calibratedRelevance(bad, "x"),
    );
  });

  it("never decreases as any evidence grows, and stays in [0, 1]", () => {
    const unit = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(
        unit,
        unit,
        unit,
        unit,
        unit,
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        (a, b, c, d, e, bump) => {
          const f = { coverage: a, heading: b, cosine: c, cosineLift: d - 0.5, scopeCoverage: e };
          const r = calibratedRelevance(f, OFFLINE);
          expect(r).toBeGreaterThanOrEqual(0);
          expect(r).toBeLessThanOrEqual(1);
          for (const key of ["coverage", "heading", "cosine", "scopeCoverage"] as const) {
            expect(
              calibratedRelevance({ ...f, [key]: Math.min(1, f[key] + bump) }, OFFLINE),
            ).toBeGreaterThanOrEqual(r);
          }
        },
      ),
    );
  });
});

describe("logistic regression (the calibration fit)", () => {
  it("learns a separable rule and lowers the log loss", () => {
    const xs = Array.from({ length: 200 }, (_, i) => [(i % 20) / 20, ((i * 7) % 13) / 13]);
    const ys = xs.map(([a]) => (a! > 0.5 ? 1 : 0));
    const m = fitLogistic(xs, ys, { iterations: 3000 });
    expect(m.weights[0]).toBeGreaterThan(2);
    expect(predictLogistic(m, [0.9, 0.5])).toBeGreaterThan(0.8);
    expect(predictLogistic(m, [0.1, 0.5])).toBeLessThan(0.2);
    expect(logLoss(m, xs, ys)).toBeLessThan(logLoss({ intercept: 0, weights: [0, 0] }, xs, ys));
  });
});

describe("the refusal's scope evidence", () => {
  const word = (w: string, df: number) => ({ word: w, specificity: specificity(w), df, inBest: df > 0 });

  it("absentShare weighs the words the scope never uses by their specificity", () => {
    expect(absentShare([])).toBeNull();
    expect(absentShare([word("mitochondria", 120), word("membrane", 300)])).toBe(0);
    expect(absentShare([word("offside", 0), word("carbonara", 0)])).toBe(1);
    // A specific absent word counts for more than a common present one.
    const mixed = absentShare([word("offside", 0), word("rule", 40)])!;
    expect(mixed).toBeGreaterThan(0.5);
    expect(mixed).toBeLessThan(1);
  });

  it("queryRelevance applies only to the offline embedder with a vector score and scope evidence", () => {
    const f = { coverage: 1, heading: 1, cosine: 0.7, cosineLift: 0.1, scopeCoverage: 1 };
    expect(queryRelevance(0.9, f, 0, "text-embedding-3-small")).toBeNull();
    expect(
      queryRelevance(0.9, { ...f, cosine: null, cosineLift: null }, 0, "paperwise-offline-v1"),
    ).toBeNull();
    expect(queryRelevance(0.9, f, null, "paperwise-offline-v1")).toBeNull();
    expect(queryRelevance(0.9, null, 0, "paperwise-offline-v1")).toBeNull();
  });

  it("queryRelevance falls as words go missing from the scope and rises with the evidence", () => {
    const f = { coverage: 0.5, heading: 0, cosine: 0.3, cosineLift: 0.15, scopeCoverage: 0.5 };
    const present = queryRelevance(0.4, f, 0, "paperwise-offline-v1")!;
    const half = queryRelevance(0.4, f, 0.5, "paperwise-offline-v1")!;
    const gone = queryRelevance(0.4, f, 1, "paperwise-offline-v1")!;
    expect(present).toBeGreaterThan(half);
    expect(half).toBeGreaterThan(gone);
    expect(gone).toBeLessThan(REFUSE_BELOW);
    expect(queryRelevance(0.9, f, 0, "paperwise-offline-v1")!).toBeGreaterThan(present);
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: -0.5, max: 0.5, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (best, cosine, cosineLift, absent) => {
          const q = queryRelevance(best, { ...f, cosine, cosineLift }, absent, "paperwise-offline-v1")!;
          return q >= 0 && q <= 1;
        },
      ),
    );
  });
});
