import { QUESTION_TYPES } from "@/schema/enums.schema";
import { BLOOM_LEVELS, type EBloomLevel } from "@/types/bloom.types";
import type { EQuestionType, ISlot, TQuestion } from "@/types/generation.types";
import { gateQuestion, type IGateContext } from "../gate";
import { checkDuplicates } from "../gate/checks";
import { formUseKey, mulberry32 } from "../offline/forms/common";
import type { IOfflineGenerator } from "../offline/generator";
import { DEFAULT_MARKS, difficultyFor } from "../plan";

/**
 * What the passages can really carry, per question type and level: the offline forms are run as
 * the slot search runs them (`choose.ts`, the same candidates and the same strict gate, with
 * nothing yet accepted) and the candidates that pass are counted — distinct facts only, as two
 * slots of a set cannot ask the same one: a cell is searched as its successive slots would search
 * it, each pass read against the passes before it and its passage text then marked used. Only the
 * selection's own generator is read (not the section's reserve, whose knowledge is built only
 * when a slot needs it).
 * Material alone is a poor guide: most forms with material build nothing, or the gate refuses
 * what they build. Planning places levels by these counts; the blueprint panel reports them.
 */

/** Passing candidates counted per (type, level): enough to tell 0, 1, "a few" apart, and cheap. */
export const DRY_RUN_CAP = 3;

/** Passing, distinct candidates per type and level (0: no question can be written there). */
export type TSupportCounts = Record<EQuestionType, Record<EBloomLevel, number>>;

export interface IDryRunOptions {
  seed?: number;
  /** Candidates read per (type, level), as the slot search reads per slot (default 40). */
  maxCandidates?: number;
  avoidPrompts?: readonly string[];
  /** Only these cells are searched (the rest count 0): a set's plan needs only its own. */
  cells?: (type: EQuestionType, level: EBloomLevel) => boolean;
}

/** Passing candidates of one generator for one cell, up to the cap. */
function passCell(
  generator: IOfflineGenerator,
  gateCtx: IGateContext,
  type: EQuestionType,
  level: EBloomLevel,
  opts: IDryRunOptions,
): TQuestion[] {
  const slot: ISlot = {
    id: `dry-${type}-${level}`,
    index: 0,
    type,
    bloomLevel: level,
    marks: DEFAULT_MARKS[type],
    difficulty: difficultyFor(level, "mixed"),
    sourceKeys: [],
  };
  // Its own random stream: the dry run must not shift the candidates the real slots draw.
  const random = mulberry32((opts.seed ?? 1) ^ 0x5bd1e995);
  const passed: TQuestion[] = [];
  // As successive slots of this cell would search: each from the top, with what the slots before
  // it accepted marked used (the passage text, and which form asked it) and read against.
  const used = new Set<string>();
  const avoidPrompts = opts.avoidPrompts ?? [];
  while (passed.length < DRY_RUN_CAP) {
    let read = 0;
    let found = false;
    for (const { form, question } of generator.candidates(slot, { used, keyAt: passed.length % 4, random })) {
      if (read++ >= (opts.maxCandidates ?? 40)) break;
      const verdict = gateQuestion(
        question,
        level,
        gateCtx,
        { accepted: passed, avoidPrompts },
        { profile: "strict" },
      );
      if (!verdict.passed) continue;
      passed.push(question);
      for (const r of question.contextRefs) used.add(formUseKey(form, r.quote)).add(r.quote);
      found = true;
      break;
    }
    if (!found) break;
  }
  return passed;
}

/**
 * Distinct facts among one level's passes over all types: an MCQ and a short answer at the same
 * level often stand on the same sentence, and a set can ask it only once (the slot accepted first
 * marks its passage text used; the gate refuses the same fact twice).
 */
function distinctFacts(passes: readonly TQuestion[]): number {
  const kept: TQuestion[] = [];
  const quotes = new Set<string>();
  for (const q of passes) {
    if (q.contextRefs.some((r) => quotes.has(r.quote))) continue;
    if (checkDuplicates(q, { accepted: kept }).some((f) => f.severity === "reject")) continue;
    kept.push(q);
    for (const r of q.contextRefs) quotes.add(r.quote);
  }
  return kept.length;
}

/** The dry run's counts: per type and level, and per level over all types (distinct facts). */
export interface IDryRun {
  cells: TSupportCounts;
  levels: Record<EBloomLevel, number>;
}

/** The dry run over every question type and level (cells without material are 0 without a search). */
export function dryRun(
  generator: IOfflineGenerator,
  gateCtx: IGateContext,
  opts: IDryRunOptions = {},
): IDryRun {
  const cells = {} as TSupportCounts;
  const levels = {} as Record<EBloomLevel, number>;
  const byLevel = new Map<EBloomLevel, TQuestion[]>(BLOOM_LEVELS.map((l) => [l, []]));
  for (const type of QUESTION_TYPES) {
    cells[type] = {} as Record<EBloomLevel, number>;
    for (const level of BLOOM_LEVELS) {
      if (opts.cells && !opts.cells(type, level)) {
        cells[type][level] = 0;
        continue;
      }
      const passes =
        generator.available(type, level) > 0 ? passCell(generator, gateCtx, type, level, opts) : [];
      cells[type][level] = passes.length;
      byLevel.get(level)!.push(...passes);
    }
  }
  for (const level of BLOOM_LEVELS) levels[level] = distinctFacts(byLevel.get(level)!);
  return { cells, levels };
}
