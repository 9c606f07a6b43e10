import "server-only";
import { getEmbedder } from "@/lib/ai/embedder";
import { getConfig } from "@/lib/config/env";
import { getDb, STALE_INGESTION_MS } from "@/lib/db";
import { log } from "@/lib/log";
import { getStorage } from "@/lib/storage";
import { IngestionWorker } from "./worker";

/**
 * This process's consumer of the ingestion queue. Uploads are rows in `ingestions` (status
 * `queued`); the route answers 202 at once and kicks this worker, which processes them one at a
 * time on the embedded PGlite (a large book then does not starve retrieval requests of its single
 * connection) or a few at a time on PostgreSQL, where other instances and `npm run worker` share
 * the same queue. Queued uploads survive a restart: the worker finds them when it starts.
 */
const globalForQueue = globalThis as unknown as { __paperwiseWorker?: IngestionWorker };

function processWorker(): IngestionWorker | null {
  const config = getConfig();
  if (!config.ingestWorker.enabled) return null;
  if (!globalForQueue.__paperwiseWorker) {
    const postgres = config.database.kind === "postgres";
    globalForQueue.__paperwiseWorker = new IngestionWorker(
      async () => ({ db: await getDb(), storage: getStorage(), embedder: getEmbedder() }),
      {
        concurrency: postgres ? config.ingestWorker.concurrency : 1,
        // One embedded process queues everything itself (kicks); a shared database is polled.
        pollMs: postgres ? config.ingestWorker.pollMs : 0,
        staleAfterMs: postgres ? STALE_INGESTION_MS : null,
      },
    );
  }
  return globalForQueue.__paperwiseWorker;
}

/** Starts this process's worker (server start; idempotent). Off with PAPERWISE_INGEST_WORKER=off. */
export function startIngestionWorker(): void {
  const worker = processWorker();
  if (!worker || worker.running) return;
  worker.start();
  log.info("ingestion.worker_started", { worker: worker.id });
}

/**
 * An ingestion was queued (upload, retry): wake the worker. With this instance's worker off, a
 * worker elsewhere (`npm run worker`, another instance) polls the table and takes it.
 */
export function enqueueIngestion(_ingestionId: string): void {
  const worker = processWorker();
  if (!worker) return;
  if (!worker.running) startIngestionWorker();
  worker.kick();
}

/** Resolves when this process's worker has nothing left to claim (tests, graceful shutdown). */
export function drainIngestionQueue(): Promise<void> {
  return globalForQueue.__paperwiseWorker?.whenIdle() ?? Promise.resolve();
}

/** Stops this process's worker after the ingestions in progress (tests closing their database). */
export async function stopIngestionWorker(): Promise<void> {
  const worker = globalForQueue.__paperwiseWorker;
  globalForQueue.__paperwiseWorker = undefined;
  await worker?.stop();
}
