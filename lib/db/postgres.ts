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

/** Connects to any Postgres with pgvector (Supabase in production) through postgres.js. */
export function openPostgres(url: string): IDatabase {
  // prepare stays on: with several connections, unnamed statements got mixed up (STACK.md).
  const sql = postgres(url, {
    max: 10,
    prepare: true,
    onnotice: () => {},
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
  return {
    kind: "postgres",
    ...executor(sql),
    transaction: (fn) => sql.begin((tx) => fn(executor(tx))) as Promise<never>,
    yieldToForeground: async () => false,
    close: () => sql.end({ timeout: 5 }),
  };
}
