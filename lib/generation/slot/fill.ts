import type { LanguageModel } from "ai";
import type { ISlot, TQuestion } from "@/types/generation.types";
import type { IGateFinding } from "../gate";
import { draftWithModel } from "../llm/slot-draft";
import { searchOffline } from "./choose";
import { leaveEmpty } from "./empty";
import { cancelled, type IRun, type TCounts } from "./request";
import { substitute } from "./substitute";

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
): Promise<void> {
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
  chosen ??= searchOffline(run, slot, keyAt, refused, regenerated);
  if (!chosen && !run.request.blueprint.strictLevels) chosen = substitute(run, slot, keyAt);
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
  if (!chosen) return leaveEmpty(run, slot, refused);
  for (const r of chosen.contextRefs) run.used.add(r.quote);
  run.sources.add(chosen.source);
  run.accepted.set(slot.id, chosen);
  run.events.question(slot, { status: "final", question: chosen });
  const done = run.accepted.size;
  run.events.progress(done, run.total, `${done} of ${run.total} questions ready`);
}
