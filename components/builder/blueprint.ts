import { QUESTION_TYPES } from "@/schema/enums.schema";
import { BLOOM_LEVELS, type EBloomLevel } from "@/types/bloom.types";
import type { EQuestionType } from "@/types/generation.types";

export interface IBlueprintForm {
  counts: Record<EQuestionType, number>;
  marks: Record<EQuestionType, number>;
  levels: EBloomLevel[];
  /** Exact questions per level; when set, must add up to the total. */
  perLevel: Partial<Record<EBloomLevel, number>> | null;
}

/** The blueprint form's rules, shared by the form and its unit tests; null when valid. */
export function blueprintError(form: IBlueprintForm): string | null {
  const total = QUESTION_TYPES.reduce((n, t) => n + form.counts[t], 0);
  if (QUESTION_TYPES.some((t) => !Number.isInteger(form.counts[t]) || form.counts[t] < 0))
    return "Counts must be whole numbers.";
  if (total === 0) return "Ask for at least one question.";
  if (total > 60) return "At most 60 questions per set.";
  if (QUESTION_TYPES.some((t) => form.counts[t] > 50)) return "At most 50 questions of one type.";
  if (QUESTION_TYPES.some((t) => form.marks[t] < 1 || form.marks[t] > 20))
    return "Marks per question must be between 1 and 20.";
  if (form.perLevel) {
    const sum = BLOOM_LEVELS.reduce((n, l) => n + (form.perLevel?.[l] ?? 0), 0);
    if (sum !== total) return `Questions per Bloom level add up to ${sum}, but the blueprint has ${total}.`;
  } else if (form.levels.length === 0) {
    return "Pick at least one Bloom level.";
  }
  return null;
}

/** Target questions per level: the exact numbers, or an even spread over the chosen levels. */
export function levelTargets(form: IBlueprintForm): Record<EBloomLevel, number> {
  const total = QUESTION_TYPES.reduce((n, t) => n + form.counts[t], 0);
  const out = Object.fromEntries(BLOOM_LEVELS.map((l) => [l, 0])) as Record<EBloomLevel, number>;
  if (form.perLevel) {
    for (const l of BLOOM_LEVELS) out[l] = form.perLevel[l] ?? 0;
    return out;
  }
  const chosen = BLOOM_LEVELS.filter((l) => form.levels.includes(l));
  chosen.forEach((l, i) => {
    out[l] = Math.floor(total / chosen.length) + (i < total % chosen.length ? 1 : 0);
  });
  return out;
}

const COUNT_PATTERNS: Record<EQuestionType, RegExp> = {
  mcq: /\b(\d{1,2})\s+(?:mcqs?|multiple[- ]choice)\b/i,
  short: /\b(\d{1,2})\s+short(?:[- ]answer)?\b/i,
  long: /\b(\d{1,2})\s+long(?:[- ]answer)?\b/i,
};

/**
 * The counts a query asks for ("Generate 10 MCQs for Chapter 3" → 10 MCQs, nothing else), so the
 * blueprint starts where the teacher's own words put it; null when the query names no count.
 */
export function countsFromQuery(query: string): Record<EQuestionType, number> | null {
  const counts: Record<EQuestionType, number> = { mcq: 0, short: 0, long: 0 };
  let found = false;
  for (const t of QUESTION_TYPES) {
    const m = COUNT_PATTERNS[t].exec(query);
    if (m?.[1]) {
      counts[t] = Math.min(50, Number(m[1]));
      found = true;
    }
  }
  return found && QUESTION_TYPES.some((t) => counts[t] > 0) ? counts : null;
}

/** Top K as typed: the number when it is a whole number from 1 to 50, otherwise why not. */
export function parseTopK(raw: string): { value: number } | { error: string } {
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isInteger(n))
    return { error: "The number of passages must be a whole number from 1 to 50." };
  if (n < 1) return { error: "The number of passages must be at least 1 (0 would return none)." };
  if (n > 50) return { error: "The number of passages is at most 50." };
  return { value: n };
}
