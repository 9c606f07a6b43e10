import "server-only";
import {
  type IGenerationDeps,
  type IGenerationEvents,
  type IGenerationResult,
  runGeneration,
} from "@/lib/generation/generate";
import type { TGenerationRequest } from "@/schema/generation.schema";
import type { IContextChunk } from "@/types/generation.types";
import { getPool } from "./pool";
import type { TGenerationEvent } from "./tasks";

/**
 * `runGeneration` with the offline generator off the request thread: without a language model
 * the whole run (knowledge building, forms, the gate — seconds of CPU for a 60-slot set) is a
 * task of the worker pool, its events replayed here in order, the teacher's Stop passed on. With
 * a model the run stays here: it mostly waits on the provider, and its breaker state and
 * per-request offline switch live in this process. In the pool, question ids are random UUIDs
 * (what the route's `makeId` gives too).
 */
export function runGenerationIsolated(
  deps: IGenerationDeps,
  chunks: readonly IContextChunk[],
  request: TGenerationRequest,
  events: IGenerationEvents,
  makeId: (index: number) => string,
): Promise<IGenerationResult> {
  if (deps.model) return runGeneration(deps, chunks, request, events, makeId);
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
