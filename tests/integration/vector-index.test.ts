import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getEmbedder } from "@/lib/ai/embedder";
import { openPostgres } from "@/lib/db/postgres";
import type { IDatabase, ISqlExecutor } from "@/lib/db/types";
import {
  createVectorIndex,
  decideVectorIndex,
  dropVectorIndex,
  HNSW_INDEX,
  scopeSizes,
  vectorIndexBytes,
} from "@/lib/db/vector-index";
import { hybridSearch, type IHybridSearchParams } from "@/lib/retrieval/store";
import { BIOLOGY, ingestDemoChapter } from "../support/demo-data";
import { createTestEnv, type ITestEnv } from "../support/test-env";

/**
 * HNSW at the crossover: `paperwise_vector_candidates` (retrieval's vector stage) takes the HNSW
 * index on chunk_lite only when it exists and the scope is past the crossover, with pgvector 0.8
 * iterative scans, and puts the transaction's settings back; below it the exact scan stays.
 * The crossover is lowered per transaction (`paperwise.hnsw_min_chunks`) so a test-sized scope
 * passes it.
 */
let env: ITestEnv;
let single: IDatabase;

const QUERIES = [
  "What is the fluid mosaic model?",
  "How does the sodium-potassium pump work?",
  "osmosis and tonicity of solutions",
  "passive transport across membranes",
];

async function search(db: ISqlExecutor, query: string) {
  const params: IHybridSearchParams = {
    userId: env.teacher.id,
    ...BIOLOGY,
    resourceTypes: null,
    chapterNumber: null,
    chapterName: null,
    query,
    embedding: await getEmbedder().embedQuery(query),
    embeddingModel: getEmbedder().modelId,
    alpha: 1,
    limit: 8,
  };
  return (await hybridSearch(db, params)).map((r) => `${r.document_id}:${r.chunk_index}`);
}

async function indexScans(): Promise<number> {
  const [row] = await env.db.query<{ n: string | null }>(
    `select idx_scan::text as n from pg_stat_user_indexes where indexrelname = '${HNSW_INDEX}'`,
  );
  return Number(row?.n ?? 0);
}

/** Index scans are counted when each backend reports its statistics (up to ~1 s after idle). */
async function indexScansReaching(target: number): Promise<number> {
  for (let i = 0; i < 50; i++) {
    await env.db.query("select pg_stat_clear_snapshot()");
    const n = await indexScans();
    if (n >= target) return n;
    await new Promise((r) => setTimeout(r, 100));
  }
  return indexScans();
}

beforeAll(async () => {
  env = await createTestEnv();
  await ingestDemoChapter(env, "ch05-structure-and-function-of-plasma-membranes.md", 5);
  await env.db.exec("analyze chunk_lite");
  // createVectorIndex needs one connection (its memory setting is the session's).
  single = env.kind === "postgres" ? openPostgres(env.location, { max: 1 }) : env.db;
});

afterAll(async () => {
  if (single !== env.db) await single.close();
  await env.close();
});

describe("HNSW at the crossover", () => {
  it("is not due for a test-sized scope under the default crossover", async () => {
    const { scopes, total } = await scopeSizes(env.db);
    expect(total).toBeGreaterThan(0);
    expect(decideVectorIndex(scopes, total).create).toBe(false);
    expect(decideVectorIndex(scopes, total, { minChunks: 1, minShare: 0 }).create).toBe(true);
  });

  it("builds the index, and retrieval past the crossover uses it and finds what the exact scan finds", async () => {
    const exact = await Promise.all(QUERIES.map((q) => search(env.db, q)));
    expect(exact.every((ids) => ids.length === 8)).toBe(true);

    await createVectorIndex(single, { concurrently: env.kind === "postgres", maintenanceWorkMem: "64MB" });
    expect(await vectorIndexBytes(env.db)).toBeGreaterThan(0);

    // Below the crossover (the default), the index is present but the exact scan runs.
    const scansBefore = await indexScans();
    const still = await Promise.all(
      QUERIES.map((q) =>
        env.db.transaction(async (tx) => {
          const ids = await search(tx, q);
          const [row] = await tx.query<{ path: string }>(
            "select current_setting('paperwise.vector_path') as path",
          );
          expect(row!.path).toBe("exact");
          return ids;
        }),
      ),
    );
    expect(still).toEqual(exact);
    await new Promise((r) => setTimeout(r, 1200));
    await env.db.query("select pg_stat_clear_snapshot()");
    expect(await indexScans()).toBe(scansBefore);

    // Past it: the HNSW path, with the transaction's settings put back afterwards.
    const viaIndex: string[][] = [];
    for (const q of QUERIES) {
      viaIndex.push(
        await env.db.transaction(async (tx) => {
          await tx.exec(
            "set local paperwise.hnsw_min_chunks = '1'; set local paperwise.hnsw_min_share = '0'",
          );
          const ids = await search(tx, q);
          const [after] = await tx.query<{ it: string; seq: string; path: string }>(
            `select current_setting('hnsw.iterative_scan') as it, current_setting('enable_seqscan') as seq,
                    current_setting('paperwise.vector_path') as path`,
          );
          expect(after).toEqual({ it: "off", seq: "on", path: "hnsw" });
          return ids;
        }),
      );
    }
    // The server counts the index's scans (PGlite keeps no such statistics).
    if (env.kind === "postgres")
      expect(await indexScansReaching(scansBefore + QUERIES.length)).toBeGreaterThanOrEqual(
        scansBefore + QUERIES.length,
      );
    // Recall@8 of the HNSW path against the exact scan, over the queries.
    const found = viaIndex.reduce((n, ids, i) => n + ids.filter((id) => exact[i]!.includes(id)).length, 0);
    expect(found / (8 * QUERIES.length)).toBeGreaterThanOrEqual(0.9);
  });

  it("keeps ingesting with the index present, and drops it", async () => {
    const before = (await scopeSizes(env.db)).total;
    await ingestDemoChapter(env, "ch04-cell-structure.md", 4);
    expect((await scopeSizes(env.db)).total).toBeGreaterThan(before);
    await dropVectorIndex(env.db);
    expect(await vectorIndexBytes(env.db)).toBeNull();
  });
});
