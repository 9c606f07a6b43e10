import "server-only";
import { getEmbedder } from "@/lib/ai/embedder";
import { getDb } from "@/lib/db";
import { describeError, log } from "@/lib/log";
import { getStorage } from "@/lib/storage";
import { processIngestion } from "./pipeline";

/**
 * In-process background queue: uploads answer at once (202) and are processed one at a time,
 * so a large book does not starve retrieval requests of the single embedded database.
 */
const globalForQueue = globalThis as unknown as { __paperwiseQueue?: Promise<void> };

export function enqueueIngestion(ingestionId: string): void {
  const previous = globalForQueue.__paperwiseQueue ?? Promise.resolve();
  globalForQueue.__paperwiseQueue = previous.then(async () => {
    try {
      await processIngestion(await getDb(), getStorage(), getEmbedder(), ingestionId);
    } catch (err) {
      log.error("ingestion.queue_failed", { ingestionId, error: describeError(err) });
    }
  });
}

/** Resolves when everything queued so far has been processed (tests, graceful shutdown). */
export function drainIngestionQueue(): Promise<void> {
  return globalForQueue.__paperwiseQueue ?? Promise.resolve();
}
