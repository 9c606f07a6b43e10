import "server-only";
import { getConfig } from "@/lib/config/env";
import { migrate } from "./migrate";
import { openPglite } from "./pglite";
import { openPostgres } from "./postgres";
import type { IDatabase } from "./types";

export type { IDatabase, ISqlExecutor } from "./types";

/** An unfinished ingestion untouched this long on a shared Postgres was left by a dead instance. */
export const STALE_INGESTION_MS = 15 * 60_000;

const globalForDb = globalThis as unknown as { __paperwiseDb?: Promise<IDatabase> };

export interface IOpenDatabaseOptions {
  /**
   * What a server start does besides migrating: requeue ingestions a dead process left behind and,
   * embedded, seed an empty database with the demo. The accounts CLI opens without it, so the
   * first account a school creates is its own and no demo data follows it.
   */
  bootstrap?: boolean;
}

/** Opens the configured database (PGlite data dir or DATABASE_URL) with what a start needs. */
export async function openDatabase({ bootstrap = true }: IOpenDatabaseOptions = {}): Promise<IDatabase> {
  const config = getConfig();
  const db =
    config.database.kind === "pglite"
      ? await openPglite(config.database.dir)
      : openPostgres(config.database.url);
  // Embedded mode migrates (and seeds) on start; against DATABASE_URL, `npm run db:migrate` does.
  if (db.kind === "pglite") {
    try {
      await migrate(db);
      if (bootstrap) {
        const { bootstrapEmbedded } = await import("@/lib/bootstrap");
        await bootstrapEmbedded(db);
      }
    } catch (err) {
      // A half-opened PGlite would keep its lock file and the process alive.
      await db.close().catch(() => undefined);
      throw err;
    }
  } else if (bootstrap) {
    // Another instance may be mid-way through an ingestion: only long-idle ones are dead.
    const { recoverInterruptedIngestions } = await import("@/lib/ingestion/store");
    const { describeError, log } = await import("@/lib/log");
    // A failed sweep must not stop the app from serving; it is logged and tried again by the
    // workers (every minute) and at the next start.
    const interrupted = await recoverInterruptedIngestions(db, { staleAfterMs: STALE_INGESTION_MS }).catch(
      (err: unknown) => {
        log.warn("ingestion.sweep_failed", { error: describeError(err) });
        return { requeued: 0, failed: 0 };
      },
    );
    if (interrupted.requeued + interrupted.failed > 0) log.warn("ingestion.interrupted", { ...interrupted });
  }
  return db;
}

/**
 * The process-wide database, kept on globalThis so dev reloads reuse it (one PGlite per data
 * directory). A failed open is not cached: the next call tries again.
 */
export function getDb(): Promise<IDatabase> {
  if (!globalForDb.__paperwiseDb) {
    const pending = openDatabase().catch((err) => {
      globalForDb.__paperwiseDb = undefined;
      throw err;
    });
    globalForDb.__paperwiseDb = pending;
  }
  return globalForDb.__paperwiseDb;
}

/** Replaces the process database (tests, CLIs that open their own). */
export function setDbForProcess(db: IDatabase | undefined): void {
  globalForDb.__paperwiseDb = db ? Promise.resolve(db) : undefined;
}

/**
 * Closes the process database if one was opened (CLIs, on every exit path): an open postgres.js
 * pool or PGlite would otherwise keep a finished command running.
 */
export async function closeDb(): Promise<void> {
  const pending = globalForDb.__paperwiseDb;
  globalForDb.__paperwiseDb = undefined;
  const db = await pending?.catch(() => undefined);
  await db?.close();
}
