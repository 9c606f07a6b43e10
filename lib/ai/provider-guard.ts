import "server-only";
import {
  APICallError,
  type LanguageModel,
  type LanguageModelMiddleware,
  RetryError,
  wrapLanguageModel,
} from "ai";
import { getConfig } from "@/lib/config/env";
import { log } from "@/lib/log";
import { CircuitBreaker, type IBreakerSnapshot, type TCallOutcome } from "./circuit-breaker";

/**
 * Circuit breakers in front of the model provider, one per provider and kind of step, shared by
 * every request of this process. A provider that hangs costs each step its full timeout; after
 * a few outages in a short window the step's breaker opens and its calls fail at once with a
 * ProviderOutageError, which every caller already answers with its offline path (or fused
 * order). After the cool-down one call probes the provider in the background while its own
 * caller is answered offline, so nobody waits on a provider that may still hang; the probe's
 * success closes the breaker for the next call.
 */
export type TProviderStep = "plan" | "rerank" | "enhance" | "answerability" | "question" | "embed";

/** Why a provider call is counted as an outage; "circuit-open" = not attempted. */
export type TOutageKind = "timeout" | "server-error" | "unreachable" | "circuit-open";

export class ProviderOutageError extends Error {
  readonly kind: TOutageKind;
  readonly step: TProviderStep;
  /** While the breaker is open: how long until the provider is tried again. */
  readonly retryInMs: number | null;

  constructor(
    kind: TOutageKind,
    step: TProviderStep,
    detail: string,
    retryInMs: number | null,
    cause?: unknown,
  ) {
    super(`model provider ${detail} (${step})`, { cause });
    this.name = "ProviderOutageError";
    this.kind = kind;
    this.step = step;
    this.retryInMs = retryInMs;
  }
}

/**
 * True for a timeout, a 5xx or an unreachable provider, and for calls an open breaker refused.
 * Also by name: a bundler may give two route bundles their own copy of this module.
 */
export function isProviderOutage(err: unknown): err is ProviderOutageError {
  return err instanceof ProviderOutageError || (err instanceof Error && err.name === "ProviderOutageError");
}

/**
 * Which outage an error from a provider call is, or null when the provider did answer (a 4xx,
 * malformed output: the provider is up, the answer is the problem). A call its own caller
 * aborted for another reason than its timeout is "aborted" and proves nothing either way.
 */
export function classifyProviderError(
  err: unknown,
  signal?: AbortSignal,
): Exclude<TOutageKind, "circuit-open"> | "aborted" | null {
  if (signal?.aborted) {
    return (signal.reason as { name?: string } | undefined)?.name === "TimeoutError" ? "timeout" : "aborted";
  }
  const cause = RetryError.isInstance(err) ? err.lastError : err;
  if (cause instanceof Error && cause.name === "TimeoutError") return "timeout";
  if (APICallError.isInstance(cause)) {
    if (cause.statusCode === undefined) return "unreachable";
    return cause.statusCode >= 500 ? "server-error" : null;
  }
  if (cause instanceof TypeError && /fetch failed|terminated|socket/i.test(cause.message))
    return "unreachable";
  return null;
}

interface IGuardEntry {
  provider: string;
  model: string;
  step: TProviderStep;
  breaker: CircuitBreaker;
}

const globalForGuards = globalThis as unknown as { __paperwiseBreakers?: Map<string, IGuardEntry> };

function registry(): Map<string, IGuardEntry> {
  globalForGuards.__paperwiseBreakers ??= new Map();
  return globalForGuards.__paperwiseBreakers;
}

/** The breaker of one provider (and model) for one step, created on first use. */
export function breakerFor(provider: string, model: string, step: TProviderStep): CircuitBreaker {
  const key = `${provider}|${model}|${step}`;
  const existing = registry().get(key);
  if (existing) return existing.breaker;
  const fields = { provider, model, step };
  const breaker = new CircuitBreaker({
    ...getConfig().breaker,
    onTransition: ({ from, to, failures, reason }) => {
      const event = { ...fields, from, to, failures, ...(reason ? { reason } : {}) };
      if (to === "open")
        log.warn("provider.breaker_open", { ...event, coolDownMs: getConfig().breaker.coolDownMs });
      else log.info(`provider.breaker_${to === "closed" ? "closed" : "half_open"}`, event);
    },
  });
  registry().set(key, { ...fields, breaker });
  return breaker;
}

export interface IProviderStatus extends IBreakerSnapshot {
  provider: string;
  model: string;
  step: TProviderStep;
}

/** Every breaker this process has used, for the health endpoint. */
export function providerStatus(): IProviderStatus[] {
  return [...registry().values()].map(({ provider, model, step, breaker }) => ({
    provider,
    model,
    step,
    ...breaker.snapshot(),
  }));
}

/** Tests start every scenario with closed breakers (and pick up a changed configuration). */
export function resetBreakersForProcess(): void {
  registry().clear();
}

/** What each outage says about the provider, for messages. */
export const OUTAGE_DETAIL: Record<TOutageKind, string> = {
  timeout: "timed out",
  "server-error": "answered with a server error",
  unreachable: "is unreachable",
  "circuit-open": "is not responding",
};

export interface IGuardedCallOptions<T> {
  /** The call's own abort signal: tells its timeout from a caller that gave up. */
  signal?: AbortSignal;
  /**
   * Where the trial call runs. "background" (steps with an offline path): the caller is answered
   * offline at once and `discard` releases the probe's result. "inline" (no offline path, e.g.
   * embeddings): the caller waits for the trial, bounded by its own timeout.
   */
  trial?: "background" | "inline";
  discard?: (value: T) => void;
}

/**
 * Runs one provider call under a breaker. Outages are rethrown as ProviderOutageError (cause
 * kept); other errors unchanged.
 */
export async function guardedCall<T>(
  breaker: CircuitBreaker,
  step: TProviderStep,
  call: () => PromiseLike<T>,
  { signal, trial = "background", discard }: IGuardedCallOptions<T> = {},
): Promise<T> {
  const permit = breaker.acquire();
  if (!permit) {
    const retryInMs = breaker.retryInMs();
    throw new ProviderOutageError(
      "circuit-open",
      step,
      `${OUTAGE_DETAIL["circuit-open"]}; calls paused for ${Math.ceil(retryInMs / 1000)} s`,
      retryInMs,
    );
  }
  const run = async (): Promise<T> => {
    try {
      const value = await call();
      permit.settle("success");
      return value;
    } catch (err) {
      const kind = classifyProviderError(err, signal);
      const outcome: TCallOutcome = kind === "aborted" ? "ignored" : kind ? "failure" : "success";
      permit.settle(outcome, kind ?? undefined);
      if (kind && kind !== "aborted")
        throw new ProviderOutageError(kind, step, OUTAGE_DETAIL[kind], null, err);
      throw err;
    }
  };
  if (!permit.trial || trial === "inline") return run();
  run().then(
    (value) => discard?.(value),
    () => undefined,
  );
  throw new ProviderOutageError(
    "circuit-open",
    step,
    `${OUTAGE_DETAIL["circuit-open"]}; probing it again in the background`,
    0,
  );
}

/** The current model specification (what `wrapLanguageModel` accepts). */
type TModelV3 = Parameters<typeof wrapLanguageModel>[0]["model"];

function breakerMiddleware(step: TProviderStep): LanguageModelMiddleware {
  return {
    specificationVersion: "v3",
    wrapGenerate: ({ doGenerate, params, model }) =>
      guardedCall(breakerFor(model.provider, model.modelId, step), step, doGenerate, {
        signal: params.abortSignal,
      }),
    wrapStream: ({ doStream, params, model }) =>
      guardedCall(breakerFor(model.provider, model.modelId, step), step, doStream, {
        signal: params.abortSignal,
        discard: (result) => void result.stream.cancel().catch(() => undefined),
      }),
  };
}

const guarded = new WeakMap<TModelV3, Map<TProviderStep, TModelV3>>();

/** The model behind this step's breaker (a string id or an older model spec is passed through). */
export function guardModel(model: LanguageModel, step: TProviderStep): LanguageModel {
  if (typeof model === "string" || model.specificationVersion !== "v3") return model;
  let byStep = guarded.get(model);
  if (!byStep) {
    byStep = new Map();
    guarded.set(model, byStep);
  }
  let wrapped = byStep.get(step);
  if (!wrapped) {
    wrapped = wrapLanguageModel({ model, middleware: breakerMiddleware(step) });
    byStep.set(step, wrapped);
  }
  return wrapped;
}
