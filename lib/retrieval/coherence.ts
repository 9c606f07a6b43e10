/**
 * Document-level score smoothing (the cluster hypothesis: passages from a document — here a
 * chapter — that has several strong matches are likelier relevant than a lone strong match in an
 * unrelated chapter). Each item's min–max normalised score is blended with its group's strength:
 *
 *   final = (1 − weight) · norm(score) + weight · groupStrength / max(groupStrength)
 *   groupStrength = mean of the group's best `depth` normalised scores (missing ones count 0)
 *
 * so a group needs several good passages to lift its members. The best `protect` items keep
 * their places, so smoothing reorders the tail without burying a lone, clearly best match.
 */
export interface ICoherenceOptions<T> {
  group: (item: T) => string;
  score: (item: T) => number;
  /** 0 = no smoothing. */
  weight: number;
  depth?: number;
  /** The first `protect` items keep their places (a lone, clearly best match stays on top). */
  protect?: number;
}

export function smoothByGroup<T>(
  items: readonly T[],
  opts: ICoherenceOptions<T>,
): { item: T; score: number }[] {
  if (items.length === 0 || opts.weight <= 0) return items.map((item) => ({ item, score: opts.score(item) }));
  const depth = Math.max(1, opts.depth ?? 3);
  const raw = items.map((i) => {
    const s = opts.score(i);
    return Number.isFinite(s) ? s : 0;
  });
  const max = Math.max(...raw);
  const min = Math.min(...raw);
  const norm = raw.map((s) => (max > min ? (s - min) / (max - min) : 1));
  const byGroup = new Map<string, number[]>();
  items.forEach((item, i) => {
    const g = opts.group(item);
    const list = byGroup.get(g) ?? [];
    list.push(norm[i]!);
    byGroup.set(g, list);
  });
  const strength = new Map<string, number>();
  for (const [g, scores] of byGroup) {
    const top = scores.sort((a, b) => b - a).slice(0, depth);
    strength.set(g, top.reduce((a, b) => a + b, 0) / depth);
  }
  const maxStrength = Math.max(...strength.values()) || 1;
  const w = Math.min(1, opts.weight);
  const scored = items.map((item, i) => ({
    item,
    score: (1 - w) * norm[i]! + (w * strength.get(opts.group(item))!) / maxStrength,
    order: i,
  }));
  const protect = Math.max(0, Math.min(items.length, opts.protect ?? 0));
  const rest = scored.slice(protect).sort((a, b) => b.score - a.score || a.order - b.order);
  return [...scored.slice(0, protect), ...rest].map(({ item, score }) => ({ item, score }));
}
