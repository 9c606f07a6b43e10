import "server-only";
import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/errors";
import {
  type IGenerationDeps,
  type IGenerationEvents,
  type IGenerationResult,
  runGeneration,
} from "@/lib/generation/generate";
import type { IRunInputs, IRunOffload, TOpenOffload } from "@/lib/generation/slot/offload";
import type { TGenerationRequest } from "@/schema/generation.schema";
import type { IContextChunk } from "@/types/generation.types";
import { getPool, getShortLane } from "./pool";
import { RUN_NOT_HELD, type TGenerationEvent } from "./tasks";

/**
 * A model-written run's offline parts in the pool's short lane (`getShortLane`): its knowledge
 * and gate context built there once (`runPrepare`), each draft's gate reading (`runGate`) and
 * each refused slot's offline fallback (`runFill`) sent as tasks. A task that meets a worker
 * not holding the run (replaced after a limit) is sent again with the run's inputs. When the
 * pool cannot load, the lane runs the same tasks inline.
 */
export const openPoolOffload: TOpenOffload = async (inputs: IRunInputs): Promise<IRunOffload> => {
  const lane = getShortLane();
  const runId = randomUUID();
  const held = async <T>(send: (ref: { runId: string; inputs?: IRunInputs }) => Promise<T>): Promise<T> => {
    try {
      return await send({ runId });
    } catch (err) {
      if (!(err instanceof AppError && err.message === RUN_NOT_HELD)) throw err;
      return send({ runId, inputs });
    }
  };
  const prepared = await lane.run("runPrepare", { runId, inputs });
  return {
    ...prepared,
    gate: (gate) => held((ref) => lane.run("runGate", { ...ref, gate })),
    fill: (fill) => held((ref) => lane.run("runFill", { ...ref, fill })),
  };
};

/**
 * `runGeneration` with the offline generator off the request thread: without a language model
 * the whole run (knowledge building, forms, the gate — seconds of CPU for a 60-slot set) is a
 * task of the worker pool, its events replayed here in order, the teacher's Stop passed on. With
 * a model the run stays here (it mostly waits on the provider, and its breaker state and
 * per-request offline switch live in this process) but its offline parts — knowledge, the gate,
 * the fallback for refused slots — are tasks of the pool's short lane (`openPoolOffload`). In the
 * pool, question ids are random UUIDs (what the route's `makeId` gives too).
 */
export function runGenerationIsolated(
  deps: IGenerationDeps,
  chunks: readonly IContextChunk[],
  request: TGenerationRequest,
  events: IGenerationEvents,
  makeId: (index: number) => string,
): Promise<IGenerationResult> {
  if (deps.model)
    return runGeneration({ ...deps, offload: openPoolOffload }, chunks, request, events, makeId);
  const { model: _model, signal, ...plain } = deps;
  return getPool().stream(
    "generate",
    { deps: plain, chunks, request },
    (raw) => {
      const event = raw as TGenerationEvent;
      if (event.type === "question") events.question(...event.args);
      else if (event.type === "progress") events.progress(...event.args);
      else events.error(...event.args);
    },
    signal,
  );
}

/**
 * What the selected passages can support per type and level (the blueprint panel), read in the
 * pool's short lane: it builds the passages' knowledge and dry-runs the forms through the gate.
 */
export function supportIsolated(chunks: readonly IContextChunk[], scope: readonly IContextChunk[]) {
  return getShortLane().run("support", { chunks, scope });
}
