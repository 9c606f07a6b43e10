import "server-only";
import postgres from "postgres";
import { encodeBinaryCopy } from "./copy-binary";
import type { ICopyColumn, IDatabase, ISqlExecutor } from "./types";

type TSql = postgres.Sql | postgres.TransactionSql;

function executor(sql: TSql): ISqlExecutor {
  return {
    async query<T>(text: string, params: unknown[] = []) {
      const rows = await sql.unsafe(text, params as postgres.ParameterOrJSON<never>[]);
      return rows as unknown as T[];
    },
    async exec(text: string) {
      await sql.unsafe(text);
    },
    async copyRows(table: string, columns: readonly ICopyColumn[], rows: readonly unknown[][]) {
      if (rows.length === 0) return;
      const cols = columns.map((c) => `"${c.name}"`).join(", ");
      // Binary, as on PGlite: the server reads each float as 4 bytes instead of parsing
      // `[0.0123,…]` text, and encoding it here is cheaper than printing 1,536 decimals per row.
      const stream = await sql.unsafe(`COPY ${table} (${cols}) FROM STDIN WITH (FORMAT binary)`).writable();
      await new Promise<void>((resolve, reject) => {
        stream.on("error", reject);
        stream.on("finish", resolve);
        stream.end(encodeBinaryCopy(columns, rows));
      });
    },
  };
}

export interface IPostgresOptions {
  /** Connections in the primary's pool (PAPERWISE_DB_POOL; postgres.js opens them on demand). */
  max?: number;
  /** A read replica (DATABASE_READ_URL) for `IDatabase.read`; without it reads use the primary. */
  readUrl?: string | null;
  /** Connections in the replica's pool (PAPERWISE_DB_READ_POOL, default `max`). */
  readMax?: number;
}

function pool(url: string, max: number, readOnly: boolean): postgres.Sql {
  // prepare stays on: with several connections, unnamed statements got mixed up (STACK.md).
  return postgres(url, {
    max,
    prepare: true,
    onnotice: () => {},
    // A replica refuses writes by itself; on a server that would accept them (a primary given as
    // DATABASE_READ_URL by mistake, or the tests' stand-in) every session of the read pool is
    // read-only, so a write sent there fails loudly instead of landing beside the primary's rows.
    ...(readOnly ? { connection: { default_transaction_read_only: true } } : {}),
    types: {
      // The app passes json/jsonb parameters as JSON text (JSON.stringify), which PGlite takes as
      // is. postgres.js would stringify that text again and store a JSON *string* (a paper's
      // sections failed their `jsonb_typeof = 'array'` check): text goes through unchanged.
      json: {
        to: 114,
        from: [114, 3802],
        serialize: (x: unknown) => (typeof x === "string" ? x : JSON.stringify(x)),
        parse: (x: string) => JSON.parse(x),
      },
    },
  });
}

/** The read pool's executor: statements only; scripts and COPY are writes and never go there. */
function readOnlyExecutor(sql: postgres.Sql): ISqlExecutor {
  const inner = executor(sql);
  return {
    query: inner.query,
    async exec() {
      throw new Error("The read pool (DATABASE_READ_URL) runs no scripts: use the primary");
    },
    async copyRows() {
      throw new Error("The read pool (DATABASE_READ_URL) takes no COPY: use the primary");
    },
  };
}

/**
 * Connects to any Postgres with pgvector (Supabase in production) through postgres.js, and to its
 * read replica when `readUrl` is given.
 */
export function openPostgres(url: string, opts: IPostgresOptions = {}): IDatabase {
  const max = opts.max ?? 10;
  const sql = pool(url, max, false);
  const replica = opts.readUrl ? pool(opts.readUrl, opts.readMax ?? max, true) : null;
  const primary = executor(sql);
  return {
    kind: "postgres",
    ...primary,
    read: replica ? readOnlyExecutor(replica) : primary,
    transaction: (fn) => sql.begin((tx) => fn(executor(tx))) as Promise<never>,
    yieldToForeground: async () => false,
    close: async () => {
      await Promise.all([sql.end({ timeout: 5 }), replica?.end({ timeout: 5 })]);
    },
  };
}
