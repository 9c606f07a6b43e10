import type { TBlueprint } from "@/schema/generation.schema";
import { BLOOM_LEVELS, type EBloomLevel } from "@/types/bloom.types";
import type { EDifficulty, EQuestionType, ISlot } from "@/types/generation.types";

export const DEFAULT_MARKS: Record<EQuestionType, number> = { mcq: 1, short: 3, long: 5 };

/** Levels each question type suits when the blueprint names none. */
const DEFAULT_LEVELS: Record<EQuestionType, EBloomLevel[]> = {
  mcq: ["Remember", "Understand", "Apply", "Analyze"],
  short: ["Understand", "Remember", "Evaluate", "Apply"],
  long: ["Evaluate", "Remember", "Create", "Understand"],
};

/** Largest-remainder (Hamilton) apportionment of `total` seats by `weights`; ties go to the earlier key. */
export function largestRemainder<K extends string>(
  weights: Partial<Record<K, number>>,
  total: number,
  order: readonly K[],
): Record<K, number> {
  const keys = order.filter((k) => (weights[k] ?? 0) > 0);
  const out = Object.fromEntries(order.map((k) => [k, 0])) as Record<K, number>;
  const sum = keys.reduce((a, k) => a + (weights[k] ?? 0), 0);
  if (sum <= 0 || total <= 0) return out;
  const quotas = keys.map((k) => ({ k, q: ((weights[k] ?? 0) / sum) * total }));
  let given = 0;
  for (const { k, q } of quotas) {
    out[k] = Math.floor(q);
    given += out[k];
  }
  const byRemainder = [...quotas].sort(
    (a, b) => b.q - Math.floor(b.q) - (a.q - Math.floor(a.q)) || order.indexOf(a.k) - order.indexOf(b.k),
  );
  for (let i = 0; given < total; i++, given++) out[byRemainder[i % byRemainder.length]!.k] += 1;
  return out;
}

/**
 * How well a question type carries a Bloom level: an MCQ tests recall, prediction and
 * assertion–reason well; a written answer is where explaining, judging and designing show.
 */
const SUITS: Record<EQuestionType, Record<EBloomLevel, number>> = {
  mcq: { Remember: 3, Understand: 1, Apply: 2, Analyze: 2, Evaluate: 1, Create: 0 },
  short: { Remember: 1, Understand: 3, Apply: 2, Analyze: 3, Evaluate: 3, Create: 2 },
  long: { Remember: 0, Understand: 2, Apply: 1, Analyze: 2, Evaluate: 3, Create: 3 },
};

/**
 * Gives each free question one level from the pool so that every question lands on a type that
 * suits its level and for which the passages hold material (`feasible` > 0). Exhaustive over the
 * distinct arrangements for small sets (a set of 10 has at most a few thousand), greedy beyond.
 */
export function arrangeLevels(
  types: readonly EQuestionType[],
  pool: readonly EBloomLevel[],
  feasible?: (type: EQuestionType, level: EBloomLevel) => number,
): EBloomLevel[] {
  const value = (t: EQuestionType, l: EBloomLevel) =>
    SUITS[t][l] + (feasible ? (feasible(t, l) > 0 ? 10 : 0) : 0);
  const sorted = [...pool].sort((a, b) => BLOOM_LEVELS.indexOf(a) - BLOOM_LEVELS.indexOf(b));
  if (types.length > 9) {
    const left = [...sorted];
    return types.map((t) => {
      let best = 0;
      for (let i = 1; i < left.length; i++) if (value(t, left[i]!) > value(t, left[best]!)) best = i;
      return left.splice(best, 1)[0]!;
    });
  }
  let bestScore = -1;
  let best: EBloomLevel[] = sorted;
  const current: EBloomLevel[] = [];
  const counts = new Map<EBloomLevel, number>();
  for (const l of sorted) counts.set(l, (counts.get(l) ?? 0) + 1);
  const walk = (i: number, score: number) => {
    if (i === types.length) {
      if (score > bestScore) {
        bestScore = score;
        best = [...current];
      }
      return;
    }
    for (const [l, n] of counts) {
      if (n === 0) continue;
      counts.set(l, n - 1);
      current.push(l);
      walk(i + 1, score + value(types[i]!, l));
      current.pop();
      counts.set(l, n);
    }
  };
  walk(0, 0);
  return best;
}

/** What the offline dry run (`slot/dry-run.ts`) found the passages can carry. */
export interface ISupported {
  /** Distinct candidates that pass the gate for a (type, level). */
  cell(type: EQuestionType, level: EBloomLevel): number;
  /** Distinct facts over all types at a level (types often share one): caps the level's fills. */
  level?(level: EBloomLevel): number;
}

/** Sets larger than this are arranged greedily (the exhaustive search grows with the set). */
const EXHAUSTIVE_MAX = 12;

/**
 * Places levels on question types by what the passages can really carry (`supported`: candidates
 * that pass the gate per type and level, and distinct facts per level). Each level `l` is given
 * between `lo[l]` and `hi[l]` slots, `types.length` in all; among those arrangements the best is the one that (1) fills most
 * slots at their own level (a cell fills at most as many slots as it has passing candidates),
 * (2) delivers the most distinct levels, (3) suits the types best (`SUITS`), (4) has the most
 * candidates behind its slots. With `lo = hi` the counts are fixed (a distribution); with
 * `hi = lo + 1` the slots beyond an even share go to the requested levels the passages support.
 * Deterministic: ties keep the first arrangement found, lower levels first.
 */
export function arrangeSupported(
  types: readonly EQuestionType[],
  lo: Partial<Record<EBloomLevel, number>>,
  hi: Partial<Record<EBloomLevel, number>>,
  supported: ISupported,
): EBloomLevel[] {
  const levels = BLOOM_LEVELS.filter((l) => (hi[l] ?? 0) > 0);
  const n = types.length;
  const min = (l: EBloomLevel) => lo[l] ?? 0;
  const max = (l: EBloomLevel) => hi[l] ?? 0;
  // Slots grouped by type, in the order the types first appear; a group takes levels in order.
  const order = [...new Set(types)].flatMap((t) => types.flatMap((u, i) => (u === t ? [i] : [])));
  const used = new Map(levels.map((l) => [l, 0]));
  // Slots per (type, level) cell, and what the dry run found there, indexed type × 6 + level.
  const TYPES: readonly EQuestionType[] = ["mcq", "short", "long"];
  const cellOf = (t: EQuestionType, l: EBloomLevel) => TYPES.indexOf(t) * 6 + BLOOM_LEVELS.indexOf(l);
  const cell = new Array<number>(18).fill(0);
  const can = TYPES.flatMap((t) => BLOOM_LEVELS.map((l) => supported.cell(t, l)));
  const suit = TYPES.flatMap((t) => BLOOM_LEVELS.map((l) => SUITS[t][l]));
  const facts = BLOOM_LEVELS.map((l) => (supported.level ? supported.level(l) : Number.POSITIVE_INFINITY));
  const score = (): number => {
    let suits = 0;
    let backing = 0;
    let filled = 0;
    let delivered = 0;
    for (let li = 0; li < 6; li++) {
      let fills = 0;
      for (let ti = 0; ti < 3; ti++) {
        const i = ti * 6 + li;
        const k = cell[i]!;
        if (k === 0) continue;
        fills += Math.min(k, can[i]!);
        suits += suit[i]! * k;
        backing += Math.min(can[i]!, 3) * k;
      }
      const capped = Math.min(fills, facts[li]!);
      filled += capped;
      if (capped > 0) delivered++;
    }
    return filled * 1e6 + delivered * 1e4 + suits * 50 + backing;
  };
  const out: EBloomLevel[] = Array(n);
  let best: EBloomLevel[] | null = null;
  let bestScore = -1;
  const place = (pos: number, l: EBloomLevel, by: number) => {
    const i = cellOf(types[order[pos]!]!, l);
    cell[i] = cell[i]! + by;
    used.set(l, used.get(l)! + by);
  };
  const owed = (from: number) =>
    levels.reduce((a, l) => a + Math.max(0, min(l) - used.get(l)!), 0) <= n - from;
  if (n <= EXHAUSTIVE_MAX) {
    const walk = (pos: number, floor: number) => {
      if (pos === n) {
        if (!levels.every((l) => used.get(l)! >= min(l))) return;
        const s = score();
        if (s > bestScore) {
          bestScore = s;
          best = [...out];
        }
        return;
      }
      const sameGroup = pos > 0 && types[order[pos - 1]!] === types[order[pos]!];
      for (let li = sameGroup ? floor : 0; li < levels.length; li++) {
        const l = levels[li]!;
        if (used.get(l)! >= max(l)) continue;
        place(pos, l, 1);
        out[order[pos]!] = l;
        if (owed(pos + 1)) walk(pos + 1, li);
        place(pos, l, -1);
      }
    };
    walk(0, 0);
    if (best) return best;
  }
  // Greedy: each slot in turn takes the level that adds most, keeping room for the levels still owed.
  for (let pos = 0; pos < n; pos++) {
    let pick: EBloomLevel | null = null;
    let pickScore = -1;
    for (const l of levels) {
      if (used.get(l)! >= max(l)) continue;
      place(pos, l, 1);
      const s = owed(pos + 1) ? score() : -1;
      place(pos, l, -1);
      if (s > pickScore) {
        pickScore = s;
        pick = l;
      }
    }
    const l = pick ?? levels[0]!;
    place(pos, l, 1);
    out[order[pos]!] = l;
  }
  return out;
}

export function difficultyFor(level: EBloomLevel, requested: TBlueprint["difficulty"]): EDifficulty {
  if (requested !== "mixed") return requested;
  const i = BLOOM_LEVELS.indexOf(level);
  return i <= 1 ? "easy" : i <= 3 ? "medium" : "hard";
}

/**
 * The (type, level) cells planning can place a free slot in: the free items' types, at the asked
 * levels (targets or a distribution), else at the type's usual levels. The dry run searches only
 * these; a blueprint whose every item names its level needs none.
 */
export function plannedCells(blueprint: TBlueprint): (type: EQuestionType, level: EBloomLevel) => boolean {
  const types = new Set(blueprint.items.filter((i) => !i.bloomLevel && i.count > 0).map((i) => i.type));
  const asked = blueprint.bloomDistribution
    ? BLOOM_LEVELS.filter((l) => (blueprint.bloomDistribution?.[l] ?? 0) > 0)
    : (blueprint.bloomTargets ?? []);
  return (t, l) => types.has(t) && (asked.length > 0 ? asked.includes(l) : DEFAULT_LEVELS[t].includes(l));
}

/**
 * How many slots each level may take in an offline set: a distribution's exact counts, or an even
 * share of the targets with the remainder free to go to any of them (never outside them).
 */
function supportedBounds(
  blueprint: TBlueprint,
  free: number,
): { lo: Partial<Record<EBloomLevel, number>>; hi: Partial<Record<EBloomLevel, number>> } | null {
  if (blueprint.bloomDistribution) {
    const counts = largestRemainder(blueprint.bloomDistribution, free, BLOOM_LEVELS);
    return { lo: counts, hi: counts };
  }
  const targets = BLOOM_LEVELS.filter((l) => blueprint.bloomTargets?.includes(l));
  if (targets.length === 0) return null;
  const base = Math.floor(free / targets.length);
  const extra = free % targets.length;
  return {
    lo: Object.fromEntries(targets.map((l) => [l, base])),
    hi: Object.fromEntries(targets.map((l) => [l, base + (extra > 0 ? 1 : 0)])),
  };
}

/** The levels of `free` slots: a distribution's exact counts, else round-robin over the targets, lowest first. */
function levelPool(blueprint: TBlueprint, free: number): EBloomLevel[] {
  if (blueprint.bloomDistribution && free > 0) {
    const counts = largestRemainder(blueprint.bloomDistribution, free, BLOOM_LEVELS);
    return BLOOM_LEVELS.flatMap((l) => Array<EBloomLevel>(counts[l]).fill(l));
  }
  if (blueprint.bloomTargets?.length) {
    const targets = BLOOM_LEVELS.filter((l) => blueprint.bloomTargets!.includes(l));
    const pool = Array.from({ length: free }, (_, i) => targets[i % targets.length]!);
    return pool.sort((a, b) => BLOOM_LEVELS.indexOf(a) - BLOOM_LEVELS.indexOf(b));
  }
  return [];
}

/**
 * One slot per question. Explicit per-item levels are kept; the remaining questions get levels
 * from the distribution (largest remainder, exact counts), else round-robin over the targets,
 * else the type's defaults. Higher levels go to long answers first, lower ones to MCQs, so each
 * level lands on a type that can carry it. Sources rotate over the passages.
 */
export function planSlots(
  blueprint: TBlueprint,
  sourceKeys: readonly string[],
  makeId: (index: number) => string,
  feasible?: (type: EQuestionType, level: EBloomLevel) => number,
  /**
   * An offline set: candidates that pass the gate per type and level (`slot/dry-run.ts`). Levels
   * are then placed where questions can be written (`arrangeSupported`), and the slots beyond an
   * even share of the targets take the requested levels the passages support best. Without it
   * (a language model writes the set) levels are placed by `feasible` material, as before.
   */
  supported?: ISupported,
): ISlot[] {
  const items = blueprint.items.flatMap((item) =>
    Array.from({ length: item.count }, () => ({
      type: item.type,
      level: item.bloomLevel,
      marks: item.marks,
    })),
  );
  const free = items.filter((i) => !i.level);
  const types = free.map((f) => f.type);
  // Offline (`supported`): placed by what can be written, within each level's bounds; otherwise
  // a pool of levels placed by material.
  const bounds = supported && free.length > 0 ? supportedBounds(blueprint, free.length) : null;
  const pool = bounds ? [] : levelPool(blueprint, free.length);
  const levels =
    bounds && supported
      ? arrangeSupported(types, bounds.lo, bounds.hi, supported)
      : pool.length > 0
        ? arrangeLevels(types, pool, feasible)
        : null;
  if (levels) {
    free.forEach((f, j) => {
      f.level = levels[j];
    });
  } else {
    // No levels asked: rotate over the type's usual levels that the passages can carry.
    const carries = supported ? (t: EQuestionType, l: EBloomLevel) => supported.cell(t, l) : feasible;
    const used: Record<EQuestionType, number> = { mcq: 0, short: 0, long: 0 };
    for (const f of free) {
      const usual = DEFAULT_LEVELS[f.type];
      const carried = carries ? usual.filter((l) => carries(f.type, l) > 0) : usual;
      const levels = carried.length > 0 ? carried : usual;
      f.level = levels[used[f.type]++ % levels.length];
    }
  }
  const keys = sourceKeys.length > 0 ? sourceKeys : [""];
  return items.map((item, index) => ({
    id: makeId(index),
    index,
    type: item.type,
    bloomLevel: item.level!,
    marks: item.marks ?? DEFAULT_MARKS[item.type],
    difficulty: difficultyFor(item.level!, blueprint.difficulty),
    sourceKeys: [keys[index % keys.length]!, ...keys.filter((_, k) => k !== index % keys.length)],
  }));
}
