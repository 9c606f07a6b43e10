import type { LanguageModel } from "ai";
import { describeError, log } from "@/lib/log";
import type { ISlot, TQuestion } from "@/types/generation.types";
import type { IGateFinding } from "../gate";
import { checkDuplicates } from "../gate/checks";
import { draftWithModel } from "../llm/slot-draft";
import { searchOffline } from "./choose";
import { leaveEmpty } from "./empty";
import type { IFillResult } from "./offload";
import { acceptedSince, cancelled, type IRun, type TCounts } from "./request";
import { substitute } from "./substitute";

/**
 * The offline candidates of a slot (then a nearer level, unless levels are strict): searched here,
 * or in the worker pool when the run is offloaded — there with the set's accepted questions and
 * used sentences as they are now, and what the search used, refused and warned brought back.
 */
async function offlineFallback(
  run: IRun,
  slot: ISlot,
  keyAt: number,
  refused: TCounts,
  regenerated: boolean,
  deferStandIn = false,
): Promise<TQuestion | null> {
  const mayStandIn = !run.request.blueprint.strictLevels && !deferStandIn;
  if (!run.offload) {
    const found = searchOffline(run, slot, keyAt, refused, regenerated);
    return found ?? (mayStandIn ? substitute(run, slot, keyAt) : null);
  }
  // The worker searches against the set as it was sent; a slot accepted meanwhile (slots run in
  // parallel) may ask the same fact: then the search runs again against the set as it is now.
  for (let attempt = 1; ; attempt++) {
    const sent = [...run.accepted.values()];
    let result: IFillResult;
    try {
      result = await run.offload.fill({
        slot,
        keyAt,
        refused,
        regenerated,
        used: [...run.used],
        accepted: sent,
        substitute: mayStandIn,
      });
    } catch (err) {
      // The lane's task failed (its time or memory limit): this slot stays empty with its
      // reason; the rest of the set goes on.
      log.warn("generation.offline_fallback_failed", { slot: slot.index, error: describeError(err) });
      return null;
    }
    Object.assign(refused, result.refused);
    for (const u of result.used) run.used.add(u);
    const since = acceptedSince(run, sent);
    const repeats =
      result.chosen !== null &&
      since.length > 0 &&
      checkDuplicates(result.chosen, { accepted: since }).some((f) => f.severity === "reject");
    if (!repeats || attempt === 3) {
      run.warnings.push(...result.warnings);
      return repeats ? null : result.chosen;
    }
  }
}

/**
 * Filling one slot: model draft (when usable, `llm/slot-draft.ts`) → offline candidates through
 * the same gate (`choose.ts`) → a nearer level, labelled as such, unless the blueprint keeps levels
 * strict (`substitute.ts`) → the slot's reason (`empty.ts`). In a set the model writes, an offline
 * question fills a slot only when the model is down or failed, or its draft was refused for a
 * refusal reason; its card says which.
 */
export async function fillSlot(
  run: IRun,
  model: LanguageModel | null,
  slot: ISlot,
  keyAt: number,
  /**
   * Leave a nearer level for later (`fillStandIn`), after every slot has tried its own level: a
   * stand-in must not take the material another slot needs at its own level (an Apply problem
   * standing in for Remember used the equation the Evaluate claim was built on). Then an unfilled
   * slot is not left empty here: its refusals come back for `fillStandIn`.
   */
  deferStandIn = false,
): Promise<TCounts | undefined> {
  const refused: TCounts = {};
  let chosen: TQuestion | null = null;
  let regenerated = false;
  let why: string | undefined;
  if (model) {
    if (run.providerDown) why = "the model provider was not responding";
    else if (run.llmFailures >= 3) why = "the model failed on several questions of this set";
    else ({ chosen, regenerated, why } = await draftWithModel(run, model, slot, refused));
  }
  if (cancelled(run)) return;
  chosen ??= await offlineFallback(run, slot, keyAt, refused, regenerated, deferStandIn);
  if (cancelled(run)) return;
  if (chosen && model && chosen.source === "offline")
    chosen = {
      ...chosen,
      validation: {
        ...chosen.validation,
        offlineReason: `Written offline because ${why ?? "the model wrote no draft"}.`,
      },
    };
  for (const [flag, n] of Object.entries(refused) as [IGateFinding["flag"], number][])
    run.rejections[flag] = (run.rejections[flag] ?? 0) + n;
  if (!chosen && deferStandIn) return refused;
  if (!chosen) {
    leaveEmpty(run, slot, refused);
    return undefined;
  }
  accept(run, slot, chosen);
  return undefined;
}

/** The second pass of an offline set: a nearer level for a slot its own level left unfilled. */
export function fillStandIn(run: IRun, slot: ISlot, keyAt: number, refused: TCounts): void {
  if (cancelled(run)) return;
  const chosen = run.request.blueprint.strictLevels ? null : substitute(run, slot, keyAt);
  if (chosen) accept(run, slot, chosen);
  else leaveEmpty(run, slot, refused);
}

function accept(run: IRun, slot: ISlot, chosen: TQuestion): void {
  for (const r of chosen.contextRefs) run.used.add(r.quote);
  run.sources.add(chosen.source);
  run.accepted.set(slot.id, chosen);
  run.events.question(slot, { status: "final", question: chosen });
  const done = run.accepted.size;
  run.events.progress(done, run.total, `${done} of ${run.total} questions ready`);
}
