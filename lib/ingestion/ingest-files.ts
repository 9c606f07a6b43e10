import "server-only";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { IDatabase } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { IObjectStorage } from "@/lib/storage";
import { ResourceMetadataSchema, type TResourceMetadataInput } from "@/schema/resources.schema";
import type { IEmbedder } from "@/types/chunk.types";
import { planFiles } from "./manifest";
import { type IProgressEvent, processIngestion, registerUpload } from "./pipeline";
import type { IIngestionRow } from "./store";

export interface IIngestFilesParams {
  userId: string;
  inputs: string[];
  /** Flags override nothing the manifest names; they fill what it leaves out. */
  defaults: Partial<TResourceMetadataInput>;
  maxBytes: number;
  onFileStart?: (file: string, index: number, total: number) => void;
  onProgress?: (e: IProgressEvent) => void;
}

export interface IIngestFileResult {
  file: string;
  ingestion?: IIngestionRow;
  duplicate: boolean;
  error?: string;
}

/** Ingests files and folders in-process (CLI, demo seed, eval). One bad file does not stop the rest. */
export async function ingestFiles(
  db: IDatabase,
  storage: IObjectStorage,
  embedder: IEmbedder,
  p: IIngestFilesParams,
): Promise<IIngestFileResult[]> {
  const planned = await planFiles(p.inputs);
  const results: IIngestFileResult[] = [];
  for (const [i, item] of planned.entries()) {
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
      });
      const done = duplicate
        ? ingestion
        : await processIngestion(db, storage, embedder, ingestion.id, { onProgress: p.onProgress });
      results.push({
        file: item.file,
        ingestion: done,
        duplicate,
        error: done.status === "failed" ? (done.error ?? "failed") : undefined,
      });
    } catch (err) {
      const message =
        err instanceof AppError ? err.message : err instanceof Error ? err.message : String(err);
      results.push({ file: item.file, duplicate: false, error: message });
    }
  }
  return results;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
