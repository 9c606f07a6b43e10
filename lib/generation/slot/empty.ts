import type { EBloomLevel } from "@/types/bloom.types";
import type { ISlot } from "@/types/generation.types";
import { classifyBloom } from "../bloom-classifier";
import { LEVEL_NEEDS } from "../offline/forms";
import type { IRun, TCounts } from "./request";

/**
 * A slot nothing acceptable fills stays empty, never holds a refused question: its card says why
 * (the gate's refusals counted, or the material the passages lack) and offers the teacher's own
 * past-paper questions at that level when there are any.
 */

const describeCounts = (c: TCounts) =>
  Object.entries(c)
    .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0))
    .slice(0, 3)
    .map(([flag, n]) => `${flag.replace(/_/g, " ")} ×${n}`)
    .join(", ");

/** Past-paper questions whose wording reads at the slot's level, to offer in an empty slot. */
function pastAt(level: EBloomLevel, past: readonly string[]): string[] {
  return past.filter((q) => classifyBloom(q) === level).slice(0, 2);
}

/** The slot's reason, with past-paper questions at its level when there are any. */
export function leaveEmpty(run: IRun, slot: ISlot, refused: TCounts): void {
  const material = run.offline.available(slot.type, slot.bloomLevel) > 0;
  const why = Object.keys(refused).length
    ? `every draft was refused by the quality gate (${describeCounts(refused)})`
    : material
      ? "no draft could be completed from the passages"
      : `the passages hold no ${LEVEL_NEEDS[slot.bloomLevel]}`;
  const offers = pastAt(slot.bloomLevel, run.deps.pastQuestions ?? []);
  const reason = `No acceptable ${slot.type === "mcq" ? "MCQ" : `${slot.type}-answer question`} at ${slot.bloomLevel} from these passages: ${why}.${
    offers.length
      ? ` From your past papers at this level: ${offers.map((o) => `“${o}”`).join(" ")}`
      : run.request.useSection
        ? " Add passages that carry it, or change this slot's level."
        : " Add passages that carry it, tick “Also use the rest of the section”, or change this slot's level."
  }`;
  run.events.question(slot, { status: "failed", reason });
  run.events.error("slot_empty", reason, slot.id);
  run.warnings.push(`Slot ${slot.index + 1} (${slot.type}, ${slot.bloomLevel}) left empty: ${why}.`);
  run.gaps.push({ slotId: slot.id, type: slot.type, level: slot.bloomLevel, reason, rejections: refused });
}
