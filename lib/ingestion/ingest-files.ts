import "server-only";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { IDatabase } from "@/lib/db";
import { runInBackground } from "@/lib/db/background";
import { AppError } from "@/lib/errors";
import type { IObjectStorage } from "@/lib/storage";
import { ResourceMetadataSchema, type TResourceMetadataInput } from "@/schema/resources.schema";
import type { IEmbedder } from "@/types/chunk.types";
import { planFiles } from "./manifest";
import {
  ANALYZE_MIN_CHUNKS,
  analyzeChunkTables,
  type IProgressEvent,
  processIngestion,
  registerUpload,
} from "./pipeline";
import type { IIngestionRow } from "./store";
import { workerId } from "./worker";

export interface IIngestFilesParams {
  userId: string;
  inputs: string[];
  /** Flags override nothing the manifest names; they fill what it leaves out. */
  defaults: Partial<TResourceMetadataInput>;
  maxBytes: number;
  /**
   * Files in flight at once. On PostgreSQL two overlap well: the server stores one file's chunks
   * while this process extracts and embeds the next (PGlite runs in this thread: 1).
   */
  concurrency?: number;
  onFileStart?: (file: string, index: number, total: number) => void;
  onProgress?: (e: IProgressEvent, file: string) => void;
}

export interface IIngestFileResult {
  file: string;
  ingestion?: IIngestionRow;
  duplicate: boolean;
  error?: string;
}

/**
 * Ingests files and folders in this process (CLI, demo seed, eval), not through the queue: each
 * ingestion is claimed for this process as it is registered. One bad file does not stop the rest;
 * results come back in the files' order.
 */
export async function ingestFiles(
  db: IDatabase,
  storage: IObjectStorage,
  embedder: IEmbedder,
  p: IIngestFilesParams,
): Promise<IIngestFileResult[]> {
  const planned = await planFiles(p.inputs);
  const results: IIngestFileResult[] = new Array(planned.length);
  const self = workerId();
  const one = async (i: number): Promise<IIngestFileResult> => {
    const item = planned[i]!;
    p.onFileStart?.(item.file, i, planned.length);
    try {
      const metadata = ResourceMetadataSchema.parse({ ...p.defaults, ...stripUndefined(item.metadata) });
      const bytes = new Uint8Array(await readFile(item.file));
      const { ingestion, duplicate } = await registerUpload(db, storage, {
        userId: p.userId,
        filename: path.basename(item.file),
        bytes,
        metadata,
        maxBytes: p.maxBytes,
        claimFor: self,
      });
      const done = duplicate
        ? ingestion
        : await processIngestion(db, storage, embedder, ingestion.id, {
            onProgress: (e) => p.onProgress?.(e, item.file),
          });
      return {
        file: item.file,
        ingestion: done,
        duplicate,
        error: done.status === "failed" ? (done.error ?? "failed") : undefined,
      };
    } catch (err) {
      const message =
        err instanceof AppError ? err.message : err instanceof Error ? err.message : String(err);
      return { file: item.file, duplicate: false, error: message };
    }
  };
  let next = 0;
  const lanes = Math.max(1, Math.min(p.concurrency ?? 1, planned.length));
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < planned.length) {
        const i = next++;
        // All of it is background work: requests (a server seeding its demo) go first.
        results[i] = await runInBackground(() => one(i));
      }
    }),
  );
  // A folder of chapters is a large load even when no chapter reaches the size that refreshes the
  // statistics on its own (Biology 2e: 47 files of about 65 chunks): refresh them once at the end.
  const unanalyzed = results.reduce((n, r) => {
    const chunks = !r.duplicate && r.ingestion?.status === "ready" ? (r.ingestion.chunk_count ?? 0) : 0;
    return chunks < ANALYZE_MIN_CHUNKS ? n + chunks : n;
  }, 0);
  if (unanalyzed >= ANALYZE_MIN_CHUNKS) await runInBackground(() => analyzeChunkTables(db));
  return results;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
