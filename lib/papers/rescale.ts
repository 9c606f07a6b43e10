import type { IPaperBlueprint } from "@/types/paper.types";

type TMarkTargets = Record<string, number>;

/**
 * Scales targets in marks by `to / from` with the largest-remainder method: each rounds to a whole
 * mark and the group still adds up to its scaled total (20 → 13 marks turns 10 / 6 / 4,
 * exactly 6.5 / 3.9 / 2.6, into 6 / 4 / 3).
 */
export function scaleTargets(targets: TMarkTargets, from: number, to: number): TMarkTargets {
  const entries = Object.entries(targets);
  const sum = entries.reduce((n, [, v]) => n + v, 0);
  const goal = Math.round((sum * to) / from);
  const exact = entries.map(([k, v]) => ({ k, raw: (v * to) / from }));
  const floored = exact.map((e) => ({ ...e, whole: Math.floor(e.raw) }));
  let left = goal - floored.reduce((n, e) => n + e.whole, 0);
  const byRemainder = [...floored].sort((a, b) => b.raw - b.whole - (a.raw - a.whole));
  for (const e of byRemainder) {
    if (left <= 0) break;
    e.whole++;
    left--;
  }
  return Object.fromEntries(floored.map((e) => [e.k, e.whole]));
}

/**
 * The blueprint for a paper whose maximum marks changed: targets in marks (chapters, Bloom levels
 * or bands, question types) and the tolerance scale with the total; the difficulty mix is in
 * percent and stays. Without this a target of 8 marks on a paper cut from 20 to 13 marks would
 * still read 8, and a 6 would be marked on target within the old tolerance.
 */
export function rescaleBlueprint(bp: IPaperBlueprint, from: number, to: number): IPaperBlueprint {
  if (from <= 0 || to <= 0 || from === to) return bp;
  const scale = <T extends Partial<Record<string, number>>>(t: T | undefined): T | undefined =>
    t === undefined ? undefined : (scaleTargets(t as TMarkTargets, from, to) as T);
  return {
    ...bp,
    ...(bp.chapters ? { chapters: scale(bp.chapters) } : {}),
    ...(bp.bloom ? { bloom: scale(bp.bloom) } : {}),
    ...(bp.bloomBands ? { bloomBands: scale(bp.bloomBands) } : {}),
    ...(bp.types ? { types: scale(bp.types) } : {}),
    tolerance: Math.max(1, Math.round((bp.tolerance * to) / from)),
  };
}
