import type { LanguageModel } from "ai";
import type { TGenerationRequest } from "@/schema/generation.schema";
import type { EBloomLevel } from "@/types/bloom.types";
import type { IContextChunk, ISlot, TQuestion, TQuestionUpdate } from "@/types/generation.types";
import {
  type EGateProfile,
  gateQuestion,
  gradeFindings,
  type IGateContext,
  type IGateFinding,
  type IGateResult,
} from "../gate";
import { checkDuplicates } from "../gate/checks";
import type { IOfflineGenerator } from "../offline/generator";
import type { IRunOffload, TOpenOffload } from "./offload";

/**
 * One generation request as its slots see it: what the caller gives (`IGenerationDeps`,
 * `IGenerationEvents`), what the slots share while they are filled (`IRun`), and the few rules
 * every road applies the same way (the gate's reading of a candidate, the switch to offline).
 */

export interface IGenerationEvents {
  /** Every slot's card, in slot order, then its updates: generating → draft… → final | failed. */
  question(slot: ISlot, update: TQuestionUpdate): void;
  progress(done: number, total: number, message: string): void;
  error(code: string, message: string, slotId?: string): void;
}

export interface IGenerationDeps {
  model: LanguageModel | null;
  timeoutMs: number;
  /** Past-paper questions of the subject, for the few-shot strategy (style only). */
  exemplars?: string[];
  /** The chapter(s) the passages belong to: wrong options for the offline generator, never cited. */
  scope?: readonly IContextChunk[];
  /** Past-paper (PYQ) questions of the subject, offered where a slot stays empty. */
  pastQuestions?: readonly string[];
  /** Offline candidates the gate may read per slot before the slot is given up (default 40). */
  maxCandidates?: number;
  /** Slots the language model writes at once (default 6); the offline generator takes one at a time. */
  concurrency?: number;
  /** The teacher cancelled: model calls stop, no further slot starts, the result says so. */
  signal?: AbortSignal;
  /** The provider already failed in this request (the answerability check, `IEvidence`): start offline. */
  providerDown?: boolean;
  /**
   * With a model: where the run's offline parts (knowledge, the gate, the offline fallback) run.
   * The generation route passes the worker pool's (`lib/workers/generation.ts`); without it they
   * run here, in the caller's thread.
   */
  offload?: TOpenOffload;
}

/** Why a slot was left empty: counted gate findings, or the material the passages lack. */
export interface ISlotGap {
  slotId: string;
  type: ISlot["type"];
  level: EBloomLevel;
  reason: string;
  rejections: Partial<Record<IGateFinding["flag"], number>>;
}

export const PROVIDER_DOWN_MESSAGE =
  "The model provider is not responding, so the offline generator is answering for this set.";

export type TCounts = Partial<Record<IGateFinding["flag"], number>>;

/** What the slots of one request share. */
export interface IRun {
  deps: IGenerationDeps;
  request: TGenerationRequest;
  events: IGenerationEvents;
  chunks: readonly IContextChunk[];
  byKey: ReadonlyMap<string, IContextChunk>;
  offline: IOfflineGenerator;
  /** The selection plus the rest of its section, built on first need. */
  widened: () => IOfflineGenerator | null;
  reserveKeys: ReadonlySet<string>;
  gateCtx: IGateContext;
  exemplars: readonly string[];
  total: number;
  /** Accepted questions by slot id, in the order the gate accepted them. */
  accepted: Map<string, TQuestion>;
  warnings: string[];
  gaps: ISlotGap[];
  rejections: TCounts;
  sources: Set<"llm" | "offline">;
  /** Passage sentences offline questions already stand on. */
  used: Set<string>;
  llmFailures: number;
  providerDown: boolean;
  /** Aborted when the teacher cancels or the provider goes down: stops every model call in flight. */
  modelCalls: AbortController;
  /**
   * The run's offline parts elsewhere (`deps.offload`): then `offline` only answers `available`,
   * and the gate and the offline fallback are tasks (`gateDraft`, `offlineFallback`).
   */
  offload: IRunOffload | null;
}

/** What a run is given; `newRun` adds the state every run starts with. */
export type TRunSetup = Omit<
  IRun,
  | "accepted"
  | "used"
  | "warnings"
  | "gaps"
  | "rejections"
  | "sources"
  | "llmFailures"
  | "providerDown"
  | "modelCalls"
> &
  Partial<Pick<IRun, "accepted" | "used">>;

export function newRun(setup: TRunSetup): IRun {
  return {
    accepted: new Map(),
    used: new Set(),
    ...setup,
    warnings: [],
    gaps: [],
    rejections: {},
    sources: new Set(),
    llmFailures: 0,
    providerDown: false,
    modelCalls: new AbortController(),
  };
}

export const cancelled = (run: IRun) => run.deps.signal?.aborted === true;

/** Adds the findings that refused a candidate to the slot's (or the set's) counts. */
export function countRejections(into: TCounts, findings: readonly IGateFinding[]) {
  for (const f of findings) if (f.severity === "reject") into[f.flag] = (into[f.flag] ?? 0) + 1;
}

/**
 * The set as it is at this moment: slots written in parallel see each other's accepted questions.
 * A model draft is read under the `model` profile (only a wrong, unsupported, planted, broken or
 * out-of-scope question is refused; the rest are warnings on the card); the offline generator's
 * candidates under `strict`, as it proposes many and relies on the gate to drop its junk.
 */
export function gate(
  run: IRun,
  q: TQuestion,
  level: EBloomLevel,
  profile: EGateProfile = "strict",
): IGateResult {
  return gateQuestion(
    q,
    level,
    run.gateCtx,
    { accepted: [...run.accepted.values()], avoidPrompts: run.request.avoidPrompts ?? [] },
    { profile },
  );
}

/** `gate` where the run's gate lives: in the worker pool when the run is offloaded, else here. */
export function gateDraft(
  run: IRun,
  q: TQuestion,
  level: EBloomLevel,
  profile: EGateProfile = "strict",
): Promise<IGateResult> {
  if (!run.offload) return Promise.resolve(gate(run, q, level, profile));
  return gateOffloaded(run, run.offload, q, level, profile);
}

/**
 * The worker reads the draft against the set as it was when the draft was sent. Slots written in
 * parallel may have been accepted while it read: the draft is checked against those here (the
 * duplicate check only; it needs no passages), graded as the gate grades it, so that two parallel
 * slots still cannot ask the same fact — as when the gate ran here, between one acceptance and
 * the next.
 */
async function gateOffloaded(
  run: IRun,
  offload: IRunOffload,
  q: TQuestion,
  level: EBloomLevel,
  profile: EGateProfile,
): Promise<IGateResult> {
  const sent = [...run.accepted.values()];
  const verdict = await offload.gate({ question: q, level, profile, accepted: sent });
  const since = acceptedSince(run, sent);
  const dup = since.length > 0 ? checkDuplicates(q, { accepted: since }) : [];
  if (dup.length === 0) return verdict;
  // The new duplicate findings ahead of the worker's own, graded as the gate grades them.
  const findings = gradeFindings(
    [
      ...verdict.findings.filter((f) => f.flag !== "duplicate_fact"),
      ...dup,
      ...verdict.findings.filter((f) => f.flag === "duplicate_fact"),
    ],
    profile,
  );
  return { ...verdict, passed: findings.every((f) => f.severity !== "reject"), findings };
}

/** Questions the set accepted after `sent` was taken (slots run in parallel). */
export function acceptedSince(run: IRun, sent: readonly TQuestion[]): TQuestion[] {
  return [...run.accepted.values()].filter((a) => !sent.includes(a));
}

/** A question the gate passed, with the gate's reading on it (its warnings, its demand). */
export function accepted(
  q: TQuestion,
  result: IGateResult,
  level: EBloomLevel,
  regenerated: boolean,
): TQuestion {
  return {
    ...q,
    validation: {
      citationsOk: true,
      supported: true,
      bloomAgreed: result.demand === level,
      regenerated,
      flags: result.findings.filter((f) => f.severity === "warn").map((f) => `${f.flag}: ${f.message}`),
      demand: result.demand,
    },
  };
}

/**
 * The first provider outage (timeout, 5xx, open breaker) sends every remaining slot of the
 * request offline without another wait, stops the calls other slots still have in flight (they
 * wait on the same provider), and is reported once.
 */
export function switchToOffline(run: IRun): void {
  if (run.providerDown) return;
  run.providerDown = true;
  run.modelCalls.abort(new DOMException("the request went offline", "AbortError"));
  run.events.error("llm_unavailable", PROVIDER_DOWN_MESSAGE);
  run.warnings.push(PROVIDER_DOWN_MESSAGE);
}
