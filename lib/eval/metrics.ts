/** Retrieval metrics exactly as ../shared/eval/README.md defines them. */

export type TGrades = Record<string, number>;

/** Section ranking: chunk ranking with duplicate sections dropped (first occurrence kept). */
export function dedupeSections(chunkSections: readonly (string | null)[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const s of chunkSections) {
    if (!s || seen.has(s)) continue;
    seen.add(s);
    out.push(s);
  }
  return out;
}

/** Hit if any grade-2 section is among the top-k chunks' sections. */
export function recallAt(chunkSections: readonly (string | null)[], grades: TGrades, k: number): number {
  return chunkSections.slice(0, k).some((s) => s !== null && grades[s] === 2) ? 1 : 0;
}

export function mrrAt(sections: readonly string[], grades: TGrades, k: number): number {
  const i = sections.slice(0, k).findIndex((s) => grades[s] === 2);
  return i < 0 ? 0 : 1 / (i + 1);
}

/** nDCG with linear gain = grade and a log2(rank + 1) discount. */
export function ndcgAt(sections: readonly string[], grades: TGrades, k: number): number {
  const dcg = sections.slice(0, k).reduce((sum, s, i) => sum + (grades[s] ?? 0) / Math.log2(i + 2), 0);
  const ideal = Object.values(grades)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, g, i) => sum + g / Math.log2(i + 2), 0);
  return ideal > 0 ? dcg / ideal : 0;
}

export function pearson(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  if (n < 2) return 0;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = xs[i]! - mx;
    const dy = ys[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : 0;
}

function ranks(xs: readonly number[]): number[] {
  const order = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
  const r = new Array<number>(xs.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    for (let k = i; k <= j; k++) r[order[k]![1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return r;
}

export function spearman(xs: readonly number[], ys: readonly number[]): number {
  return pearson(ranks(xs), ranks(ys));
}
