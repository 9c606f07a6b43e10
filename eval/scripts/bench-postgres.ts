/**
 * npm run bench:postgres -- [--url postgres://…] [--scale 50000] [--clients 20] [--duration 30]
 *   [--large 1000000] [--large-queries 40] [--phases ingest,quality,throughput,scale,large]
 *
 * The production path measured the way bench:retrieval and bench:load measure the embedded one,
 * on a real PostgreSQL + pgvector server (--url, else DATABASE_URL, else the workplace's
 * ../shared/tools/pg-real/start.sh). A database `paperwise_bench` is created afresh on it.
 *   ingest      both books with the ingestion CLI's code path (COPY, staged versions, ANALYZE);
 *   quality     the open queries (retrieval quality + p50/p95) at both books (≈4k chunks);
 *   throughput  `next start` on that database, --clients concurrent retrieval clients (autocannon,
 *               the same requests as bench:load);
 *   scale       the synthetic scale-up to --scale chunks, quality + latency again;
 *   large       the vector stage alone at --large chunks: the exact scoped scan retrieval runs
 *               (companion 256-d vectors, `document_id = any(scope)`) against an HNSW index with
 *               pgvector 0.8's iterative scans, per scope size: recall against exact, latency.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import autocannon from "autocannon";
import { Command } from "commander";
import postgres from "postgres";
import { createAccount } from "@/lib/auth/accounts";
import { buildConfig, setConfigForProcess } from "@/lib/config/env";
import { openDatabase, setDbForProcess } from "@/lib/db";
import { migrate } from "@/lib/db/migrate";
import { toVectorLiteral } from "@/lib/db/types";
import { login, startNextServer } from "./support/next-server";
import { createQualityBench, FILTERS, type IQuery, pct } from "./support/retrieval-quality";
import { openOfflineWorkspace } from "./support/workspace";

const opts = new Command()
  .option("--url <url>", "PostgreSQL server with pgvector (default: DATABASE_URL, else pg-real)")
  .option("--queries <file>", "queries (JSONL)", "../shared/eval/queries-open.jsonl")
  .option("--corpus <dirs...>", "books", [
    "../shared/eval/corpus/biology-2e",
    "../shared/eval/corpus/physics",
  ])
  .option("--scale <n>", "chunks for the scale-up", "50000")
  .option("--subjects <n>", "synthetic subjects the scale-up spreads over", "24")
  .option("--clients <n>", "concurrent retrieval clients for throughput", "20")
  .option("--duration <s>", "seconds of the throughput run", "30")
  .option("--port <n>", "port of the throughput server", "3714")
  .option("--large <n>", "chunks for the exact-vs-HNSW run", "1000000")
  .option("--large-queries <n>", "queries per scope in the large run", "40")
  .option("--phases <list>", "phases to run", "ingest,quality,throughput,scale,large")
  .option("--limit <n>", "first N queries for quality")
  .parse()
  .opts<{
    url?: string;
    queries: string;
    corpus: string[];
    scale: string;
    subjects: string;
    clients: string;
    duration: string;
    port: string;
    large: string;
    largeQueries: string;
    phases: string;
    limit?: string;
  }>();
const phases = new Set(opts.phases.split(","));

function serverUrl(): string {
  if (opts.url) return opts.url;
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const start = path.resolve("..", "shared", "tools", "pg-real", "start.sh");
  if (!existsSync(start))
    throw new Error("No --url, no DATABASE_URL and no ../shared/tools/pg-real/start.sh");
  const res = spawnSync("bash", [start], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  if (res.status !== 0) throw new Error("pg-real did not start");
  return res.stdout.trim();
}

// A database of its own on the server, created afresh unless only later phases are asked for.
const admin = postgres(serverUrl(), { max: 1, onnotice: () => undefined });
const benchUrl = new URL(serverUrl());
benchUrl.pathname = "/paperwise_bench";
if (phases.has("ingest")) {
  await admin.unsafe("drop database if exists paperwise_bench with (force)");
  await admin.unsafe("create database paperwise_bench");
}
await admin.end();
{
  const sql = postgres(benchUrl.toString(), { max: 1 });
  const [v] = await sql<{ v: string }[]>`select version() as v`;
  await sql.end();
  console.log(`# bench:postgres on ${v!.v.split(",")[0]}`);
}

setConfigForProcess(
  buildConfig({ ...process.env, DATABASE_URL: benchUrl.toString(), PAPERWISE_LOG_LEVEL: "warn" }),
);
{
  const db = await openDatabase({ bootstrap: false });
  await migrate(db);
  await db.close();
}
const workspace = await openOfflineWorkspace(".bench/postgres-files", { DATABASE_URL: benchUrl.toString() });
const { db, embedder, userId } = workspace;
setDbForProcess(db);

const queries = (await readFile(opts.queries, "utf8"))
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l) as IQuery)
  .slice(0, opts.limit ? Number(opts.limit) : undefined);
const bench = createQualityBench({ db, embedder, userId, queries, planner: true });

if (phases.has("ingest")) {
  console.log("\n## Ingestion (offline embedder, COPY into staged versions, ANALYZE after)");
  console.log("| book | files | chunks | wall s |");
  console.log("|---|---:|---:|---:|");
  for (const book of opts.corpus) {
    const t0 = performance.now();
    const results = await workspace.ingest([book]);
    const chunks = results.reduce((n, r) => n + (r.ingestion?.chunk_count ?? 0), 0);
    console.log(
      `| ${path.basename(book)} | ${results.length} | ${chunks} | ${((performance.now() - t0) / 1000).toFixed(1)} |`,
    );
  }
}

if (phases.has("quality")) await bench.run("(a) two books on PostgreSQL");

if (phases.has("throughput")) {
  const password = "bench-teacher-password";
  await db.query("delete from profiles where email = 'bench-teacher@paperwise.local'");
  await createAccount(db, { email: "bench-teacher@paperwise.local", password, role: "teacher" });
  const server = await startNextServer(Number(opts.port), {
    DATABASE_URL: benchUrl.toString(),
    PAPERWISE_DATA_DIR: path.resolve(".bench/postgres-files"),
    PAPERWISE_SEED_DEMO: "false",
    PAPERWISE_INGEST_WORKER: "off",
  });
  try {
    const token = await login(server.base, "bench-teacher@paperwise.local", password);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const requests = queries.map((q) => ({
      method: "POST" as const,
      path: "/api/retrieval/query",
      headers,
      body: JSON.stringify({ filters: FILTERS, query: q.query }),
    }));
    for (const r of requests.slice(0, 5))
      await fetch(`${server.base}${r.path}`, { method: "POST", headers, body: r.body });
    const times: number[] = [];
    const run = autocannon({
      url: server.base,
      connections: Number(opts.clients),
      duration: Number(opts.duration),
      requests,
      timeout: 30,
    });
    run.on("response", (_c, _s, _b, ms) => times.push(ms));
    const result = await run;
    console.log(
      `\n## Throughput: next start on PostgreSQL, ${opts.clients} retrieval clients, ${opts.duration} s`,
    );
    console.log("| requests | req/s | p50 ms | p95 ms | p99 ms | errors |");
    console.log("|---:|---:|---:|---:|---:|---:|");
    console.log(
      `| ${result.requests.total} | ${result.requests.average.toFixed(1)} | ${pct(times, 0.5).toFixed(0)} | ${pct(times, 0.95).toFixed(0)} | ${pct(times, 0.99).toFixed(0)} | ${result.errors + result.timeouts + result.non2xx} |`,
    );
  } finally {
    await server.stop();
  }
}

if (phases.has("scale")) {
  const t0 = performance.now();
  await bench.scaleUp(Number(opts.scale), Number(opts.subjects));
  console.error(`scale-up ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  await bench.run("(b) scale-up on PostgreSQL");
}

if (phases.has("large")) await largeRun(Number(opts.large));

await db.close();

/**
 * Exact scoped scan vs HNSW + iterative scans on the vector stage, at `n` chunks.
 *
 * Retrieval's vector stage reads `chunk_lite` (256-d companions) for the scope's documents and
 * keeps the 64 nearest; only those are re-scored with the full vectors. That stage is what grows
 * with a district's size, so it is measured alone here, on `bench_lite`, a table shaped like
 * `chunk_lite` (same columns and primary key) filled with the books' real companion vectors plus
 * a small fixed perturbation per copy (distinct vectors with the real distribution; exact copies
 * would make every neighbour a tie). Documents belong to scopes of about 0.3 %, 1 %, 10 % and 30 %
 * of the chunks (the rest to "other"), as subjects of different sizes would.
 */
async function largeRun(n: number): Promise<void> {
  const SCOPES = [
    { name: "s0.3", share: 0.003 },
    { name: "s1", share: 0.01 },
    { name: "s10", share: 0.1 },
    { name: "s30", share: 0.3 },
  ];
  const sql = postgres(benchUrl.toString(), { max: 1, onnotice: () => undefined });
  try {
    const t0 = performance.now();
    const [{ have } = { have: 0 }] = await sql<
      { have: number }[]
    >`select count(*)::int as have from bench_lite`.catch(() => [{ have: -1 }]);
    if (have < n) {
      await sql.unsafe(`
        drop table if exists bench_lite, bench_docs, bench_noise, bench_src;
        -- The books as ingested (not the scale-up's exact copies).
        create table bench_src as
          select l.document_id, l.chunk_index, l.embedding_lite from chunk_lite l
          join documents d on d.id = l.document_id where d.subject not like 'Synthetic %';
        create table bench_docs (id uuid primary key, subject text not null, src uuid not null, chunks int not null);
        create table bench_lite (like chunk_lite including defaults including indexes);
        create table bench_noise (id int primary key, v vector(256) not null);
        insert into bench_noise
          select g, (select array_agg((random() - 0.5) * 0.06) from generate_series(1, 256) where g >= 0)::vector(256)
          from generate_series(0, 4095) g;`);
      // Copies of the real documents, dealt to scopes by chunk share.
      const [{ per } = { per: 1 }] = await sql<{ per: number }[]>`select count(*)::int as per from bench_src`;
      const copies = Math.ceil(n / per);
      await sql.unsafe(`
        insert into bench_docs (id, subject, src, chunks)
        select gen_random_uuid(), 'other', d.document_id, d.chunks
        from generate_series(1, ${copies}) g,
             (select document_id, count(*)::int as chunks from bench_src group by 1) d`);
      for (const s of SCOPES) {
        // Documents in random order until the scope holds its share of the chunks.
        await sql.unsafe(`
          with ranked as (
            select id, sum(chunks) over (order by md5(id::text)) as running
            from bench_docs where subject = 'other'
          )
          update bench_docs b set subject = '${s.name}'
          from ranked r where r.id = b.id and r.running <= ${Math.round(s.share * n)}`);
      }
      await sql.unsafe(`
        insert into bench_lite (document_id, chunk_index, embedding_lite)
        select b.id, l.chunk_index,
               l2_normalize(l.embedding_lite + nz.v)
        from bench_docs b
        join bench_src l on l.document_id = b.src
        join bench_noise nz on nz.id = abs(hashtext(b.id::text || l.chunk_index::text)) % 4096`);
      await sql.unsafe("analyze bench_docs; analyze bench_lite");
    }
    const [{ rows, sizeMb } = { rows: 0, sizeMb: 0 }] = await sql<{ rows: number; sizeMb: number }[]>`
      select count(*)::int as rows, (pg_total_relation_size('bench_lite') / 1048576)::int as "sizeMb" from bench_lite`;
    console.log(
      `\n## Large: vector stage at ${rows.toLocaleString("en")} chunks (bench_lite ${sizeMb} MB; built in ${((performance.now() - t0) / 1000).toFixed(0)} s)`,
    );
    const scopeRows = await sql<{ subject: string; docs: number; chunks: number }[]>`
      select subject, count(*)::int as docs, sum(chunks)::int as chunks from bench_docs group by 1 order by 3`;
    const qs = queries.slice(0, Number(opts.largeQueries));
    const vectors: string[] = [];
    for (const q of qs) vectors.push(toVectorLiteral(await embedder.embedQuery(q.query)));

    const LIMIT = 64;
    // Retrieval's filter, which the primary key can serve; and the same filter written so that only
    // the HNSW index can (a cast is not indexable), to measure HNSW where the planner would not use it.
    const SCOPED = "l.document_id = any ($1::uuid[])";
    const HNSW_ONLY = "l.document_id::text = any ($1::uuid[]::text[])";
    const stage = (filter: string) => `
      select l.document_id, l.chunk_index
      from bench_lite l
      where ${filter}
      order by l.embedding_lite <#> paperwise_fold256($2::vector)
      limit ${LIMIT}`;
    type TResult = { ids: string[]; ms: number };
    interface IMethod {
      label: string;
      filter: string;
      set: string;
    }
    const runAll = async (scope: string[], m: IMethod): Promise<TResult[]> => {
      const out: TResult[] = [];
      for (const v of vectors) {
        const res = await sql.begin(async (tx) => {
          if (m.set) await tx.unsafe(m.set);
          const t = performance.now();
          const found = await tx.unsafe<{ document_id: string; chunk_index: number }[]>(stage(m.filter), [
            scope,
            v,
          ]);
          return { ids: found.map((r) => `${r.document_id}:${r.chunk_index}`), ms: performance.now() - t };
        });
        out.push(res);
      }
      return out;
    };
    const plan = async (scope: string[], m: IMethod): Promise<string> =>
      sql.begin(async (tx) => {
        if (m.set) await tx.unsafe(m.set);
        const lines = await tx.unsafe<{ "QUERY PLAN": string }[]>(`explain ${stage(m.filter)}`, [
          scope,
          vectors[0]!,
        ]);
        const text = lines.map((l) => l["QUERY PLAN"]).join(" ");
        if (/hnsw/i.test(text)) return "HNSW";
        if (/Bitmap/.test(text)) return "bitmap (pkey)";
        if (/Index Scan/.test(text)) return "index (pkey)";
        return /Seq Scan/.test(text) ? "seq scan" : "other";
      });
    /** Share of the exact 64 nearest rows found among the method's 64 candidates. */
    const recallRows = (got: TResult[], exact: TResult[]) =>
      got.reduce((acc, g, i) => {
        const found = new Set(g.ids);
        const truth = exact[i]!.ids;
        return acc + truth.filter((id) => found.has(id)).length / Math.max(1, truth.length);
      }, 0) / got.length;
    // A copy's rows are its source passage with a small perturbation, so several copies of one
    // passage are near-ties: which of them come first is noise. What a teacher gets is passages:
    // the exact scan's 8 nearest distinct passages, and how many of them the method's candidates
    // (which retrieval re-scores) contain, in any copy.
    const srcOf = new Map(
      (await sql<{ id: string; src: string }[]>`select id, src from bench_docs`).map((r) => [r.id, r.src]),
    );
    const passage = (id: string) => {
      const [doc, chunk] = id.split(":");
      return `${srcOf.get(doc!)}:${chunk}`;
    };
    const recallPassages = (got: TResult[], exact: TResult[], k: number) =>
      got.reduce((acc, g, i) => {
        const truth = [...new Set(exact[i]!.ids.map(passage))].slice(0, k);
        const found = new Set(g.ids.map(passage));
        return acc + truth.filter((p) => found.has(p)).length / Math.max(1, truth.length);
      }, 0) / got.length;

    const scopes = new Map<string, string[]>();
    for (const s of [...scopeRows.map((r) => r.subject), "all"]) {
      const [{ ids } = { ids: [] }] = await sql<{ ids: string[] }[]>`
        select array_agg(id) as ids from bench_docs where ${s === "all" ? sql`true` : sql`subject = ${s}`}`;
      scopes.set(s, ids);
    }
    const chunksOf = (s: string) =>
      s === "all" ? rows : (scopeRows.find((r) => r.subject === s)?.chunks ?? 0);
    const header = () => {
      console.log(
        "| scope | chunks | method | plan | exact top-8 passages found | exact 64 rows found | p50 ms | p95 ms |",
      );
      console.log("|---|---:|---|---|---:|---:|---:|---:|");
    };
    const line = async (s: string, ids: string[], m: IMethod, got: TResult[], ex: TResult[]) => {
      const ms = got.map((r) => r.ms);
      console.log(
        `| ${s} | ${chunksOf(s).toLocaleString("en")} | ${m.label} | ${await plan(ids, m)} | ${recallPassages(got, ex, 8).toFixed(3)} | ${recallRows(got, ex).toFixed(3)} | ${pct(ms, 0.5).toFixed(1)} | ${pct(ms, 0.95).toFixed(1)} |`,
      );
    };

    // 1. Exact scoped scan with no vector index (what retrieval runs today), printed at once.
    await sql.unsafe("drop index if exists bench_lite_hnsw");
    const EXACT: IMethod = { label: "exact scoped scan (no vector index)", filter: SCOPED, set: "" };
    const exact = new Map<string, TResult[]>();
    console.log(`${qs.length} queries per scope; the 64 nearest companion vectors per query`);
    header();
    for (const [s, ids] of scopes) {
      const ex = await runAll(ids, EXACT);
      exact.set(s, ex);
      await line(s, ids, EXACT, ex, ex);
    }

    // 2. HNSW on the companion vectors, built once after the load.
    const tb = performance.now();
    await sql.unsafe("set maintenance_work_mem = '3GB'");
    await sql.unsafe("set max_parallel_maintenance_workers = 1");
    await sql.unsafe("create index bench_lite_hnsw on bench_lite using hnsw (embedding_lite vector_ip_ops)");
    const buildS = (performance.now() - tb) / 1000;
    const [{ idxMb } = { idxMb: 0 }] = await sql<{ idxMb: number }[]>`
      select (pg_relation_size('bench_lite_hnsw') / 1048576)::int as "idxMb"`;
    console.log(
      `\nHNSW (m 16, ef_construction 64, one parallel worker) built in ${buildS.toFixed(0)} s, ${idxMb} MB`,
    );
    const iterative = "set local hnsw.iterative_scan = relaxed_order";
    const hnswOnly = `${iterative}; set local enable_seqscan = off`;
    const METHODS: IMethod[] = [
      {
        label: "HNSW only, iterative, ef_search 100, max_scan_tuples 20000 (default)",
        filter: HNSW_ONLY,
        set: `${hnswOnly}; set local hnsw.ef_search = 100`,
      },
      {
        label: "HNSW only, iterative, ef_search 200, max_scan_tuples 100000",
        filter: HNSW_ONLY,
        set: `${hnswOnly}; set local hnsw.ef_search = 200; set local hnsw.max_scan_tuples = 100000`,
      },
      {
        label: "index present, planner's choice (iterative, ef_search 100)",
        filter: SCOPED,
        set: `${iterative}; set local hnsw.ef_search = 100`,
      },
    ];
    header();
    for (const [s, ids] of scopes) {
      for (const m of METHODS) await line(s, ids, m, await runAll(ids, m), exact.get(s)!);
    }
  } finally {
    await sql.end();
  }
}
