/** The small query interface every part of the app talks to; PGlite and postgres.js both implement it. */
export interface ISqlExecutor {
  /** Runs one statement with `$1`-style parameters and returns its rows. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters. */
  exec(sql: string): Promise<void>;
  /**
   * Bulk-loads rows into a table with binary COPY (PGlite from a blob, ≈6× faster than text
   * vectors in WASM; postgres.js as COPY FROM STDIN). `columns` names each column's Postgres type.
   */
  copyRows(table: string, columns: readonly ICopyColumn[], rows: readonly unknown[][]): Promise<void>;
}

export type TCopyType = "uuid" | "int4" | "text" | "vector" | "jsonb";

export interface ICopyColumn {
  name: string;
  type: TCopyType;
}

export interface IDatabase extends ISqlExecutor {
  readonly kind: "pglite" | "postgres";
  /**
   * Where read-only work goes (retrieval, facets, listings, page queries): the read replica's own
   * pool when DATABASE_READ_URL is set (its sessions read-only, so a write there fails instead of
   * landing), else this database itself. Writes, transactions and reads that must see rows the
   * same request just wrote stay on the database itself (the primary).
   */
  readonly read: ISqlExecutor;
  transaction<T>(fn: (tx: ISqlExecutor) => Promise<T>): Promise<T>;
  /**
   * Background work (`runInBackground`) calls this between its steps. PGlite waits until the
   * app's own statements have had a quiet moment (bounded, so the work still progresses under
   * constant load) and answers whether the app was busy in the last second (background work then
   * takes short steps); PostgreSQL runs statements side by side and answers false at once.
   */
  yieldToForeground(): Promise<boolean>;
  close(): Promise<void>;
}

/** Formats a vector as pgvector's text input (`[0.1,0.2]`) for use as a query parameter. */
export function toVectorLiteral(vector: ArrayLike<number>): string {
  let out = "[";
  for (let i = 0; i < vector.length; i++) {
    if (i > 0) out += ",";
    const v = vector[i]!;
    out += Number.isFinite(v) ? String(Math.fround(v)) : "0";
  }
  return `${out}]`;
}
