import { QUESTION_TYPES } from "@/schema/enums.schema";
import { BLOOM_LEVELS, type EBloomLevel } from "@/types/bloom.types";
import { type EQuestionType, type ISlot, passageKey, type TQuestion } from "@/types/generation.types";
import { gateQuestion, type IGateContext } from "../gate";
import { mulberry32 } from "../offline/forms/common";
import type { IOfflineGenerator } from "../offline/generator";
import { DEFAULT_MARKS, difficultyFor } from "../plan";

/**
 * What the passages can really carry, per question type and level: the offline forms are run as
 * the slot search runs them (`choose.ts`, the same candidates and the same strict gate, with
 * nothing yet accepted) and the candidates that pass are counted — distinct facts only, as two
 * slots of a set cannot ask the same one (each pass is read against the passes before it).
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
  /** The section's reserve (`useSection`): a cell the selection cannot carry is tried there too. */
  widened?: () => IOfflineGenerator | null;
  reserveKeys?: ReadonlySet<string>;
}

/** Passing candidates of one generator for one cell, up to the cap (`onlyReserve`: cite the reserve). */
function countCell(
  generator: IOfflineGenerator,
  gateCtx: IGateContext,
  type: EQuestionType,
  level: EBloomLevel,
  opts: IDryRunOptions,
  onlyReserve: boolean,
): number {
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
  let read = 0;
  for (const { question } of generator.candidates(slot, { used: new Set(), keyAt: 0, random })) {
    if (onlyReserve && !question.contextRefs.some((r) => opts.reserveKeys?.has(passageKey(r)))) continue;
    if (read++ >= (opts.maxCandidates ?? 40)) break;
    const verdict = gateQuestion(
      question,
      level,
      gateCtx,
      { accepted: passed, avoidPrompts: [...(opts.avoidPrompts ?? [])] },
      { profile: "strict" },
    );
    if (verdict.passed) {
      passed.push(question);
      if (passed.length >= DRY_RUN_CAP) break;
    }
  }
  return passed.length;
}

/** The dry run over every question type and level (cells without material are 0 without a search). */
export function dryRun(
  generator: IOfflineGenerator,
  gateCtx: IGateContext,
  opts: IDryRunOptions = {},
): TSupportCounts {
  const out = {} as TSupportCounts;
  for (const type of QUESTION_TYPES) {
    out[type] = {} as Record<EBloomLevel, number>;
    for (const level of BLOOM_LEVELS) {
      let n =
        generator.available(type, level) > 0 ? countCell(generator, gateCtx, type, level, opts, false) : 0;
      if (n === 0 && opts.widened) {
        const more = opts.widened();
        if (more && more.available(type, level) > 0) n = countCell(more, gateCtx, type, level, opts, true);
      }
      out[type][level] = n;
    }
  }
  return out;
}
