import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fitLogistic, logLoss, predictLogistic } from "@/lib/eval/logistic";
import {
  absentShare,
  calibratedRelevance,
  cosineOf,
  generalKeyness,
  type IQueryJudgement,
  type IRefusalModel,
  type IScopeWord,
  keyness,
  MODEL_USES_MEANING,
  medianCosine,
  PRESELECT_FROM,
  queryEvidence,
  queryRelevance,
  REFUSAL_FEATURES,
  REFUSE_BELOW,
  refusalFeatures,
  refusalScore,
  relevanceFeatures,
  specialism,
  specificity,
} from "@/lib/retrieval/calibrate";
import refusalModel from "@/lib/retrieval/refusal-model.json";
import { generalCount, zipf } from "@/lib/text/word-frequency";

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

describe("general-language word frequency (SUBTLEX-US)", () => {
  it("counts a word's stem in everyday English and puts it on the Zipf scale", () => {
    expect(generalCount("the")).toBeGreaterThan(1_000_000);
    // Inflections share their stem's count.
    expect(generalCount("reactions")).toBe(generalCount("reaction"));
    expect(generalCount("Cell")).toBe(generalCount("cell"));
    expect(generalCount("blorfsnazzle")).toBe(0);
    expect(zipf("the")).toBeGreaterThan(7);
    expect(zipf("cost")).toBeGreaterThan(zipf("titration"));
    expect(zipf("titration")).toBeGreaterThan(zipf("blorfsnazzle"));
    expect(zipf("blorfsnazzle")).toBeCloseTo(Math.log10(1e9 / 51_000_000), 10);
  });
});

describe("the refusal's scope evidence", () => {
  const word = (w: string, df: number, bgDf = 0, hits: number[] = df > 0 ? [0] : []): IScopeWord => ({
    word: w,
    specificity: specificity(w),
    df,
    bgDf,
    inBest: hits.includes(0),
    hits,
  });
  const best = { coverage: 0.5, heading: 0, cosine: 0.3, cosineLift: 0.15, scopeCoverage: 0.5 };
  const judgement = (words: IScopeWord[], over: Partial<IQueryJudgement> = {}): IQueryJudgement => ({
    passages: 5000,
    bgPassages: 2000,
    words,
    bestRelevance: 0.4,
    best,
    ...over,
  });
  const model: IRefusalModel = {
    embeddingModel: OFFLINE,
    features: ["logitBest", "cosine", "cosineLift", "absent"],
    intercept: -3.947,
    weights: [0.767, 27.912, -16.878, -7.855],
    cut: -2.4,
  };

  it("absentShare weighs the words the scope never uses by their specificity", () => {
    expect(absentShare([])).toBeNull();
    expect(absentShare([word("mitochondria", 120), word("membrane", 300)])).toBe(0);
    expect(absentShare([word("offside", 0), word("carbonara", 0)])).toBe(1);
    // A specific absent word counts for more than a common present one.
    const mixed = absentShare([word("offside", 0), word("rule", 40)])!;
    expect(mixed).toBeGreaterThan(0.5);
    expect(mixed).toBeLessThan(1);
  });

  it("keyness is positive for another subject's word, negative for this one's, 0 without a background", () => {
    // "potential" in 40 of 5,000 Biology passages and 400 of 2,000 Physics ones.
    expect(keyness({ df: 40, bgDf: 400 }, 5000, 2000)).toBeGreaterThan(2);
    expect(keyness({ df: 900, bgDf: 3 }, 5000, 2000)).toBeLessThan(-2);
    expect(keyness({ df: 40, bgDf: 400 }, 5000, 0)).toBe(0);
    expect(keyness({ df: 0, bgDf: 0 }, 5000, 2000)).toBe(0);
    expect(keyness({ df: 0, bgDf: 100_000 }, 5000, 100_000)).toBe(4);
  });

  it("foreign and keyness follow the background; coOccur needs the words in one passage", () => {
    const physicsWords = judgement([word("potential", 40, 400, [0]), word("kinetic", 20, 300, [1])]);
    const biologyWords = judgement([word("ribosome", 300, 0, [0]), word("translation", 200, 5, [0])]);
    const fp = refusalFeatures(physicsWords)!;
    const fb = refusalFeatures(biologyWords)!;
    expect(fp.foreign).toBeGreaterThan(0.5);
    expect(fb.foreign).toBe(0);
    expect(fp.keyness).toBeGreaterThan(0);
    expect(fb.keyness).toBeLessThan(0);
    // Both words in passage 0 together, against one word per passage.
    expect(fb.coOccur).toBeCloseTo(1);
    expect(fp.coOccur).toBeLessThan(0.7);
    expect(fp.topCoverage).toBeCloseTo(1);
    const spread = refusalFeatures(judgement([word("offside", 0), word("rule", 40, 10, [3])]))!;
    expect(spread.topCoverage).toBeLessThan(0.5);
    expect(spread.absent).toBeGreaterThan(0.5);
    // "chocolate" in 2 passages of the scope: rare, and no anchor; "ribosome" in 300: an anchor.
    const chocolate = refusalFeatures(judgement([word("chocolate", 2), word("temper", 1)]))!;
    expect(chocolate.rarity).toBeGreaterThan(fb.rarity);
    expect(chocolate.anchor).toBeLessThan(fb.anchor / 2);
    expect(chocolate.absent).toBe(0);
    // No background: foreign and keyness say nothing.
    const alone = refusalFeatures(judgement(physicsWords.words, { bgPassages: 0 }))!;
    expect(alone.foreign).toBe(0);
    expect(alone.keyness).toBe(0);
  });

  it("domainOff, senseOff and meaningOff count the words whose WordNet labels the scope rarely uses", () => {
    const lifted = (w: IScopeWord, domain: number | null, supersense: number | null): IScopeWord => ({
      ...w,
      meaning: { domain, supersense },
    });
    // "offside" (sport, a domain Biology never uses) and "rule"; against "ribosome", "translation".
    const sport = refusalFeatures(
      judgement([lifted(word("offside", 0), -3, -0.5), lifted(word("rule", 40), null, 0.2)]),
    )!;
    const own = refusalFeatures(
      judgement([lifted(word("ribosome", 300), 2.5, 1.5), lifted(word("translation", 200), 1, 0.4)]),
    )!;
    expect(sport.domainOff).toBeGreaterThan(0.3);
    expect(sport.senseOff).toBeGreaterThan(0);
    expect(sport.meaningOff).toBeGreaterThan(0.5);
    expect(sport.meaningOff).toBeLessThan(1);
    expect(own.domainOff).toBe(0);
    expect(own.senseOff).toBe(0);
    expect(own.meaningOff).toBe(0);
    // The server builds the profile only if the shipped model reads one of the three.
    expect(MODEL_USES_MEANING).toBe(
      (refusalModel.features as string[]).some((f) => ["domainOff", "senseOff", "meaningOff"].includes(f)),
    );
    // Without a meaning profile the three are 0, the in-scope value.
    const unknown = refusalFeatures(judgement([word("offside", 0), word("rule", 40)]))!;
    expect([unknown.domainOff, unknown.senseOff, unknown.meaningOff]).toEqual([0, 0, 0]);
  });

  it("generalKeyness sets the scope's rate against everyday English; specialism marks words rare in speech", () => {
    // "mitochondria": hundreds of scope passages, almost never said aloud; "cost": said often.
    expect(generalKeyness({ df: 300 }, 3000, zipf("mitochondria"))).toBeGreaterThan(4);
    expect(generalKeyness({ df: 20 }, 3000, zipf("cost"))).toBeLessThan(1);
    // More passages in the scope → more scope-typical; a commoner word → less.
    expect(generalKeyness({ df: 50 }, 3000, 3)).toBeGreaterThan(generalKeyness({ df: 5 }, 3000, 3));
    expect(generalKeyness({ df: 50 }, 3000, 5)).toBeLessThan(generalKeyness({ df: 50 }, 3000, 3));
    expect(generalKeyness({ df: 5 }, 0, 3)).toBe(0);
    expect(specialism(zipf("titration"))).toBeGreaterThan(0.5);
    expect(specialism(zipf("opportunity"))).toBe(0);
    expect(specialism(1)).toBe(1);
  });

  it("general-language features: the scope's own specialist words against ordinary and foreign ones", () => {
    const at = (words: IScopeWord[]) => refusalFeatures(judgement(words, { passages: 3000 }))!;
    // In scope: a specialist word the scope uses in many passages.
    const own = at([word("mitochondria", 300, 0, [0]), word("membrane", 400, 0, [0])]);
    // Ordinary words only, which the scope uses no more than everyday speech does.
    const ordinary = at([word("opportunity", 6, 0, [2]), word("cost", 20, 0, [0])]);
    // A specialist word the scope barely has (one stray passage), beside an ordinary word.
    const foreign = at([word("titration", 1, 0, [4]), word("curve", 40, 0, [0])]);
    expect(own.generalLift).toBeGreaterThan(ordinary.generalLift + 0.3);
    expect(own.generalLift).toBeGreaterThan(foreign.generalLift);
    expect(own.generalMean).toBeGreaterThan(ordinary.generalMean);
    expect(own.specialistMissing).toBeLessThan(0.1);
    expect(foreign.specialistMissing).toBeGreaterThan(own.specialistMissing + 0.3);
    expect(ordinary.specialistMass).toBeLessThan(own.specialistMass);
    expect(ordinary.specialistBest).toBe(1);
    expect(own.specialistBest).toBe(1);
    expect(foreign.specialistBest).toBeLessThan(0.5);
    // A given Zipf value wins over the lookup (the features are deterministic for a fixed list).
    const given = at([{ ...word("zzzz", 300, 0, [0]), zipf: zipf("mitochondria") }]);
    expect(given.generalLift).toBeCloseTo(at([word("mitochondria", 300, 0, [0])]).generalLift, 10);
  });

  it("every feature stays in its range for any counts", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            df: fc.nat(10_000),
            bgDf: fc.nat(10_000),
            hits: fc.uniqueArray(fc.nat(7), { maxLength: 8 }),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        fc.nat(20_000),
        (ws, bg) => {
          const f = refusalFeatures(
            judgement(
              ws.map((w, i) => word(`word${i}`, w.df, w.bgDf, w.hits)),
              { passages: 10_000, bgPassages: bg },
            ),
          )!;
          return (
            f.absent >= 0 &&
            f.absent <= 1 &&
            f.foreign >= 0 &&
            f.foreign <= 1 &&
            Math.abs(f.keyness) <= 1 &&
            f.coOccur >= 0 &&
            f.coOccur <= 1 + 1e-12 &&
            f.topCoverage >= 0 &&
            f.topCoverage <= 1 + 1e-12 &&
            f.rarity >= 0 &&
            f.rarity <= 1 &&
            f.anchor >= 0 &&
            f.anchor <= 1 + 1e-12 &&
            f.generalLift >= -0.25 &&
            f.generalLift <= 1 &&
            f.generalMean >= -0.5 &&
            f.generalMean <= 1 &&
            f.specialistMissing >= 0 &&
            f.specialistMissing <= 1 + 1e-12 &&
            f.specialistBest >= 0 &&
            f.specialistBest <= 1 + 1e-12 &&
            f.specialistMass >= 0 &&
            f.specialistMass <= 1
          );
        },
      ),
    );
  });

  it("queryRelevance applies only to the model's embedder with a vector score and scope evidence", () => {
    const j = judgement([word("mitochondria", 120)]);
    expect(queryRelevance(j, "text-embedding-3-small")).toBeNull();
    expect(queryRelevance({ ...j, best: { ...best, cosine: null, cosineLift: null } }, OFFLINE)).toBeNull();
    expect(queryRelevance({ ...j, words: [] }, OFFLINE)).toBeNull();
    expect(queryRelevance({ ...j, best: null }, OFFLINE)).toBeNull();
    expect(queryRelevance(j, OFFLINE)).not.toBeNull();
  });

  it("queryRelevance puts the model's cut on REFUSE_BELOW and falls as words go missing", () => {
    const at = (words: IScopeWord[], bestRelevance = 0.4) =>
      queryRelevance(judgement(words, { bestRelevance }), OFFLINE, model)!;
    const present = at([word("offside", 40), word("carbonara", 40)]);
    const half = at([word("offside", 0), word("carbonara", 40)]);
    const gone = at([word("offside", 0), word("carbonara", 0)]);
    expect(present).toBeGreaterThan(half);
    expect(half).toBeGreaterThan(gone);
    expect(gone).toBeLessThan(REFUSE_BELOW);
    expect(at([word("offside", 40), word("carbonara", 40)], 0.9)).toBeGreaterThan(present);
    // A score exactly at the cut maps to REFUSE_BELOW.
    const f = refusalFeatures(judgement([word("offside", 40)]))!;
    const atCut = { ...model, intercept: model.intercept - refusalScore(model, f) + model.cut };
    expect(queryRelevance(judgement([word("offside", 40)]), OFFLINE, atCut)).toBeCloseTo(REFUSE_BELOW, 10);
  });

  it("the shipped model names known features, one weight each, and a finite cut", () => {
    const shipped = refusalModel as IRefusalModel;
    expect(shipped.features.every((f) => (REFUSAL_FEATURES as readonly string[]).includes(f))).toBe(true);
    expect(shipped.weights).toHaveLength(shipped.features.length);
    expect(Number.isFinite(shipped.cut)).toBe(true);
    expect(shipped.embeddingModel).toBe(OFFLINE);
  });
});
