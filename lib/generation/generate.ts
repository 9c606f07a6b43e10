import { guardModel } from "@/lib/ai/provider-guard";
import type { TGenerationRequest } from "@/schema/generation.schema";
import type { IContextChunk, ISlot, TQuestion } from "@/types/generation.types";
import { createGateContext, type IGateFinding } from "./gate";
import { mulberry32, shuffle } from "./offline/forms/common";
import { chunkKey } from "./offline/knowledge/sentences";
import { planSlots } from "./plan";
import { fillSlot, fillStandIn } from "./slot/fill";
import { availabilityGenerator, buildRunCore, dryRunOf } from "./slot/offload";
import {
  cancelled,
  type IGenerationDeps,
  type IGenerationEvents,
  type ISlotGap,
  newRun,
  switchToOffline,
  type TCounts,
} from "./slot/request";

/**
 * The door to question generation: what routes, workers and scripts call. A request is planned
 * into slots (`plan.ts`), each slot filled (`slot/`) on the model road (`llm/`) when a model is
 * set and on the offline road (`offline/`) otherwise or when the model fails, every candidate read
 * by the same quality gate (`gate/`).
 */

export type { IGenerationDeps, IGenerationEvents, ISlotGap } from "./slot/request";
export { PROVIDER_DOWN_MESSAGE } from "./slot/request";
export { supportOf } from "./slot/support";

/**
 * Language-model slots written at once unless the caller says otherwise
 * (`PAPERWISE_GENERATION_CONCURRENCY`): 6, so that a 6-question set is one round of drafts (and
 * rewrites), not two — with 3, a set took about twice its first decided question (issue 26).
 */
export const DEFAULT_CONCURRENCY = 6;

export interface IGenerationResult {
  /** Accepted questions in slot order. */
  questions: TQuestion[];
  slots: ISlot[];
  warnings: string[];
  generator: "llm" | "offline" | "mixed";
  gaps: ISlotGap[];
  /** Every candidate the gate refused, by flag (the eval reports them). */
  rejections: Partial<Record<IGateFinding["flag"], number>>;
  /** The passages questions could cite: the selection, then the rest of its section. */
  passages: IContextChunk[];
  /** The caller's signal aborted before every slot was decided (the set is incomplete). */
  cancelled: boolean;
  /** Time the planning dry run took here (offline sets; absent when it ran in the worker lane). */
  dryRunMs?: number;
}

/** The reserve passages a worker chose, by key, from the scope this thread holds. */
function reserveOf(scope: readonly IContextChunk[], keys: readonly string[]): IContextChunk[] {
  const byKey = new Map(scope.map((c) => [chunkKey(c), c]));
  return keys.flatMap((k) => byKey.get(k) ?? []);
}

/** Key positions for the set's MCQs: each of A–D equally often, in a seeded order. */
function keyPositions(count: number, seed: number): number[] {
  const base = Array.from({ length: Math.ceil(count / 4) * 4 }, (_, i) => i % 4);
  return shuffle(base, mulberry32(seed ^ 0x9e3779b9)).slice(0, count);
}

const OUTPUT_WEIGHT: Record<ISlot["type"], number> = { long: 2, short: 1, mcq: 0 };

/**
 * The order parallel slots start in (their cards keep slot order): the first card first, as the
 * teacher reads from the top, then the slots the model writes longest (long answers, then short
 * ones), so the set is not left waiting on one long answer started last.
 */
function startOrder(slots: readonly ISlot[]): ISlot[] {
  const [first, ...rest] = slots;
  if (!first) return [];
  const byLength = rest
    .map((slot, i) => ({ slot, i }))
    .sort((a, b) => OUTPUT_WEIGHT[b.slot.type] - OUTPUT_WEIGHT[a.slot.type] || a.i - b.i);
  return [first, ...byLength.map(({ slot }) => slot)];
}

/** Runs `work` over `items` with at most `width` at once, each worker taking the next in order. */
async function eachLimited<T>(
  items: readonly T[],
  width: number,
  work: (item: T) => Promise<void>,
  stop: () => boolean,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !stop()) {
      await work(items[next++]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}

/**
 * Plan → draft → gate → accept, per slot. A language model (when configured) drafts first,
 * streamed to the slot's card as it writes, up to `concurrency` slots at once; a draft the gate
 * refuses is regenerated once with the gate's reasons, then the offline generator proposes
 * candidates, which pass through the same gate. A slot nothing acceptable can fill is left empty
 * with its reason (and past-paper questions at that level, when there are any) — never filled
 * with a question the gate refused. The gate reads each draft when it is complete, against the
 * questions accepted by then, so parallel slots cannot ask the same fact twice. Without a model
 * (or once the provider is down) slots are filled one after another, as the offline generator
 * answers in milliseconds.
 */
export async function runGeneration(
  deps: IGenerationDeps,
  chunks: readonly IContextChunk[],
  request: TGenerationRequest,
  events: IGenerationEvents,
  makeId: (index: number) => string,
): Promise<IGenerationResult> {
  const model = deps.model ? guardModel(deps.model, "question") : null;
  const seed = request.seed ?? 1;
  const scope = deps.scope ?? [];
  // With a model and an offload (the route's worker pool), the knowledge and the gate's context are
  // built there and only the availability table comes back; otherwise they are built here.
  const offload =
    model && deps.offload
      ? await deps.offload({
          chunks,
          scope,
          request,
          ...(deps.maxCandidates ? { maxCandidates: deps.maxCandidates } : {}),
          ...(deps.providerDown ? { dryRun: true } : {}),
        })
      : null;
  const core = offload ? null : buildRunCore(chunks, scope, request);
  const offline = core?.offline ?? availabilityGenerator(offload!.available);
  const reserve = core?.reserve ?? reserveOf(scope, offload?.reserveKeys ?? []);
  // An offline set (no model, or its provider already down) is planned on what the offline forms
  // can really write: candidates that pass the gate per type and level. A model can write any
  // level, so its set is planned on the selection's material alone, without the dry run's cost.
  const offlineSet = !model || deps.providerDown === true;
  const dryRunStarted = performance.now();
  const support = !offlineSet
    ? undefined
    : core
      ? dryRunOf(core, request, deps.maxCandidates)
      : offload?.supported;
  const dryRunMs = support && core ? performance.now() - dryRunStarted : undefined;
  const slots = planSlots(
    request.blueprint,
    chunks.map(chunkKey),
    makeId,
    (t, l) => offline.available(t, l),
    support ? { cell: (t, l) => support.cells[t][l], level: (l) => support.levels[l] } : undefined,
  );
  const exemplars = request.strategy === "few-shot" ? (deps.exemplars ?? []).slice(0, 5) : [];
  const run = newRun({
    deps,
    request,
    events,
    chunks,
    byKey: new Map(chunks.map((c) => [chunkKey(c), c])),
    offline,
    widened: core?.widened ?? (() => null),
    reserveKeys: core?.reserveKeys ?? new Set(reserve.map(chunkKey)),
    // The offloaded run's gate reads drafts in the worker (`gateDraft`); this context is never read.
    gateCtx: core?.gateCtx ?? createGateContext([]),
    exemplars,
    total: slots.length,
    offload,
  });
  if (request.strategy === "few-shot" && exemplars.length === 0 && model) {
    run.warnings.push("Few-shot: no past-paper (PYQ) questions for this subject yet; generated zero-shot.");
  }
  const stopCalls = () => run.modelCalls.abort(deps.signal?.reason);
  deps.signal?.addEventListener("abort", stopCalls, { once: true });
  // The answerability check of this same request may already have met the outage.
  if (model && deps.providerDown) switchToOffline(run);
  // Every card first, in slot order: parallel slots then update their own card in place.
  for (const slot of slots) events.question(slot, { status: "generating" });
  const positions = keyPositions(slots.filter((s) => s.type === "mcq").length, seed);
  let mcqIndex = 0;
  const keyAt = new Map(slots.map((s) => [s.id, s.type === "mcq" ? (positions[mcqIndex++] ?? 0) : 0]));
  const width = model && !run.providerDown ? Math.max(1, deps.concurrency ?? DEFAULT_CONCURRENCY) : 1;
  // Offline only: every slot tries its own level first, then unfilled slots take a nearer level.
  const deferStandIn = !model;
  const unfilled = new Map<string, TCounts>();
  try {
    await eachLimited(
      width > 1 ? startOrder(slots) : slots,
      width,
      async (slot) => {
        const refused = await fillSlot(run, model, slot, keyAt.get(slot.id) ?? 0, deferStandIn);
        if (refused) unfilled.set(slot.id, refused);
      },
      () => cancelled(run),
    );
    for (const slot of slots) {
      const refused = unfilled.get(slot.id);
      if (refused) fillStandIn(run, slot, keyAt.get(slot.id) ?? 0, refused);
    }
  } finally {
    deps.signal?.removeEventListener("abort", stopCalls);
  }
  if (run.llmFailures > 0)
    run.warnings.push(
      `The language model failed ${run.llmFailures} time(s); the offline generator filled in.`,
    );
  const generator = run.sources.size === 2 ? "mixed" : run.sources.has("llm") ? "llm" : "offline";
  return {
    questions: slots.flatMap((s) => run.accepted.get(s.id) ?? []),
    slots,
    warnings: run.warnings,
    generator,
    gaps: run.gaps,
    rejections: run.rejections,
    passages: [...chunks, ...reserve],
    cancelled: cancelled(run),
    ...(dryRunMs !== undefined ? { dryRunMs } : {}),
  };
}
