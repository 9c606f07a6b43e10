import "server-only";
import { type IDatabase, onDatabaseStart, STALE_INGESTION_MS } from "@/lib/db";
import { recoverInterruptedIngestions } from "@/lib/ingestion/store";
import { describeError, log } from "@/lib/log";

async function startTask(db: IDatabase): Promise<void> {
  if (db.kind === "pglite") {
    // Loaded on first start only: the demo seeding pulls in ingestion and the embedder.
    const { bootstrapEmbedded } = await import("@/lib/bootstrap");
    await bootstrapEmbedded(db);
    return;
  }
  // Another instance may be mid-way through an ingestion: only long-idle ones are dead; they go
  // back to the queue (or fail after repeated interruptions). A failed sweep must not stop the app
  // from serving; it is logged and tried again by the workers (every minute) and at the next start.
  const interrupted = await recoverInterruptedIngestions(db, { staleAfterMs: STALE_INGESTION_MS }).catch(
    (err: unknown) => {
      log.warn("ingestion.sweep_failed", { error: describeError(err) });
      return { requeued: 0, failed: 0 };
    },
  );
  if (interrupted.requeued + interrupted.failed > 0) log.warn("ingestion.interrupted", { ...interrupted });
}

/**
 * What a server (or a CLI that acts like one) does when it opens the process database: embedded,
 * seed an empty database with the demo and put ingestions a killed process left behind back in the
 * queue; on a shared Postgres, only long-idle ones. Called from instrumentation.ts and the CLIs.
 */
export function registerStartTasks(): void {
  onDatabaseStart("paperwise.start", startTask);
}
