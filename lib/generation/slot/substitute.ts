import { BLOOM_LEVELS, type EBloomLevel } from "@/types/bloom.types";
import type { ISlot, TQuestion } from "@/types/generation.types";
import { LEVEL_NEEDS } from "../offline/forms";
import { searchOffline } from "./choose";
import type { IRun } from "./request";

/** The other levels, nearest first; at equal distance the higher one (keep the demand up). */
function nearestLevels(level: EBloomLevel): EBloomLevel[] {
  const at = BLOOM_LEVELS.indexOf(level);
  return BLOOM_LEVELS.filter((l) => l !== level).sort((a, b) => {
    const da = Math.abs(BLOOM_LEVELS.indexOf(a) - at);
    const db = Math.abs(BLOOM_LEVELS.indexOf(b) - at);
    return da - db || BLOOM_LEVELS.indexOf(b) - BLOOM_LEVELS.indexOf(a);
  });
}

/**
 * Nothing acceptable at the asked level: the nearest level the passages do support, labelled as
 * what it is, rather than an empty slot or a question that only pretends to the level.
 */
export function substitute(run: IRun, slot: ISlot, keyAt: number): TQuestion | null {
  const availableAt = (l: EBloomLevel) =>
    run.offline.available(slot.type, l) || (run.widened()?.available(slot.type, l) ?? 0);
  for (const level of nearestLevels(slot.bloomLevel)) {
    if (availableAt(level) === 0) continue;
    const alt = searchOffline(run, { ...slot, bloomLevel: level }, keyAt, {}, true);
    if (!alt) continue;
    const lacks =
      run.offline.available(slot.type, slot.bloomLevel) > 0
        ? `no ${slot.bloomLevel} draft passed the quality gate`
        : `the passages hold no ${LEVEL_NEEDS[slot.bloomLevel]}`;
    run.warnings.push(
      `Slot ${slot.index + 1} asked for ${slot.bloomLevel} (${slot.type}); ${lacks}, so it holds a ${level} question instead.`,
    );
    return { ...alt, validation: { ...alt.validation, substitutedFor: slot.bloomLevel } };
  }
  return null;
}
