import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listResources } from "@/app/api/resources/[id]/chunks/route";
import { GET as listIngestions } from "@/app/api/resources/route";
import { POST as enhance } from "@/app/api/retrieval/enhance-query/route";
import { GET as facets } from "@/app/api/retrieval/facets/route";
import { POST as query } from "@/app/api/retrieval/query/route";
import { GET as passage } from "@/app/api/sources/[documentId]/passage/route";
import { buildConfig } from "@/lib/config/env";
import { getDb, getReadDb, setDbForProcess } from "@/lib/db";
import { openPostgres } from "@/lib/db/postgres";
import type { IDatabase, ISqlExecutor } from "@/lib/db/types";
import { BIOLOGY, ingestDemoChapter } from "../support/demo-data";
import { createTestEnv, type ITestEnv, makeRequest, params } from "../support/test-env";

/**
 * DATABASE_READ_URL: read-only work (retrieval, facets, listings, page queries) goes to the read
 * replica's pool, every write to the primary. The "replica" here is the same database reached in a
 * way that cannot take a write, so any write sent to it fails the request:
 * - on the real PostgreSQL, a second pool logged in as a role with SELECT only, its sessions
 *   read-only (`openPostgres(url, { readUrl })`, what DATABASE_READ_URL opens);
 * - on PGlite (one in-process database, no second pool), a wrapper over it that throws on any
 *   statement that is not a plain read.
 * Every statement the replica ran is recorded, to show the reads really went there.
 */

const READS = /^\s*(select|with)\b/i;
const WRITES = /\b(insert\s+into|update\s+\S+\s+set|delete\s+from|for\s+update|nextval|setval)\b/i;

function recording(inner: ISqlExecutor, seen: string[], guard: boolean): ISqlExecutor {
  return {
    async query<T>(text: string, values?: unknown[]) {
      seen.push(text);
      if (guard && (!READS.test(text) || WRITES.test(text)))
        throw new Error(`write sent to the read pool: ${text}`);
      return inner.query<T>(text, values);
    },
    async exec(text: string) {
      seen.push(text);
      if (guard) throw new Error(`script sent to the read pool: ${text}`);
      return inner.exec(text);
    },
    async copyRows(table, columns, rows) {
      seen.push(`copy ${table}`);
      if (guard) throw new Error(`COPY sent to the read pool: ${table}`);
      return inner.copyRows(table, columns, rows);
    },
  };
}

let env: ITestEnv;
let docId: string;
let ingestionId: string;
let replicaDb: IDatabase | null = null;
let reader: string | null = null;
const seen: string[] = [];

beforeAll(async () => {
  env = await createTestEnv();
  docId = await ingestDemoChapter(env, "ch05-structure-and-function-of-plasma-membranes.md", 5);
  const [row] = await env.db.query<{ ingestion_id: string }>(
    "select ingestion_id from documents where id = $1",
    [docId],
  );
  ingestionId = row!.ingestion_id;
  if (env.kind === "postgres") {
    // A login role that can read every table (past RLS, as the app's own role can) and nothing else.
    reader = `paperwise_reader_${randomBytes(4).toString("hex")}`;
    const dbName = new URL(env.location).pathname.slice(1);
    await env.db.exec(`
      create role ${reader} login bypassrls;
      grant connect on database "${dbName}" to ${reader};
      grant usage on schema public to ${reader};
      grant select on all tables in schema public to ${reader};`);
    const readUrl = new URL(env.location);
    readUrl.username = reader;
    replicaDb = openPostgres(env.location, { readUrl: readUrl.toString(), max: 4, readMax: 2 });
  }
  const base = replicaDb ?? env.db;
  setDbForProcess({ ...base, read: recording(base.read, seen, replicaDb === null) });
});

afterAll(async () => {
  setDbForProcess(env.db);
  await replicaDb?.close();
  await env.close();
  if (reader) {
    const admin = postgres(process.env.PAPERWISE_TEST_POSTGRES_URL!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop role if exists ${reader}`);
    await admin.end();
  }
});

const FILTERS = { ...BIOLOGY };

describe("DATABASE_READ_URL: reads on the replica, writes on the primary", () => {
  it("serves retrieval from the replica and logs it on the primary", async () => {
    const before = seen.length;
    const res = await query(
      makeRequest("POST", "/api/retrieval/query", {
        token: env.teacher.token,
        json: { filters: FILTERS, query: "What is the fluid mosaic model?" },
      }),
      {},
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.items.length).toBeGreaterThan(0);
    expect(seen.slice(before).some((s) => /paperwise_hybrid_search/.test(s))).toBe(true);
    // The request's one write, its log row, is on the primary.
    const [log] = await env.db.query<{ n: number }>(
      "select count(*)::int as n from retrieval_logs where user_id = $1",
      [env.teacher.id],
    );
    expect(log!.n).toBeGreaterThan(0);
    if (reader) {
      // On the real server the replica pool is logged in as the SELECT-only role.
      const [conn] = await env.db.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where usename = $1",
        [reader],
      );
      expect(conn!.n).toBeGreaterThan(0);
    }
  });

  it("serves facets, query enhancement, the resource list, chunk pages and passages from the replica", async () => {
    const before = seen.length;
    const token = env.teacher.token;
    const responses = [
      await facets(makeRequest("GET", "/api/retrieval/facets", { token }), {}),
      await enhance(
        makeRequest("POST", "/api/retrieval/enhance-query", {
          token,
          json: { rawQuery: "diffusion across membranes", filters: FILTERS },
        }),
        {},
      ),
      await listIngestions(makeRequest("GET", "/api/resources", { token }), {}),
      await listResources(
        makeRequest("GET", `/api/resources/${ingestionId}/chunks`, { token }),
        params({ id: ingestionId }),
      ),
      await passage(
        makeRequest("GET", `/api/sources/${docId}/passage?chunk=1`, { token }),
        params({ documentId: docId }),
      ),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const ran = seen.slice(before).join("\n");
    for (const table of ["documents", "ingestions", "document_chunks"]) expect(ran).toContain(table);
  });

  it("refuses a write on the read pool", async () => {
    const read = await getReadDb();
    await expect(
      read.query(
        "insert into retrieval_logs (user_id, query_type, query_chars, top_k) values ($1, 'lookup', 1, 1)",
        [env.teacher.id],
      ),
    ).rejects.toThrow(/read-only|permission denied|write sent to the read pool/);
    await expect(read.exec("select 1")).rejects.toThrow(/read pool/);
  });

  it("keeps transactions on the primary", async () => {
    const db = await getDb();
    const [row] = await db.transaction((tx) =>
      tx.query<{ ro: string }>("select current_setting('transaction_read_only') as ro"),
    );
    expect(row!.ro).toBe("off");
  });
});

describe("without DATABASE_READ_URL", () => {
  it("uses the one pool for reads and writes", async () => {
    const config = buildConfig({ NODE_ENV: "test", DATABASE_URL: "postgres://u@127.0.0.1:5432/db" });
    expect(config.database).toMatchObject({ kind: "postgres", readUrl: null, pool: 10, readPool: 10 });
    const single = openPostgres("postgres://u@127.0.0.1:1/db");
    try {
      // The same executor object: the same postgres.js pool.
      expect(single.read.query).toBe(single.query);
    } finally {
      await single.close();
    }
    expect(env.db.read.query).toBe(env.db.query);
  });

  it("reads DATABASE_READ_URL and the pool sizes, and refuses a replica without a primary", () => {
    const config = buildConfig({
      NODE_ENV: "test",
      DATABASE_URL: "postgres://u@primary:5432/db",
      DATABASE_READ_URL: "postgres://u@replica:5432/db",
      PAPERWISE_DB_POOL: "20",
      PAPERWISE_DB_READ_POOL: "40",
    });
    expect(config.database).toMatchObject({
      kind: "postgres",
      url: "postgres://u@primary:5432/db",
      readUrl: "postgres://u@replica:5432/db",
      pool: 20,
      readPool: 40,
    });
    expect(() =>
      buildConfig({ NODE_ENV: "test", DATABASE_READ_URL: "postgres://u@replica:5432/db" }),
    ).toThrow(/DATABASE_READ_URL.*needs DATABASE_URL/);
  });
});
