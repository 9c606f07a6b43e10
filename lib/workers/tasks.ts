import "server-only";
import { AppError } from "@/lib/errors";
import type { IGenerationDeps, IGenerationEvents, IGenerationResult } from "@/lib/generation/generate";
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
