import type { ILogisticModel } from "@/lib/eval/logistic";
import { type IRefusalModel, refusalScore, type TRefusalFeature } from "@/lib/retrieval/calibrate";

export interface IRefusalExample {
  features: Record<TRefusalFeature, number>;
  inScope: boolean;
  half: "even" | "odd";
  set: string;
  query: string;
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * Fits the refusal model: a class-balanced logistic regression (label: in scope) on the even
 * in-scope lines and every out-of-scope example, rounded to 4 decimals, with the cut at the highest
 * score (3 decimals) that refuses at most `maxRefused` of the even in-scope lines. Deterministic.
 */
export function fitRefusalModel(
  examples: readonly IRefusalExample[],
  features: readonly TRefusalFeature[],
  opts: {
    maxRefused: number;
    l2: number;
    embeddingModel?: string;
    fit: (xs: number[][], ys: number[], o: { sampleWeights: number[]; l2: number }) => ILogisticModel;
  },
): IRefusalModel {
  const train = examples.filter((e) => !e.inScope || e.half === "even");
  const nIn = train.filter((e) => e.inScope).length;
  const nOut = train.length - nIn;
  if (!nIn || !nOut) throw new Error("the refusal fit needs in-scope and out-of-scope examples");
  const fitted = opts.fit(
    train.map((e) => features.map((f) => e.features[f])),
    train.map((e) => (e.inScope ? 1 : 0)),
    { sampleWeights: train.map((e) => (e.inScope ? 1 / nIn : 1 / nOut)), l2: opts.l2 },
  );
  const model: IRefusalModel = {
    embeddingModel: opts.embeddingModel ?? "paperwise-offline-v1",
    features: [...features],
    intercept: round(fitted.intercept, 4),
    weights: fitted.weights.map((w) => round(w, 4)),
    cut: 0,
  };
  model.cut = cutFor(
    train.filter((e) => e.inScope).map((e) => refusalScore(model, e.features)),
    opts.maxRefused,
  );
  return model;
}

/**
 * The highest cut (3 decimals) with at most `maxRefused` of these in-scope scores below it: the
 * (k+1)-th lowest score, rounded down, where k = floor(maxRefused × n).
 */
export function cutFor(inScopeScores: readonly number[], maxRefused: number): number {
  const sorted = [...inScopeScores].sort((a, b) => a - b);
  const k = Math.floor(maxRefused * sorted.length);
  const at = sorted[Math.min(k, sorted.length - 1)] ?? 0;
  return Math.floor(at * 1000) / 1000;
}

/**
 * Splits judged lines into the fit's rows (in-scope lines and the out-of-scope lines of the named
 * calibration files) and the hand-written in-scope controls of the named control files, which are
 * reported apart and never fitted on or cut by. Files are matched by base name.
 */
export function splitJudged<T extends { inScope: boolean; control?: boolean; file?: string }>(
  judged: readonly T[],
  calibrationFiles: readonly string[],
  controlFiles: readonly string[],
): { rows: T[]; controls: T[] } {
  const base = (f: string) => f.split("/").pop() ?? f;
  const calibration = new Set(calibrationFiles.map(base));
  const control = new Set(controlFiles.map(base));
  return {
    rows: judged.filter(
      (q) => !q.control && (q.inScope || (q.file !== undefined && calibration.has(q.file))),
    ),
    controls: judged.filter((q) => q.control === true && q.file !== undefined && control.has(q.file)),
  };
}
