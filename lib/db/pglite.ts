import "server-only";
import { mkdir } from "node:fs/promises";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
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

/** Opens (or creates) an embedded Postgres with pgvector. `dir` undefined → in memory. */
export async function openPglite(dir?: string): Promise<IDatabase> {
  if (dir) await mkdir(dir, { recursive: true });
  const db = dir
    ? await PGlite.create(dir, { extensions: { vector } })
    : await PGlite.create({ extensions: { vector } });
  const base = executor(db);
  return {
    kind: "pglite",
    ...base,
    transaction: (fn) => db.transaction((tx) => fn(executor(tx))),
    close: () => db.close(),
  };
}
