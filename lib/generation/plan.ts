import type { TBlueprint } from "@/schema/generation.schema";
import { BLOOM_LEVELS, type EBloomLevel } from "@/types/bloom.types";
import type { EDifficulty, EQuestionType, ISlot } from "@/types/generation.types";

export const DEFAULT_MARKS: Record<EQuestionType, number> = { mcq: 1, short: 3, long: 5 };

/** Levels each question type suits when the blueprint names none. */
const DEFAULT_LEVELS: Record<EQuestionType, EBloomLevel[]> = {
  mcq: ["Remember", "Understand", "Apply"],
  short: ["Understand", "Apply", "Analyze"],
  long: ["Analyze", "Evaluate", "Create"],
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
    // Lowest levels to MCQs, highest to long answers.
    const rank: Record<EQuestionType, number> = { mcq: 0, short: 1, long: 2 };
    const order = free.map((f, i) => ({ f, i })).sort((a, b) => rank[a.f.type] - rank[b.f.type] || a.i - b.i);
    order.forEach(({ f }, j) => {
      f.level = pool[j];
    });
  } else {
    const used: Record<EQuestionType, number> = { mcq: 0, short: 0, long: 0 };
    for (const f of free) {
      const levels = DEFAULT_LEVELS[f.type];
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
