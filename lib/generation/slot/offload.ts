import { QUESTION_TYPES } from "@/schema/enums.schema";
import type { TBlueprint, TGenerationRequest } from "@/schema/generation.schema";
import { BLOOM_LEVELS, type EBloomLevel } from "@/types/bloom.types";
import type { EQuestionType, IContextChunk, ISlot, TQuestion } from "@/types/generation.types";
import {
  createGateContext,
  type EGateProfile,
  gateQuestion,
  type IGateContext,
  type IGateResult,
} from "../gate";
import { createOfflineGenerator, type IOfflineGenerator } from "../offline/generator";
import { chunkKey, mainSections } from "../offline/knowledge/sentences";
import { mainDocuments, phraseIndex, sectionReserve } from "../passages";
import { plannedCells } from "../plan";
import { searchOffline } from "./choose";
import { dryRun, type IDryRun } from "./dry-run";
import { newRun, type TCounts } from "./request";
import { substitute } from "./substitute";

/**
 * The offline parts of a model-written set — the knowledge the offline generator builds, the
 * gate's reading of each draft, the offline fallback for a slot whose drafts were refused — as
 * plain-data steps, so that `lib/workers` can run them off the request thread (issue 26). The
 * request thread keeps the model calls, the breakers and the stream; it sends the run's inputs
 * once (`IRunInputs`), then per draft or per slot only what changed (the accepted questions, the
 * passage sentences used). The worker keeps each run's built state (`IRunCore`) keyed by run id.
 */

/** What a run's offline state is built from (copied to the worker once per run). */
export interface IRunInputs {
  chunks: readonly IContextChunk[];
  scope: readonly IContextChunk[];
  request: TGenerationRequest;
  maxCandidates?: number;
  /** Plan the set offline (the provider is down): run the dry run there and send its counts back. */
  dryRun?: boolean;
}

/** The run's offline state: generators (the selection; the section, on first need) and the gate's context. */
export interface IRunCore {
  offline: IOfflineGenerator;
  widened: () => IOfflineGenerator | null;
  reserve: IContextChunk[];
  reserveKeys: ReadonlySet<string>;
  gateCtx: IGateContext;
}

/** Builds the knowledge and the gate's context of a run (the CPU-heavy start of a set). */
export function buildRunCore(
  chunks: readonly IContextChunk[],
  scope: readonly IContextChunk[],
  request: Pick<TGenerationRequest, "seed" | "topic" | "useSection">,
  /** The selection's generator when the caller already built it for the same seed and topic. */
  built?: IOfflineGenerator,
): IRunCore {
  const seed = request.seed ?? 1;
  const topic = mainSections(chunks, request.topic);
  const offline = built ?? createOfflineGenerator(chunks, seed, scope, topic);
  // The rest of the selected passages' own section(s), when the teacher asks for it: drawn on only
  // for a slot the selection cannot fill, and said so. By default questions cite the selection only.
  const reserve = request.useSection ? sectionReserve(chunks, scope, topic) : [];
  // Built on first need: most sets never draw on the reserve.
  let widenedGenerator: IOfflineGenerator | null | undefined;
  const widened = () => {
    if (widenedGenerator === undefined)
      widenedGenerator =
        reserve.length > 0 ? createOfflineGenerator([...chunks, ...reserve], seed, scope, topic) : null;
    return widenedGenerator;
  };
  return {
    offline,
    widened,
    reserve,
    reserveKeys: new Set(reserve.map(chunkKey)),
    gateCtx: createGateContext([...chunks, ...reserve], {
      selected: chunks.map(chunkKey),
      scopeDocuments: mainDocuments(chunks),
      scopeSections: [...topic],
      knownPhrase: phraseIndex([...chunks, ...scope]),
    }),
  };
}

/** How much material the selection holds, per type and level: what planning and empty slots read. */
export type TAvailability = Record<EQuestionType, Record<EBloomLevel, number>>;

export function availabilityOf(core: IRunCore): TAvailability {
  return Object.fromEntries(
    QUESTION_TYPES.map((t) => [
      t,
      Object.fromEntries(BLOOM_LEVELS.map((l) => [l, core.offline.available(t, l)])),
    ]),
  ) as TAvailability;
}

/**
 * The run's dry run (`dry-run.ts`): candidates that pass the gate per type and level, on the
 * selection's own generator. Not on the section's reserve (`useSection`): that would build the
 * widened knowledge before the first question (673 ms p50 of dry run on held-out Physics with the
 * section, against 255 ms without); the reserve still fills what the selection cannot.
 */
export function dryRunOf(
  core: IRunCore,
  request: Pick<TGenerationRequest, "seed" | "avoidPrompts"> & { blueprint?: TBlueprint },
  maxCandidates?: number,
): IDryRun {
  return dryRun(core.offline, core.gateCtx, {
    // A set's dry run covers only the cells its plan can use; the panel's, every cell.
    ...(request.blueprint ? { cells: plannedCells(request.blueprint) } : {}),
    seed: request.seed ?? 1,
    avoidPrompts: request.avoidPrompts ?? [],
    ...(maxCandidates ? { maxCandidates } : {}),
  });
}

/**
 * An offline generator whose knowledge lives in the worker: it answers `available` from the table
 * the worker sent; its candidates are searched there (`fillOffline`), never here.
 */
export function availabilityGenerator(table: TAvailability): IOfflineGenerator {
  return {
    get kb(): never {
      throw new Error("the offline knowledge of this run is built in the worker pool");
    },
    available: (type, level) => table[type]?.[level] ?? 0,
    candidates: () => {
      throw new Error("the offline candidates of this run are searched in the worker pool");
    },
  };
}

export interface IGateArgs {
  question: TQuestion;
  level: EBloomLevel;
  profile: EGateProfile;
  /** The set's accepted questions when the draft was read (parallel slots must not repeat a fact). */
  accepted: TQuestion[];
}

/** The gate's reading of one draft against the set as it is. */
export function gateOffloaded(core: IRunCore, inputs: IRunInputs, args: IGateArgs): IGateResult {
  return gateQuestion(
    args.question,
    args.level,
    core.gateCtx,
    { accepted: args.accepted, avoidPrompts: inputs.request.avoidPrompts ?? [] },
    { profile: args.profile },
  );
}

export interface IFillArgs {
  slot: ISlot;
  keyAt: number;
  refused: TCounts;
  regenerated: boolean;
  /** Passage sentences (and form uses) the set's questions already stand on. */
  used: string[];
  accepted: TQuestion[];
  /** A nearer level may stand in when nothing passes at the slot's (not with strict levels). */
  substitute: boolean;
}

export interface IFillResult {
  chosen: TQuestion | null;
  /** The slot's refusal counts after the search (those it came with included). */
  refused: TCounts;
  /** `used` after the search. */
  used: string[];
  warnings: string[];
}

/** The offline fallback of one slot: `searchOffline`, then `substitute`, on the worker's state. */
export function fillOffline(core: IRunCore, inputs: IRunInputs, args: IFillArgs): IFillResult {
  const run = newRun({
    deps: {
      model: null,
      timeoutMs: 0,
      ...(inputs.maxCandidates ? { maxCandidates: inputs.maxCandidates } : {}),
    },
    request: inputs.request,
    events: { question: () => undefined, progress: () => undefined, error: () => undefined },
    chunks: inputs.chunks,
    byKey: new Map(),
    offline: core.offline,
    widened: core.widened,
    reserveKeys: core.reserveKeys,
    gateCtx: core.gateCtx,
    exemplars: [],
    total: 0,
    accepted: new Map(args.accepted.map((q, i) => [String(i), q])),
    used: new Set(args.used),
    offload: null,
  });
  const refused: TCounts = { ...args.refused };
  let chosen = searchOffline(run, args.slot, args.keyAt, refused, args.regenerated);
  if (!chosen && args.substitute) chosen = substitute(run, args.slot, args.keyAt);
  return { chosen, refused, used: [...run.used], warnings: run.warnings };
}

/** The request thread's handle on a run whose offline parts run elsewhere (the worker pool). */
export interface IRunOffload {
  available: TAvailability;
  /** The dry run's counts, when the inputs asked for it (`dryRun`). */
  supported?: IDryRun;
  /** Keys of the section's reserve passages (`useSection`), which the result lists after the selection. */
  reserveKeys: string[];
  gate(args: IGateArgs): Promise<IGateResult>;
  fill(args: IFillArgs): Promise<IFillResult>;
}

/** Opens a run's offload (builds its state where it runs); given by `lib/workers/generation.ts`. */
export type TOpenOffload = (inputs: IRunInputs) => Promise<IRunOffload>;
