/**
 * Logistic regression by batch gradient descent with a small L2 penalty: enough for a handful of
 * features and a few thousand examples (the calibration of retrieval relevance).
 */
export interface ILogisticModel {
  intercept: number;
  weights: number[];
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

export function predictLogistic(m: ILogisticModel, x: readonly number[]): number {
  let z = m.intercept;
  for (let i = 0; i < m.weights.length; i++) z += m.weights[i]! * (x[i] ?? 0);
  return sigmoid(z);
}

export function fitLogistic(
  xs: readonly (readonly number[])[],
  ys: readonly number[],
  opts: { iterations?: number; rate?: number; l2?: number } = {},
): ILogisticModel {
  const d = xs[0]?.length ?? 0;
  const n = xs.length;
  const iterations = opts.iterations ?? 4000;
  const rate = opts.rate ?? 0.5;
  const l2 = opts.l2 ?? 1e-3;
  const m: ILogisticModel = { intercept: 0, weights: new Array<number>(d).fill(0) };
  for (let it = 0; it < iterations; it++) {
    let g0 = 0;
    const g = new Array<number>(d).fill(0);
    for (let k = 0; k < n; k++) {
      const err = predictLogistic(m, xs[k]!) - ys[k]!;
      g0 += err;
      for (let i = 0; i < d; i++) g[i]! += err * xs[k]![i]!;
    }
    m.intercept -= (rate * g0) / n;
    for (let i = 0; i < d; i++) m.weights[i]! -= rate * (g[i]! / n + l2 * m.weights[i]!);
  }
  return m;
}

/** Mean log loss (lower is better). */
export function logLoss(
  m: ILogisticModel,
  xs: readonly (readonly number[])[],
  ys: readonly number[],
): number {
  let sum = 0;
  for (let k = 0; k < xs.length; k++) {
    const p = Math.min(1 - 1e-9, Math.max(1e-9, predictLogistic(m, xs[k]!)));
    sum += ys[k]! ? -Math.log(p) : -Math.log(1 - p);
  }
  return xs.length ? sum / xs.length : 0;
}
