import "server-only";
import { getConfig } from "@/lib/config/env";
import { migrate } from "./migrate";
import { openPglite } from "./pglite";
import { openPostgres } from "./postgres";
import type { IDatabase } from "./types";

export type { IDatabase, ISqlExecutor } from "./types";

const globalForDb = globalThis as unknown as { __paperwiseDb?: Promise<IDatabase> };

async function open(): Promise<IDatabase> {
  const config = getConfig();
  const db =
    config.database.kind === "pglite"
      ? await openPglite(config.database.dir)
      : openPostgres(config.database.url);
  // Embedded mode migrates and seeds on start; against DATABASE_URL, `npm run db:migrate` does.
  if (db.kind === "pglite") {
    await migrate(db);
    const { bootstrapEmbedded } = await import("@/lib/bootstrap");
    await bootstrapEmbedded(db);
  }
  return db;
}

/**
 * The process-wide database, kept on globalThis so dev reloads reuse it (one PGlite per data
 * directory). A failed open is not cached: the next call tries again.
 */
export function getDb(): Promise<IDatabase> {
  if (!globalForDb.__paperwiseDb) {
    const pending = open().catch((err) => {
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
