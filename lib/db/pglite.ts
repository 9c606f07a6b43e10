import "server-only";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { AppError } from "@/lib/errors";
import { encodeBinaryCopy } from "./copy-binary";
import type { ICopyColumn, IDatabase, ISqlExecutor } from "./types";

type TPgliteLike = Pick<PGlite, "query" | "exec"> | Transaction;

function executor(target: TPgliteLike): ISqlExecutor {
  return {
    async query<T>(sql: string, params: unknown[] = []) {
      const res = await target.query<T>(sql, params);
      return res.rows;
    },
    async exec(sql: string) {
      await target.exec(sql);
    },
    async copyRows(table: string, columns: readonly ICopyColumn[], rows: readonly unknown[][]) {
      if (rows.length === 0) return;
      const blob = new Blob([new Uint8Array(encodeBinaryCopy(columns, rows))]);
      const cols = columns.map((c) => `"${c.name}"`).join(", ");
      await target.query(`COPY ${table} (${cols}) FROM '/dev/blob' WITH (FORMAT binary)`, [], { blob });
    },
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Another live process (the app server?) holds the embedded database: each CLI says what to do. */
export class DatabaseInUseError extends AppError {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super("unavailable", `The embedded database at ${dir} is in use by process ${pid} (the app server?)`);
    this.name = "DatabaseInUseError";
  }
}

/**
 * PGlite does not lock its directory, and two processes on one directory lose writes. A pid
 * lock file turns that into a clear error.
 */
async function acquireLock(dir: string): Promise<string> {
  const lock = path.join(dir, "..", `${path.basename(dir)}.lock`);
  const held = Number((await readFile(lock, "utf8").catch(() => "")).trim());
  if (held && held !== process.pid && isAlive(held)) throw new DatabaseInUseError(dir, held);
  await writeFile(lock, String(process.pid));
  return lock;
}

/** Opens (or creates) an embedded Postgres with pgvector. `dir` undefined → in memory. */
export async function openPglite(dir?: string): Promise<IDatabase> {
  let lock: string | null = null;
  if (dir) {
    await mkdir(dir, { recursive: true });
    lock = await acquireLock(dir);
  }
  const db = dir
    ? await PGlite.create(dir, { extensions: { vector } })
    : await PGlite.create({ extensions: { vector } });
  const base = executor(db);
  return {
    kind: "pglite",
    ...base,
    transaction: (fn) => db.transaction((tx) => fn(executor(tx))),
    close: async () => {
      await db.close();
      if (lock) await rm(lock, { force: true });
    },
  };
}
