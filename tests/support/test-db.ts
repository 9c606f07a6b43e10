import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { migrate } from "@/lib/db/migrate";
import { openPglite } from "@/lib/db/pglite";
import { openPostgres } from "@/lib/db/postgres";
import type { IDatabase } from "@/lib/db/types";

/**
 * The one database abstraction of the test suites. The Vitest project decides which database a
 * test file gets (vitest.config.ts sets PAPERWISE_TEST_DB): a fresh PGlite (embedded mode), or a
 * fresh database on the real PostgreSQL + pgvector server at PAPERWISE_TEST_POSTGRES_URL (the
 * production path). Suites written against it run unchanged on both.
 */
export type TTestDbKind = "pglite" | "postgres";

export function testDbKind(): TTestDbKind {
  return process.env.PAPERWISE_TEST_DB === "postgres" ? "postgres" : "pglite";
}

export interface ITestDatabase {
  readonly kind: TTestDbKind;
  /** Open and empty (migrated unless asked otherwise). */
  readonly db: IDatabase;
  /**
   * Where another connection or process finds this same database: a PGlite data directory, or a
   * postgres:// URL. `open(location)` opens it.
   */
  readonly location: string;
  /** Environment a spawned CLI needs to reach this database (with PAPERWISE_DATA_DIR for files). */
  readonly env: Record<string, string>;
  /** Closes `db` (if still open) and removes the database. */
  dispose(): Promise<void>;
}

function adminUrl(): string {
  const url = process.env.PAPERWISE_TEST_POSTGRES_URL;
  if (!url) {
    throw new Error(
      "PAPERWISE_TEST_DB=postgres needs PAPERWISE_TEST_POSTGRES_URL (a server with pgvector; npm test starts one)",
    );
  }
  return url;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function asAdmin<T>(fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(adminUrl(), { max: 1, onnotice: () => {} });
  try {
    return await fn(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Opens a database found at a location from `ITestDatabase.location`. */
export function open(location: string): Promise<IDatabase> {
  return /^postgres(ql)?:\/\//.test(location)
    ? Promise.resolve(openPostgres(location))
    : openPglite(location);
}

/**
 * A fresh database of the kind this test run uses, migrated unless `migrate: false`. PGlite lives in memory unless `dir`
 * is given (tests that hand the database to a child process need it on disk); on Postgres every
 * call creates its own database on the server, so test files never share rows.
 */
export async function createTestDatabase(
  opts: { dir?: string; migrate?: boolean } = {},
): Promise<ITestDatabase> {
  const migrated = opts.migrate ?? true;
  if (testDbKind() === "pglite") {
    const db = closeOnce(await openPglite(opts.dir));
    if (migrated) await migrate(db);
    // An empty DATABASE_URL counts as unset: a developer's own must not redirect a spawned CLI.
    return {
      kind: "pglite",
      db,
      location: opts.dir ?? "",
      env: { DATABASE_URL: "" },
      dispose: () => db.close(),
    };
  }
  const name = `paperwise_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  await asAdmin((sql) => sql.unsafe(`create database "${name}"`));
  const url = withDatabase(adminUrl(), name);
  const db = closeOnce(openPostgres(url));
  // The server database starts empty but for pgvector, as `npm run db:migrate` finds it.
  await db.exec("create extension if not exists vector");
  if (migrated) await migrate(db);
  return {
    kind: "postgres",
    db,
    location: url,
    env: { DATABASE_URL: url },
    dispose: async () => {
      await db.close();
      // with (force) ends connections a killed child left behind (PostgreSQL 13+).
      await asAdmin((sql) => sql.unsafe(`drop database if exists "${name}" with (force)`));
    },
  };
}

/** A test may close the database itself (to hand it to a child) and dispose of it later. */
function closeOnce(db: IDatabase): IDatabase {
  let closing: Promise<void> | null = null;
  return {
    ...db,
    close: () => {
      closing ??= db.close();
      return closing;
    },
  };
}

/**
 * A handle on a database that cannot be reached: a closed PGlite, or a Postgres URL where no
 * server listens (connection refused), for the "database unavailable" paths.
 */
export async function unreachableDatabase(): Promise<IDatabase> {
  if (testDbKind() === "pglite") {
    const dead = await openPglite();
    await dead.close();
    return dead;
  }
  // Port 1 on loopback: nothing listens there, so every query fails with ECONNREFUSED.
  return openPostgres(withDatabase("postgres://postgres@127.0.0.1:1/", "paperwise"));
}
