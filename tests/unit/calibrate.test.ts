import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fitLogistic, logLoss, predictLogistic } from "@/lib/eval/logistic";
import {
  calibratedRelevance,
  cosineOf,
  medianCosine,
  PRESELECT_FROM,
  queryEvidence,
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
