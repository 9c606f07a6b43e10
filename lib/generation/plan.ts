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

function difficultyFor(level: EBloomLevel, requested: TBlueprint["difficulty"]): EDifficulty {
  if (requested !== "mixed") return requested;
  const i = BLOOM_LEVELS.indexOf(level);
  return i <= 1 ? "easy" : i <= 3 ? "medium" : "hard";
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
): ISlot[] {
  const items = blueprint.items.flatMap((item) =>
    Array.from({ length: item.count }, () => ({
      type: item.type,
      level: item.bloomLevel,
      marks: item.marks,
    })),
  );
  const free = items.filter((i) => !i.level);
  let pool: EBloomLevel[] = [];
  if (blueprint.bloomDistribution && free.length > 0) {
    const counts = largestRemainder(blueprint.bloomDistribution, free.length, BLOOM_LEVELS);
    pool = BLOOM_LEVELS.flatMap((l) => Array<EBloomLevel>(counts[l]).fill(l));
  } else if (blueprint.bloomTargets?.length) {
    const targets = BLOOM_LEVELS.filter((l) => blueprint.bloomTargets!.includes(l));
    pool = free.map((_, i) => targets[i % targets.length]!);
    pool.sort((a, b) => BLOOM_LEVELS.indexOf(a) - BLOOM_LEVELS.indexOf(b));
  }
  if (pool.length > 0) {
    const levels = arrangeLevels(
      free.map((f) => f.type),
      pool,
      feasible,
    );
    free.forEach((f, j) => {
      f.level = levels[j];
    });
  } else {
    // No levels asked: rotate over the type's usual levels that the passages can carry.
    const used: Record<EQuestionType, number> = { mcq: 0, short: 0, long: 0 };
    for (const f of free) {
      const usual = DEFAULT_LEVELS[f.type];
      const carried = feasible ? usual.filter((l) => feasible(f.type, l) > 0) : usual;
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
