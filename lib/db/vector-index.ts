import "server-only";
import type { IDatabase, ISqlExecutor } from "./types";

/**
 * HNSW at the crossover (docs/scaling.md). Retrieval's vector stage (`paperwise_vector_candidates`)
 * scans a scope's companion vectors exactly unless this index exists and the scope is past the
 * crossover; `npm run db:index` creates the index once the largest scope passes it.
 */
export const HNSW_INDEX = "chunk_lite_embedding_hnsw";

export interface IVectorIndexPolicy {
  /** A scope needs at least this many chunks (SQL setting `paperwise.hnsw_min_chunks`). */
  minChunks: number;
  /** …and at least this share of all chunks (SQL setting `paperwise.hnsw_min_share`). */
  minShare: number;
}

/**
 * The defaults the SQL function uses when the settings are not set (migration
 * `20261126770000_vector_crossover.sql`; measured on the whole retrieval function: docs/scaling.md).
 */
export const DEFAULT_VECTOR_INDEX_POLICY: IVectorIndexPolicy = { minChunks: 100_000, minShare: 0.02 };

export interface IScopeSize {
  board: string;
  grade: string;
  subject: string;
  chunks: number;
}

export interface IVectorIndexDecision {
  create: boolean;
  /** The scopes that would use the index, largest first. */
  past: IScopeSize[];
  reason: string;
}

/** Whether any scope is past the crossover, i.e. whether the index would ever be used. */
export function decideVectorIndex(
  scopes: readonly IScopeSize[],
  totalChunks: number,
  policy: IVectorIndexPolicy = DEFAULT_VECTOR_INDEX_POLICY,
): IVectorIndexDecision {
  const past = scopes
    .filter((s) => s.chunks >= policy.minChunks && s.chunks >= policy.minShare * totalChunks)
    .sort((a, b) => b.chunks - a.chunks);
  const largest = [...scopes].sort((a, b) => b.chunks - a.chunks)[0];
  if (past.length > 0) {
    return {
      create: true,
      past,
      reason: `${past.length} scope(s) past the crossover (largest ${past[0]!.board} / ${past[0]!.grade} / ${past[0]!.subject}, ${past[0]!.chunks} of ${totalChunks} chunks)`,
    };
  }
  return {
    create: false,
    past,
    reason: largest
      ? `largest scope ${largest.board} / ${largest.grade} / ${largest.subject} has ${largest.chunks} of ${totalChunks} chunks; the crossover is ${policy.minChunks} chunks and ${(policy.minShare * 100).toFixed(1)} % of all`
      : "no documents yet",
  };
}

/** Chunks per scope (board, grade, subject) over published documents, and the total. */
export async function scopeSizes(db: ISqlExecutor): Promise<{ scopes: IScopeSize[]; total: number }> {
  const scopes = await db.query<IScopeSize>(
    `select board, grade, subject, sum(chunk_count)::int as chunks
     from documents group by 1, 2, 3 order by 4 desc`,
  );
  return { scopes, total: scopes.reduce((n, s) => n + s.chunks, 0) };
}

/** The policy in force for this connection: the SQL settings where set, else the defaults. */
export async function currentPolicy(db: ISqlExecutor): Promise<IVectorIndexPolicy> {
  const [row] = await db.query<{ chunks: string | null; share: string | null }>(
    `select current_setting('paperwise.hnsw_min_chunks', true) as chunks,
            current_setting('paperwise.hnsw_min_share', true) as share`,
  );
  const num = (v: string | null | undefined, d: number) => (v && Number.isFinite(Number(v)) ? Number(v) : d);
  return {
    minChunks: num(row?.chunks, DEFAULT_VECTOR_INDEX_POLICY.minChunks),
    minShare: num(row?.share, DEFAULT_VECTOR_INDEX_POLICY.minShare),
  };
}

/** The index's size in bytes, or null when it does not exist (or is invalid after a failed build). */
export async function vectorIndexBytes(db: ISqlExecutor): Promise<number | null> {
  const [row] = await db.query<{ bytes: string | null }>(
    `select pg_relation_size(c.oid)::text as bytes
     from pg_class c join pg_index i on i.indexrelid = c.oid
     where c.oid = to_regclass('public.${HNSW_INDEX}') and i.indisvalid`,
  );
  return row?.bytes == null ? null : Number(row.bytes);
}

export interface ICreateVectorIndexOptions {
  /**
   * HNSW graph degree (pgvector's default is 16; 32 with ef_construction 128 lifted recall@8 from
   * 0.64–0.85 to 0.92–0.96 at 300k chunks, for a 4.3× longer build: docs/scaling.md).
   */
  m?: number;
  /** Candidates kept while building (pgvector's default is 64). */
  efConstruction?: number;
  /** Memory for the build; the graph should fit (≈ 1.3 GB at 1M chunks, docs/scaling.md). */
  maintenanceWorkMem?: string;
  /** Build without blocking ingestion's writes (slower; not inside a transaction). Default true. */
  concurrently?: boolean;
}

/**
 * Creates the HNSW index on the companion vectors (idempotent) and returns the build time in ms.
 * `db` must hold one connection (the CLI opens one): the memory setting is the session's.
 */
export async function createVectorIndex(
  db: IDatabase,
  opts: ICreateVectorIndexOptions = {},
): Promise<number> {
  const m = Math.trunc(opts.m ?? 32);
  const ef = Math.trunc(opts.efConstruction ?? 128);
  if (!(m >= 2 && m <= 100 && ef >= 4 && ef <= 1000))
    throw new Error("m must be 2–100 and ef_construction 4–1000");
  const mem = opts.maintenanceWorkMem ?? "1GB";
  if (!/^\d+\s*(kB|MB|GB)$/.test(mem))
    throw new Error(`maintenance_work_mem '${mem}' is not like 512MB or 2GB`);
  // A build that failed half-way leaves an invalid index that `if not exists` would keep.
  const [invalid] = await db.query<{ n: number }>(
    `select count(*)::int as n from pg_index where indexrelid = to_regclass('public.${HNSW_INDEX}') and not indisvalid`,
  );
  if ((invalid?.n ?? 0) > 0) await db.exec(`drop index if exists public.${HNSW_INDEX}`);
  const t0 = performance.now();
  await db.exec(`set maintenance_work_mem = '${mem}'`);
  await db.exec(
    `create index ${opts.concurrently === false ? "" : "concurrently "}if not exists ${HNSW_INDEX}
     on public.chunk_lite using hnsw (embedding_lite vector_ip_ops) with (m = ${m}, ef_construction = ${ef})`,
  );
  await db.exec("reset maintenance_work_mem");
  return performance.now() - t0;
}

/** Removes the index (retrieval goes back to the exact scan everywhere). */
export async function dropVectorIndex(db: ISqlExecutor): Promise<void> {
  await db.exec(`drop index if exists public.${HNSW_INDEX}`);
}
