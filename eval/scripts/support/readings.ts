/** A blind reader's grading of one generated question (`../shared/eval/QUESTION-RUBRIC.md`). */
export const VERDICTS = ["use", "edit", "reject"] as const;
export type TVerdict = (typeof VERDICTS)[number];

export interface IReading {
  index: number;
  verdict: TVerdict;
  /** The Bloom level of what earns the marks, as the reader sees it. */
  demand: string;
  flags?: string[];
  reason?: string;
}

/**
 * Cohen's κ for two raters' labels on the same items: observed agreement corrected for the
 * agreement their label frequencies give by chance. 1 when both raters use one and the same label
 * throughout (nothing to disagree on).
 */
export function cohensKappa<T>(pairs: readonly (readonly [T, T])[]): number {
  if (pairs.length === 0) return Number.NaN;
  const n = pairs.length;
  const observed = pairs.filter(([a, b]) => a === b).length / n;
  const left = new Map<T, number>();
  const right = new Map<T, number>();
  for (const [a, b] of pairs) {
    left.set(a, (left.get(a) ?? 0) + 1);
    right.set(b, (right.get(b) ?? 0) + 1);
  }
  let chance = 0;
  for (const [label, c] of left) chance += (c / n) * ((right.get(label) ?? 0) / n);
  return chance === 1 ? 1 : (observed - chance) / (1 - chance);
}
