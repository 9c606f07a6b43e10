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
 *               pgvector 0.8's iterative scans, per scope size: recall@8 against exact, latency,
 *               build time and size, ingestion's insert cost with and without the index, memory
 *               (docs/scaling.md). --large-reuse-index keeps a previous run's index (the build
 *               takes ~17 min at 1M on the shared machine).
 *   hybrid-large  the whole retrieval SQL (`paperwise_hybrid_search`: BM25 postings, vector stage,
 *               re-score, fusion; and the app's other statements) at --large chunks in the real
 *               tables, exact vector stage vs the HNSW index `npm run db:index` builds
 *               (--hybrid-m, --hybrid-ef-construction), per subject (support/hybrid-large.ts).
 *               Data of a previous run are kept; --large-reuse-index keeps its index too.
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
import { hybridLargeRun } from "./support/hybrid-large";
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
  .option("--hnsw-m <n>", "large run: HNSW graph degree", "16")
  .option("--hnsw-ef-construction <n>", "large run: HNSW candidates kept while building", "64")
  .option(
    "--large-reuse-index",
    "large run: keep an HNSW index a previous run built (and skip the slow settings)",
  )
  .option("--hybrid-m <n>", "hybrid-large run: HNSW graph degree (db:index's default)", "32")
  .option("--hybrid-ef-construction <n>", "hybrid-large run: HNSW build candidates", "128")
  .option("--maintenance-work-mem <size>", "hybrid-large run: memory for the HNSW build", "4GB")
  .option("--phases <list>", "phases to run (also: hybrid-large)", "ingest,quality,throughput,scale,large")
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
    largeReuseIndex?: boolean;
    hnswM: string;
    hnswEfConstruction: string;
    hybridM: string;
    hybridEfConstruction: string;
    maintenanceWorkMem: string;
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

if (phases.has("hybrid-large"))
  await hybridLargeRun({
    url: benchUrl.toString(),
    embedder,
    userId,
    queries: queries.slice(0, Number(opts.largeQueries)),
    n: Number(opts.large),
    m: Number(opts.hybridM),
    efConstruction: Number(opts.hybridEfConstruction),
    maintenanceWorkMem: opts.maintenanceWorkMem,
    reuseIndex: Boolean(opts.largeReuseIndex),
  });

await db.close();

/**
 * Exact scoped scan vs HNSW + iterative scans on the vector stage, at `n` chunks.
 *
 * Retrieval's vector stage reads `chunk_lite` (256-d companions) for the scope's documents and
 * keeps the 64 nearest; only those are re-scored with the full vectors. That stage is what grows
 * with a district's size, so it is measured alone here, on `bench_lite`, a table shaped like
 * `chunk_lite` (same columns and primary key). Its rows are synthetic but built from the real
 * ones: each copy of a real chunk is `l2_normalize(chunk + partner)` with a partner drawn from the
 * other real chunks by a hash of (copy, chunk). A copy is then about as close to its source
 * (cosine ≈ 0.74) as real nearest neighbours are to each other (≈ 0.53 on the two books), so
 * the copies do not form tight clusters of near-ties (which HNSW handles badly and a real district
 * would not have within one scope), and every copy is a distinct point from the real distribution.
 * Copies of whole documents are dealt to scopes of 0.1 % … 30 % of the chunks (the rest to
 * "other"), as subjects of different sizes would be.
 */
async function largeRun(n: number): Promise<void> {
  const SCOPES = [
    { name: "s0.1", share: 0.001 },
    { name: "s0.3", share: 0.003 },
    { name: "s1", share: 0.01 },
    { name: "s3", share: 0.03 },
    { name: "s10", share: 0.1 },
    { name: "s30", share: 0.3 },
  ];
  const sql = postgres(benchUrl.toString(), { max: 1, onnotice: () => undefined });
  const secs = (t: number) => ((performance.now() - t) / 1000).toFixed(1);
  try {
    const t0 = performance.now();
    const [{ have } = { have: 0 }] = await sql<
      { have: number }[]
    >`select count(*)::int as have from bench_lite`.catch(() => [{ have: -1 }]);
    // Built afresh unless the table already holds about n rows.
    if (have < n || have > n * 1.05) {
      await sql.unsafe(`
        drop table if exists bench_lite, bench_docs, bench_noise, bench_src;
        -- The books as ingested (not the scale-up's exact copies), numbered for partner draws.
        create table bench_src as
          select (row_number() over (order by l.document_id, l.chunk_index) - 1)::int as rn,
                 l.document_id, l.chunk_index, l.embedding_lite from chunk_lite l
          join documents d on d.id = l.document_id where d.subject not like 'Synthetic %';
        create unique index on bench_src (rn);
        create table bench_docs (id uuid primary key, subject text not null, src uuid not null, chunks int not null);
        create table bench_lite (like chunk_lite including defaults including indexes);`);
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
      const tl = performance.now();
      await sql.unsafe(`
        insert into bench_lite (document_id, chunk_index, embedding_lite)
        select b.id, l.chunk_index, l2_normalize(l.embedding_lite + p.embedding_lite)
        from bench_docs b
        join bench_src l on l.document_id = b.src
        join bench_src p on p.rn = abs(hashtext(b.id::text || ':' || l.chunk_index)) % ${per}`);
      await sql.unsafe("analyze bench_docs; analyze bench_lite");
      console.error(`bench_lite loaded in ${secs(tl)} s`);
    }
    const size = async (rel: string) =>
      (
        await sql<
          { mb: number }[]
        >`select (pg_total_relation_size(${rel}::regclass) / 1048576)::int as mb`.catch(() => [{ mb: 0 }])
      )[0]!.mb;
    const [{ rows } = { rows: 0 }] = await sql<
      { rows: number }[]
    >`select count(*)::int as rows from bench_lite`;
    console.log(
      `\n## Large: vector stage at ${rows.toLocaleString("en")} chunks (bench_lite ${await size("bench_lite")} MB with its primary key; data built in ${secs(t0)} s)`,
    );
    const scopeRows = await sql<{ subject: string; docs: number; chunks: number }[]>`
      select subject, count(*)::int as docs, sum(chunks)::int as chunks from bench_docs group by 1 order by 3`;
    const qs = queries.slice(0, Number(opts.largeQueries));
    // Folded once per query, as retrieval's function does into a variable (folding inside the
    // ORDER BY of a prepared statement would cost a fold per row).
    const vectors: string[] = [];
    for (const q of qs) {
      const [{ lite } = { lite: "" }] = await sql<{ lite: string }[]>`
        select paperwise_fold256(${toVectorLiteral(await embedder.embedQuery(q.query))}::vector)::text as lite`;
      vectors.push(lite);
    }

    const LIMIT = 64;
    // Retrieval's exact form: `+ 0` keeps the order expression from matching an HNSW index, so the
    // scan stays exact with or without one (the primary key or a seq scan serves the filter).
    const EXACT_SQL = `
      select l.document_id, l.chunk_index from bench_lite l
      where l.document_id = any ($1::uuid[])
      order by (l.embedding_lite <#> $2::vector(256)) + 0
      limit ${LIMIT}`;
    // The HNSW form: the filter cast so that only the vector index can serve the query, results
    // put back in distance order (relaxed_order iterative scans may return them slightly out of order).
    // `fetch` > LIMIT over-fetches: the index's first `fetch` rows, of which the nearest LIMIT are kept
    // (cheap: distances of a few hundred rows), which makes up for some of the graph's misses.
    const hnswSql = (fetch: number) => `
      select h.document_id, h.chunk_index from (
        select l.document_id, l.chunk_index, l.embedding_lite <#> $2::vector(256) as dist
        from bench_lite l
        where l.document_id::text = any ($1::uuid[]::text[])
        order by l.embedding_lite <#> $2::vector(256)
        limit ${fetch}) h
      order by h.dist
      limit ${LIMIT}`;
    const HNSW_SQL = hnswSql(LIMIT);
    type TResult = { ids: string[]; ms: number };
    interface IMethod {
      label: string;
      text: string;
      set: string;
    }
    const runAll = async (scope: string[], m: IMethod): Promise<TResult[]> => {
      const out: TResult[] = [];
      for (const v of vectors) {
        const res = await sql.begin(async (tx) => {
          if (m.set) await tx.unsafe(m.set);
          const t = performance.now();
          const found = await tx.unsafe<{ document_id: string; chunk_index: number }[]>(m.text, [scope, v]);
          return { ids: found.map((r) => `${r.document_id}:${r.chunk_index}`), ms: performance.now() - t };
        });
        out.push(res);
      }
      return out;
    };
    const plan = async (scope: string[], m: IMethod): Promise<string> =>
      sql.begin(async (tx) => {
        if (m.set) await tx.unsafe(m.set);
        const lines = await tx.unsafe<{ "QUERY PLAN": string }[]>(`explain ${m.text}`, [scope, vectors[0]!]);
        const text = lines.map((l) => l["QUERY PLAN"]).join(" ");
        if (/hnsw/i.test(text)) return "HNSW";
        if (/Bitmap/.test(text)) return "bitmap (pkey)";
        if (/Index Scan/.test(text)) return "index (pkey)";
        return /Seq Scan/.test(text) ? "seq scan" : "other";
      });
    /** Recall@k: the share of the exact k nearest found among the method's first `depth` rows. */
    const recall = (got: TResult[], exact: TResult[], k: number, depth: number) =>
      got.reduce((acc, g, i) => {
        const found = new Set(g.ids.slice(0, depth));
        const truth = exact[i]!.ids.slice(0, k);
        return acc + truth.filter((id) => found.has(id)).length / Math.max(1, truth.length);
      }, 0) / got.length;

    // A copy carries its source chunk's text: what a teacher sees is the passage, so also count the
    // exact scan's 8 nearest distinct source passages found (in any copy) among the method's rows.
    const srcOf = new Map(
      (await sql<{ id: string; src: string }[]>`select id, src::text from bench_docs`).map((r) => [
        r.id,
        r.src,
      ]),
    );
    const passage = (id: string) => {
      const [doc, chunk] = id.split(":");
      return `${srcOf.get(doc!)}:${chunk}`;
    };
    const recallPassages = (got: TResult[], exact: TResult[]) =>
      got.reduce((acc, g, i) => {
        const truth = [...new Set(exact[i]!.ids.map(passage))].slice(0, 8);
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
        "| scope | chunks | method | plan | recall@8 (exact 8 in its 64) | recall@8 (top 8 vs top 8) | exact 8 passages in its 64 | short results | p50 ms | p95 ms |",
      );
      console.log("|---|---:|---|---|---:|---:|---:|---:|---:|---:|");
    };
    const line = async (s: string, ids: string[], m: IMethod, got: TResult[], ex: TResult[]) => {
      const ms = got.map((r) => r.ms);
      const short = got.filter((g) => g.ids.length < Math.min(LIMIT, chunksOf(s))).length;
      console.log(
        `| ${s} | ${chunksOf(s).toLocaleString("en")} | ${m.label} | ${await plan(ids, m)} | ${recall(got, ex, 8, LIMIT).toFixed(3)} | ${recall(got, ex, 8, 8).toFixed(3)} | ${recallPassages(got, ex).toFixed(3)} | ${short} | ${pct(ms, 0.5).toFixed(1)} | ${pct(ms, 0.95).toFixed(1)} |`,
      );
    };
    /** One book's worth of companion rows inserted and rolled back: what ingestion pays per chunk. */
    const insertCost = async (): Promise<string> => {
      const t = performance.now();
      await sql
        .begin(async (tx) => {
          await tx.unsafe(`
            insert into bench_lite (document_id, chunk_index, embedding_lite)
            select gen_random_uuid(), 0, l2_normalize(embedding_lite + embedding_lite) from bench_src`);
          throw new Error("rollback");
        })
        .catch(() => undefined);
      const ms = performance.now() - t;
      const [{ per } = { per: 1 }] = await sql<{ per: number }[]>`select count(*)::int as per from bench_src`;
      return `${per} rows in ${(ms / 1000).toFixed(2)} s (${((ms * 1000) / per).toFixed(0)} µs a chunk)`;
    };
    const memory = async (label: string) => {
      const [{ pid } = { pid: 0 }] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
      const [{ sb } = { sb: "" }] = await sql<
        { sb: string }[]
      >`select current_setting('shared_buffers') as sb`;
      const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
      const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
      console.log(
        `memory ${label}: shared_buffers ${sb}; this backend RSS ${(kb("VmRSS") / 1024).toFixed(0)} MB (anonymous ${(kb("RssAnon") / 1024).toFixed(0)} MB, shared ${(kb("RssShmem") / 1024).toFixed(0)} MB)`,
      );
    };

    // 1. Exact scoped scan with no vector index (what retrieval runs below the crossover).
    const [{ reuse } = { reuse: false }] = await sql<{ reuse: boolean }[]>`
      select to_regclass('bench_lite_hnsw') is not null as reuse`;
    const reused = Boolean(opts.largeReuseIndex && reuse);
    if (!reused) {
      await sql.unsafe("drop index if exists bench_lite_hnsw");
      console.log(`ingestion's companion-vector insert, no vector index: ${await insertCost()}`);
    } else console.log("HNSW index of a previous run kept (--large-reuse-index); the exact form stays exact");
    const EXACT: IMethod = { label: "exact scoped scan", text: EXACT_SQL, set: "" };
    const exact = new Map<string, TResult[]>();
    console.log(`${qs.length} queries per scope; the 64 nearest companion vectors per query`);
    header();
    for (const [s, ids] of scopes) {
      const ex = await runAll(ids, EXACT);
      exact.set(s, ex);
      await line(s, ids, EXACT, ex, ex);
    }
    await memory("after the exact scans");

    // 2. HNSW on the companion vectors, built once after the load (what `npm run db:index` builds).
    if (!reused) {
      const tb = performance.now();
      await sql.unsafe("set maintenance_work_mem = '2GB'");
      await sql.unsafe("set max_parallel_maintenance_workers = 1");
      const m = Number(opts.hnswM);
      const efc = Number(opts.hnswEfConstruction);
      await sql.unsafe(
        `create index bench_lite_hnsw on bench_lite using hnsw (embedding_lite vector_ip_ops) with (m = ${m}, ef_construction = ${efc})`,
      );
      console.log(
        `\nHNSW (m ${m}, ef_construction ${efc}, maintenance_work_mem 2GB, one parallel worker) built in ${secs(tb)} s, ${await size("bench_lite_hnsw")} MB`,
      );
      console.log(`ingestion's companion-vector insert, HNSW present: ${await insertCost()}`);
    }
    const iterative = "set local hnsw.iterative_scan = relaxed_order";
    const METHODS: IMethod[] = [
      { label: "exact form, index present", text: EXACT_SQL, set: "" },
      {
        label: "HNSW, iterative, ef_search 40, max_scan_tuples 20000 (defaults)",
        text: HNSW_SQL,
        set: `${iterative}; set local enable_seqscan = off`,
      },
      {
        label: "HNSW, iterative, ef_search 100, max_scan_tuples 20000",
        text: HNSW_SQL,
        set: `${iterative}; set local enable_seqscan = off; set local hnsw.ef_search = 100`,
      },
      {
        label: "HNSW, iterative, ef_search 200, max_scan_tuples 100000",
        text: HNSW_SQL,
        set: `${iterative}; set local enable_seqscan = off; set local hnsw.ef_search = 200; set local hnsw.max_scan_tuples = 100000`,
      },
      {
        label: "HNSW, iterative, ef_search 100, 256 fetched, nearest 64 kept",
        text: hnswSql(256),
        set: `${iterative}; set local enable_seqscan = off; set local hnsw.ef_search = 100`,
      },
      {
        label: "HNSW, iterative, ef_search 200, 512 fetched, nearest 64 kept",
        text: hnswSql(512),
        set: `${iterative}; set local enable_seqscan = off; set local hnsw.ef_search = 200`,
      },
    ].filter((m) => !reused || !/exact form|max_scan_tuples 100000|ef_search 40/.test(m.label));
    header();
    for (const [s, ids] of scopes) {
      for (const m of METHODS) await line(s, ids, m, await runAll(ids, m), exact.get(s)!);
    }
    await memory("after the HNSW scans");
  } finally {
    await sql.end();
  }
}
