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

/** Solves A x = b (A square, small) by Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    const pivot = m[c]![c]!;
    if (Math.abs(pivot) < 1e-12) throw new Error("singular system in the logistic fit");
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / pivot;
      if (f !== 0) for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

/**
 * Weighted logistic regression by Newton's method (IRLS) on standardised features, with an L2
 * penalty on the standardised weights (not the intercept); the coefficients are returned on the
 * features' own scale. Deterministic. `sampleWeights` balances the classes (the refusal fit).
 */
export function fitLogisticNewton(
  xs: readonly (readonly number[])[],
  ys: readonly number[],
  opts: { sampleWeights?: readonly number[]; l2?: number; iterations?: number } = {},
): ILogisticModel {
  const n = xs.length;
  const d = xs[0]?.length ?? 0;
  const l2 = opts.l2 ?? 1e-3;
  const sw = opts.sampleWeights ?? new Array<number>(n).fill(1);
  const totalWeight = sw.reduce((a, b) => a + b, 0) || 1;
  const mean = new Array<number>(d).fill(0);
  const sd = new Array<number>(d).fill(0);
  for (let i = 0; i < d; i++) {
    for (let k = 0; k < n; k++) mean[i]! += xs[k]![i]! / n;
    for (let k = 0; k < n; k++) sd[i]! += (xs[k]![i]! - mean[i]!) ** 2 / n;
    sd[i] = Math.sqrt(sd[i]!) || 1;
  }
  const z = xs.map((x) => [1, ...x.map((v, i) => (v - mean[i]!) / sd[i]!)]);
  let beta = new Array<number>(d + 1).fill(0);
  for (let it = 0; it < (opts.iterations ?? 50); it++) {
    const h = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    const g = new Array<number>(d + 1).fill(0);
    for (let k = 0; k < n; k++) {
      const row = z[k]!;
      let eta = 0;
      for (let i = 0; i <= d; i++) eta += beta[i]! * row[i]!;
      const p = sigmoid(eta);
      const w = sw[k]! / totalWeight;
      for (let i = 0; i <= d; i++) {
        g[i]! += w * (p - ys[k]!) * row[i]!;
        for (let j = 0; j <= d; j++) h[i]![j]! += w * p * (1 - p) * row[i]! * row[j]!;
      }
    }
    for (let i = 1; i <= d; i++) {
      g[i]! += l2 * beta[i]!;
      h[i]![i]! += l2;
    }
    const step = solve(h, g);
    beta = beta.map((b, i) => b - step[i]!);
    if (Math.max(...step.map(Math.abs)) < 1e-10) break;
  }
  const weights = beta.slice(1).map((b, i) => b / sd[i]!);
  const intercept = beta[0]! - weights.reduce((s, w, i) => s + w * mean[i]!, 0);
  return { intercept, weights };
}
