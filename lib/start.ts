import "server-only";
import { type IDatabase, onDatabaseStart } from "@/lib/db";
import { failInterruptedIngestions } from "@/lib/ingestion/store";
import { describeError, log } from "@/lib/log";

/** An unfinished ingestion untouched this long on a shared Postgres was left by a dead instance. */
export const STALE_INGESTION_MS = 15 * 60_000;

async function startTask(db: IDatabase): Promise<void> {
  if (db.kind === "pglite") {
    // Loaded on first start only: the demo seeding pulls in ingestion and the embedder.
    const { bootstrapEmbedded } = await import("@/lib/bootstrap");
    await bootstrapEmbedded(db);
    return;
  }
  // Another instance may be mid-way through an ingestion: only long-idle ones are dead. A failed
  // sweep must not stop the app from serving; it is logged and tried at the next start.
  const interrupted = await failInterruptedIngestions(db, { staleAfterMs: STALE_INGESTION_MS }).catch(
    (err: unknown) => {
      log.warn("ingestion.sweep_failed", { error: describeError(err) });
      return 0;
    },
  );
  if (interrupted > 0) log.warn("ingestion.interrupted", { count: interrupted });
}

/**
 * What a server (or a CLI that acts like one) does when it opens the process database: embedded,
 * seed an empty database with the demo and fail ingestions a killed process left behind; on a
 * shared Postgres, fail only long-idle ones. Called from instrumentation.ts and the CLIs.
 */
export function registerStartTasks(): void {
  onDatabaseStart("paperwise.start", startTask);
}
