import "server-only";
import { AppError } from "@/lib/errors";
import type { IGenerationDeps, IGenerationEvents, IGenerationResult } from "@/lib/generation/generate";
import type { IDryRun } from "@/lib/generation/slot/dry-run";
import type {
  IFillArgs,
  IGateArgs,
  IRunCore,
  IRunInputs,
  TAvailability,
} from "@/lib/generation/slot/offload";
import type { TGenerationRequest } from "@/schema/generation.schema";
import type { IExtractedDocument } from "@/types/chunk.types";
import type { IContextChunk } from "@/types/generation.types";
import type { EExportFormat, EExportPart, IPaper } from "@/types/paper.types";

/**
 * The CPU-heavy steps that run in the worker pool (lib/workers/pool.ts), by name. Each takes and
 * returns plain data (copied between threads). They call the same functions the request thread
 * used to call; the only thing added here is the cap on extracted text. Modules load on a task's
 * first use, so a worker that only extracts never loads the export libraries.
 */

/** What a task gets besides its arguments: events for the caller, and the caller's cancel. */
export interface ITaskContext {
  emit: (event: unknown) => void;
  signal: AbortSignal;
}

/** The offline generator's run, without the parts that cannot cross threads (model, signal). */
export interface IGenerateArgs {
  deps: Omit<IGenerationDeps, "model" | "signal">;
  chunks: readonly IContextChunk[];
  request: TGenerationRequest;
}

/** One call of the generation's event sink, replayed on the request thread. */
export type TGenerationEvent =
  | { type: "question"; args: Parameters<IGenerationEvents["question"]> }
  | { type: "progress"; args: Parameters<IGenerationEvents["progress"]> }
  | { type: "error"; args: Parameters<IGenerationEvents["error"]> };

async function generate(args: IGenerateArgs, ctx: ITaskContext): Promise<IGenerationResult> {
  const { runGeneration } = await import("@/lib/generation/generate");
  const { randomUUID } = await import("node:crypto");
  const send = (event: TGenerationEvent) => ctx.emit(event);
  return runGeneration(
    { ...args.deps, model: null, signal: ctx.signal },
    args.chunks,
    args.request,
    {
      question: (...a) => send({ type: "question", args: a }),
      progress: (...a) => send({ type: "progress", args: a }),
      error: (...a) => send({ type: "error", args: a }),
    },
    () => randomUUID(),
  );
}

/**
 * The offline parts of model-written sets (`lib/generation/slot/offload.ts`), kept per run in
 * the worker that built them: the first task of a run brings its inputs, the next ones only the
 * run's id. A worker that does not hold the run (replaced, or the run evicted) answers
 * `RUN_NOT_HELD` and the caller sends the inputs again. A few runs at a time (sets in parallel).
 */
const RUN_CACHE_SIZE = 6;
export const RUN_NOT_HELD = "The worker does not hold this generation run";
const runs = new Map<string, { core: IRunCore; inputs: IRunInputs }>();

interface IRunRef {
  runId: string;
  inputs?: IRunInputs;
}

async function heldRun(ref: IRunRef): Promise<{ core: IRunCore; inputs: IRunInputs }> {
  const held = runs.get(ref.runId);
  if (held) {
    // Most recently used last: the oldest run is evicted first.
    runs.delete(ref.runId);
    runs.set(ref.runId, held);
    return held;
  }
  if (!ref.inputs) throw new AppError("conflict", RUN_NOT_HELD);
  const { buildRunCore } = await import("@/lib/generation/slot/offload");
  const built = {
    core: buildRunCore(ref.inputs.chunks, ref.inputs.scope, ref.inputs.request),
    inputs: ref.inputs,
  };
  runs.set(ref.runId, built);
  while (runs.size > RUN_CACHE_SIZE) runs.delete(runs.keys().next().value as string);
  return built;
}

async function runPrepare(
  ref: IRunRef,
): Promise<{ available: TAvailability; reserveKeys: string[]; supported?: IDryRun }> {
  const { availabilityOf, dryRunOf } = await import("@/lib/generation/slot/offload");
  const { chunkKey } = await import("@/lib/generation/offline/knowledge/sentences");
  const { core, inputs } = await heldRun(ref);
  const prepared = { available: availabilityOf(core), reserveKeys: core.reserve.map(chunkKey) };
  return inputs.dryRun
    ? { ...prepared, supported: dryRunOf(core, inputs.request, inputs.maxCandidates) }
    : prepared;
}

async function runGate(args: IRunRef & { gate: IGateArgs }) {
  const { gateOffloaded } = await import("@/lib/generation/slot/offload");
  const { core, inputs } = await heldRun(args);
  return gateOffloaded(core, inputs, args.gate);
}

async function runFill(args: IRunRef & { fill: IFillArgs }) {
  const { fillOffline } = await import("@/lib/generation/slot/offload");
  const { core, inputs } = await heldRun(args);
  return fillOffline(core, inputs, args.fill);
}

/** About 8,000 pages of prose: a file that yields more text is refused before it is chunked. */
export const MAX_EXTRACTED_CHARS = 16_000_000;

async function extract(args: { bytes: Uint8Array; mime: string }): Promise<IExtractedDocument> {
  const { extractDocument } = await import("@/lib/ingestion/extract");
  const doc = await extractDocument(args.bytes, args.mime);
  const chars = doc.pages.reduce((n, p) => n + p.text.length, 0);
  if (chars > MAX_EXTRACTED_CHARS) {
    throw new AppError(
      "unprocessable",
      `The file holds ${Math.round(chars / 1e6)} million characters of text; the limit is ${MAX_EXTRACTED_CHARS / 1e6} million. Split it into smaller files`,
    );
  }
  return doc;
}

/** A batch of passages through the offline embedder (deterministic: the same vectors as inline). */
async function embed(args: { texts: string[] }): Promise<Float32Array[]> {
  const { embedOffline } = await import("@/lib/ai/embedder/offline");
  return args.texts.map(embedOffline);
}

export const TASKS = {
  extract,
  embed,
  chunk: async (doc: IExtractedDocument) =>
    (await import("@/lib/ingestion/zones")).chunkDocumentWithZones(doc),
  generate,
  runPrepare,
  runGate,
  runFill,
  /** The blueprint panel's table: the offline forms dry-run through the gate (`slot/support.ts`). */
  support: async (args: { chunks: readonly IContextChunk[]; scope: readonly IContextChunk[] }) =>
    (await import("@/lib/generation/slot/support")).supportOf(args.chunks, args.scope),
  export: async (args: { paper: IPaper; format: EExportFormat; part: EExportPart }) =>
    (await import("@/lib/papers/export")).exportPaper(args.paper, args.format, args.part),
  /** Tests and the benchmark: burns CPU (or memory) on purpose, to show it fails alone. */
  spin: async (args: { ms?: number; allocateMb?: number }) => {
    const end = Date.now() + (args.ms ?? 0);
    while (Date.now() < end) {
      // busy on purpose
    }
    const hold: number[][] = [];
    // 131,072 small integers: 1 MB of heap each.
    for (let i = 0; i < (args.allocateMb ?? 0); i++) hold.push(new Array<number>(131_072).fill(i));
    return hold.length;
  },
};

export type TTasks = typeof TASKS;
export type TTaskKind = keyof TTasks;
