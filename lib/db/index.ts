import "server-only";
import { getConfig } from "@/lib/config/env";
import { migrate } from "./migrate";
import { openPglite } from "./pglite";
import { openPostgres } from "./postgres";
import type { IDatabase, ISqlExecutor } from "./types";

export type { IDatabase, ISqlExecutor } from "./types";

/** An unfinished ingestion untouched this long on a shared Postgres was left by a dead instance. */
export const STALE_INGESTION_MS = 15 * 60_000;

const globalForDb = globalThis as unknown as { __paperwiseDb?: Promise<IDatabase> };

export interface IOpenDatabaseOptions {
  /**
   * Whether the start tasks registered with `onDatabaseStart` run (a server start: fail ingestions
   * a dead process left behind and, embedded, seed an empty database with the demo). The accounts
   * CLI opens without them, so the first account a school creates is its own and no demo data
   * follows it.
   */
  bootstrap?: boolean;
}

/** What runs once a database is open and migrated; the database layer only knows the signature. */
export type TDatabaseStartTask = (db: IDatabase) => Promise<void>;

// On globalThis with a name per task, so a dev reload replaces a task instead of adding it twice.
const globalForStart = globalThis as unknown as { __paperwiseStartTasks?: Map<string, TDatabaseStartTask> };

/**
 * Registers a task for every start that opens the process database (lib/start.ts registers the
 * demo seeding and the sweep of interrupted ingestions). Kept out of this module so the database
 * layer does not import ingestion, which imports the database.
 */
export function onDatabaseStart(name: string, task: TDatabaseStartTask): void {
  globalForStart.__paperwiseStartTasks ??= new Map();
  globalForStart.__paperwiseStartTasks.set(name, task);
}

/** Opens the configured database (PGlite data dir or DATABASE_URL) with what a start needs. */
export async function openDatabase({ bootstrap = true }: IOpenDatabaseOptions = {}): Promise<IDatabase> {
  const config = getConfig();
  const db =
    config.database.kind === "pglite"
      ? await openPglite(config.database.dir)
      : openPostgres(config.database.url, {
          max: config.database.pool,
          readUrl: config.database.readUrl,
          readMax: config.database.readPool,
        });
  try {
    // Embedded mode migrates on start; against DATABASE_URL, `npm run db:migrate` does.
    if (db.kind === "pglite") await migrate(db);
    if (bootstrap) for (const task of globalForStart.__paperwiseStartTasks?.values() ?? []) await task(db);
  } catch (err) {
    // A half-opened PGlite would keep its lock file and the process alive.
    if (db.kind === "pglite") await db.close().catch(() => undefined);
    throw err;
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

/** Readiness for the health route: the process database opens (migrated) and answers a statement. */
export async function databaseReady(): Promise<IDatabase["kind"]> {
  const db = await getDb();
  await db.query("select 1");
  return db.kind;
}

/**
 * The executor for read-only work (retrieval, facets, listings, page queries): the read replica's
 * pool with DATABASE_READ_URL, else the one database. Never write through it, and read what the
 * same request has just written from `getDb()` (a replica may lag behind the primary).
 */
export async function getReadDb(): Promise<ISqlExecutor> {
  return (await getDb()).read;
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
