import { type ISlot, passageKey, type TQuestion } from "@/types/generation.types";
import { formUseKey } from "../offline/forms/common";
import { accepted, countRejections, gate, type IRun, type TCounts } from "./request";

/** The first offline candidate the gate passes: the selection's passages, then the section's. */
export function searchOffline(
  run: IRun,
  slot: ISlot,
  keyAt: number,
  refused: TCounts,
  regenerated: boolean,
): TQuestion | null {
  const pools = function* () {
    yield { generator: run.offline, onlyReserve: false };
    const more = run.widened();
    if (more) yield { generator: more, onlyReserve: true };
  };
  for (const { generator, onlyReserve } of pools()) {
    let read = 0;
    for (const { form, question } of generator.candidates(slot, { used: run.used, keyAt })) {
      // The widened pool re-proposes the selection's own candidates: skip those.
      if (onlyReserve && !question.contextRefs.some((r) => run.reserveKeys.has(passageKey(r)))) continue;
      if (read++ >= (run.deps.maxCandidates ?? 40)) break;
      const verdict = gate(run, question, slot.bloomLevel);
      if (verdict.passed) {
        // Which form asked which passage text: a form may decline to ask the same text twice.
        for (const r of question.contextRefs) run.used.add(formUseKey(form, r.quote));
        if (onlyReserve)
          run.warnings.push(
            `Slot ${slot.index + 1} (${slot.type}, ${slot.bloomLevel}) drew on another passage of the same section, as the selected ones could not carry it.`,
          );
        return accepted(question, verdict, slot.bloomLevel, read > 1 || regenerated);
      }
      countRejections(refused, verdict.findings);
    }
  }
  return null;
}
