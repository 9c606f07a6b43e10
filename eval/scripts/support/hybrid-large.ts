import { readFile } from "node:fs/promises";
import postgres from "postgres";
import { openPostgres } from "@/lib/db/postgres";
import { createVectorIndex, HNSW_INDEX, vectorIndexBytes } from "@/lib/db/vector-index";
import {
  fetchNeighbours,
  hybridSearch,
  type IHybridRow,
  type IHybridSearchParams,
  scopeWordCounts,
  storedZones,
} from "@/lib/retrieval/store";
import type { IEmbedder } from "@/types/chunk.types";
import { pct } from "./retrieval-quality";

/**
 * bench:postgres phase `hybrid-large` (docs/scaling.md): the whole retrieval SQL at about `n`
 * chunks in the real tables. The two ingested books' documents are copied into many documents of
 * the board "Bench" (one ingestion and one published document version each) and dealt to
 * subjects of 0.1 % … 30 % of the chunks (the rest to "Bench other"), as the `large` phase deals
 * them. Every copy of a chunk keeps its text (so its BM25 postings in `chunk_terms` are the
 * source's) and gets the vector `l2_normalize(chunk + partner)` with a partner chunk drawn by a
 * hash (as `large` perturbs the companion vectors); its `chunk_lite` row is
 * `paperwise_fold256` of that, as ingestion computes it. All of it server-side insert-selects.
 *
 * Then per subject: `paperwise_hybrid_search` through the app's `hybridSearch` (and the other
 * statements of one retrieval: `scopeWordCounts`, `storedZones`, `fetchNeighbours`) with the exact
 * vector path (forced by the session's `paperwise.hnsw_min_chunks`), the HNSW index built as
 * `npm run db:index` builds it, and the same queries with the function's own crossover: p50/p95,
 * recall@8 of the top 8 against the exact run (rows and source passages), sizes, build times,
 * backend memory. One connection, so the session's settings hold.
 */

export interface IHybridLargeOptions {
  url: string;
  embedder: IEmbedder;
  userId: string;
  queries: { query: string }[];
  n: number;
  m: number;
  efConstruction: number;
  maintenanceWorkMem: string;
  /** Keep the HNSW index a previous run built. */
  reuseIndex: boolean;
}

const BOARD = "Bench";
const SCOPES = [
  { name: "Bench s0.1", share: 0.001 },
  { name: "Bench s0.3", share: 0.003 },
  { name: "Bench s1", share: 0.01 },
  { name: "Bench s3", share: 0.03 },
  { name: "Bench s10", share: 0.1 },
  { name: "Bench s30", share: 0.3 },
];
/** What retrieval asks of the function for a "general" query: 8 passages × fan-out 3, alpha 0.65. */
const LIMIT = 24;
const ALPHA = 0.65;
/** A crossover no scope reaches: the function's exact scoped scan even with the index present. */
const EXACT_MIN = "2000000000";

/** The migrations' secondary indexes on the three chunk tables (the primary keys stay during the load). */
const SECONDARY = [
  {
    name: "document_chunks_fts_idx",
    def: "create index if not exists document_chunks_fts_idx on public.document_chunks using gin (fts)",
  },
  {
    name: "chunk_terms_lexeme_idx",
    def: "create index if not exists chunk_terms_lexeme_idx on public.chunk_terms (lexeme, document_id)",
  },
  {
    name: "chunk_terms_document_idx",
    def: "create index if not exists chunk_terms_document_idx on public.chunk_terms (document_id)",
  },
];

const secs = (t: number) => ((performance.now() - t) / 1000).toFixed(1);
const log = (s: string) => console.error(`[hybrid-large ${new Date().toISOString().slice(11, 19)}] ${s}`);

async function loadAverage(): Promise<string> {
  return (await readFile("/proc/loadavg", "utf8").catch(() => "? ? ?")).split(" ").slice(0, 3).join(" ");
}

/** Builds the copies unless about `n` chunks of the board are already there. */
async function build(sql: postgres.Sql, n: number): Promise<void> {
  // hb_done is written last: a build that stopped half-way is redone.
  const [{ have } = { have: -1 }] = await sql<{ have: number }[]>`select n as have from hb_done`.catch(() => [
    { have: -1 },
  ]);
  const [{ per } = { per: 1 }] = await sql<{ per: number }[]>`
    select count(*)::int as per from document_chunks c join document_versions d on d.id = c.document_id
    where d.board <> ${BOARD} and d.state = 'published'`;
  if (have >= n - per && have <= n * 1.05) {
    console.log(`data of a previous run kept: ${have.toLocaleString("en")} chunks on the board ${BOARD}`);
    return;
  }
  const step = async (label: string, text: string) => {
    const t = performance.now();
    log(`${label} …`);
    await sql.unsafe(text);
    const s = secs(t);
    log(`${label}: ${s} s`);
    console.log(`| ${label} | ${s} |`);
  };
  const copies = Math.ceil(n / per);
  console.log(
    `\n### Build: ${copies} copies of the ${per} real chunks (load average ${await loadAverage()})`,
  );
  console.log("| step | s |");
  console.log("|---|---:|");
  const t0 = performance.now();
  await sql.unsafe(`
    drop table if exists hb_done;
    delete from ingestions where board = '${BOARD}';
    drop table if exists hb_src, hb_docs;
    create table hb_src as
      select (row_number() over (order by c.document_id, c.chunk_index) - 1)::int as rn, c.document_id, c.chunk_index
      from document_chunks c join document_versions d on d.id = c.document_id
      where d.board <> '${BOARD}' and d.state = 'published';
    create unique index on hb_src (rn);
    create table hb_docs (id uuid primary key, ingestion_id uuid not null, subject text not null,
                          src uuid not null, chunks int not null, batch int not null);
    insert into hb_docs
      select gen_random_uuid(), gen_random_uuid(), '${BOARD} other', d.id, d.chunk_count, g % 10
      from generate_series(1, ${copies}) g,
           (select id, chunk_count from document_versions where board <> '${BOARD}' and state = 'published') d;`);
  for (const s of SCOPES)
    await sql.unsafe(`
      with ranked as (
        select id, sum(chunks) over (order by md5(id::text)) as running from hb_docs where subject = '${BOARD} other'
      )
      update hb_docs b set subject = '${s.name}' from ranked r where r.id = b.id and r.running <= ${Math.round(s.share * n)}`);
  await sql.unsafe("analyze hb_src; analyze hb_docs");
  // The secondary indexes (as the migrations define them) are built after the load (faster than
  // maintaining them row by row); the primary keys stay. Foreign-key triggers are skipped for the load (every copy's document
  // version exists; session_replication_role = replica, a superuser's bulk-load setting).
  await sql.unsafe(`drop index if exists ${HNSW_INDEX}`);
  for (const i of SECONDARY) await sql.unsafe(`drop index if exists ${i.name}`);
  await sql.unsafe("set session_replication_role = replica");
  await step(
    "ingestions + document versions",
    `insert into ingestions (id, user_id, board, grade, subject, resource_type, chapter_number, chapter_name,
       visibility, title, original_filename, mime_type, byte_size, content_sha256, dedupe_key, status,
       progress_done, progress_total, bucket, path, attempts)
     select b.ingestion_id, i.user_id, '${BOARD}', i.grade, b.subject, i.resource_type, i.chapter_number,
       i.chapter_name, i.visibility, i.title, i.original_filename, i.mime_type, i.byte_size, i.content_sha256,
       i.dedupe_key || ':' || b.id, i.status, i.progress_done, i.progress_total, i.bucket, i.path, i.attempts
     from hb_docs b join document_versions v on v.id = b.src join ingestions i on i.id = v.ingestion_id;
     insert into document_versions (id, ingestion_id, owner_id, board, grade, subject, resource_type,
       chapter_number, chapter_name, visibility, title, bucket, path, mime_type, page_count, char_count,
       chunk_count, token_count, embedding_model, metadata, state)
     select b.id, b.ingestion_id, v.owner_id, '${BOARD}', v.grade, b.subject, v.resource_type, v.chapter_number,
       v.chapter_name, v.visibility, v.title, v.bucket, v.path, v.mime_type, v.page_count, v.char_count,
       v.chunk_count, v.token_count, v.embedding_model, v.metadata, 'published'
     from hb_docs b join document_versions v on v.id = b.src`,
  );
  const tc = performance.now();
  for (let batch = 0; batch < 10; batch++)
    await step(
      `document_chunks batch ${batch + 1}/10 (text, perturbed 1536-d vector, generated tsvector)`,
      `insert into document_chunks (document_id, chunk_index, content, tokens, page_start, page_end, section_path,
         char_start, char_end, embedding, embedding_model, zone, zone_spans)
       select b.id, c.chunk_index, c.content, c.tokens, c.page_start, c.page_end, c.section_path, c.char_start,
         c.char_end, l2_normalize(c.embedding + pc.embedding), c.embedding_model, c.zone, c.zone_spans
       from hb_docs b
       join document_chunks c on c.document_id = b.src
       join hb_src p on p.rn = abs(hashtext(b.id::text || ':' || c.chunk_index)) % ${per}
       join document_chunks pc on pc.document_id = p.document_id and pc.chunk_index = p.chunk_index
       where b.batch = ${batch}`,
    );
  console.log(`| document_chunks, all batches | ${secs(tc)} |`);
  await step(
    "chunk_lite (paperwise_fold256 of the copies' vectors)",
    `insert into chunk_lite (document_id, chunk_index, embedding_lite)
     select c.document_id, c.chunk_index, paperwise_fold256(c.embedding)
     from hb_docs b join document_chunks c on c.document_id = b.id`,
  );
  await step(
    "chunk_terms (the sources' BM25 postings)",
    `insert into chunk_terms (document_id, chunk_index, lexeme, tf_body, tf_head, dl)
     select b.id, t.chunk_index, t.lexeme, t.tf_body, t.tf_head, t.dl
     from hb_docs b join chunk_terms t on t.document_id = b.src`,
  );
  await sql.unsafe("reset session_replication_role");
  await sql.unsafe("set maintenance_work_mem = '2GB'; set max_parallel_maintenance_workers = 2");
  for (const i of SECONDARY) await step(`index ${i.name}`, i.def);
  await sql.unsafe("reset maintenance_work_mem; reset max_parallel_maintenance_workers");
  // skip_locked: an HNSW build started meanwhile (db:index) holds chunk_lite; it sets its row count.
  await step(
    "analyze",
    "analyze (skip_locked) ingestions, document_versions, document_chunks, chunk_lite, chunk_terms",
  );
  console.log(`| **total** | ${secs(t0)} |`);
  await sql.unsafe(`
    create table hb_done as
      select coalesce(sum(chunk_count), 0)::int as n from document_versions where board = '${BOARD}'`);
}

interface IRun {
  rows: IHybridRow[];
  ms: number;
  /** The app's other statements of one retrieval (scope vocabulary, zones, neighbours). */
  restMs: number;
  path: string;
}

export async function hybridLargeRun(o: IHybridLargeOptions): Promise<void> {
  const sql = postgres(o.url, { max: 1, onnotice: () => undefined });
  const db = openPostgres(o.url, { max: 1 });
  try {
    console.log(`\n## Hybrid large: paperwise_hybrid_search at about ${o.n.toLocaleString("en")} chunks`);
    await build(sql, o.n);

    const sizes = await sql<{ rel: string; rows: string; mb: number; idx_mb: number }[]>`
      select c.relname as rel, c.reltuples::bigint::text as rows,
             (pg_total_relation_size(c.oid) / 1048576)::int as mb,
             (pg_indexes_size(c.oid) / 1048576)::int as idx_mb
      from pg_class c where c.relname in ('document_chunks', 'chunk_terms', 'chunk_lite', 'document_versions')
      order by 3 desc`;
    console.log("\n| table | rows (estimate) | total MB (with TOAST and indexes) | of which indexes MB |");
    console.log("|---|---:|---:|---:|");
    for (const s of sizes)
      console.log(`| ${s.rel} | ${Number(s.rows).toLocaleString("en")} | ${s.mb} | ${s.idx_mb} |`);
    const [{ db_mb } = { db_mb: 0 }] = await sql<{ db_mb: number }[]>`
      select (pg_database_size(current_database()) / 1048576)::int as db_mb`;
    console.log(`database size ${db_mb.toLocaleString("en")} MB`);

    const scopeRows = await sql<{ subject: string; docs: number; chunks: number }[]>`
      select subject, count(*)::int as docs, sum(chunk_count)::int as chunks
      from document_versions where board = ${BOARD} and state = 'published' group by 1 order by 3`;
    const [{ model } = { model: "" }] = await sql<{ model: string }[]>`
      select embedding_model as model from document_versions where board = ${BOARD} limit 1`;
    const [{ grade } = { grade: "" }] = await sql<{ grade: string }[]>`
      select grade from document_versions where board = ${BOARD} limit 1`;
    // A copy's passage is its source's: the truth a teacher sees.
    const srcOf = new Map(
      (await sql<{ id: string; src: string }[]>`select id::text, src::text from hb_docs`).map((r) => [
        r.id,
        r.src,
      ]),
    );
    const passage = (r: IHybridRow) => `${srcOf.get(r.document_id) ?? r.document_id}:${r.chunk_index}`;
    const embeddings: Float32Array[] = [];
    for (const q of o.queries) embeddings.push(await o.embedder.embedQuery(q.query));

    const runScope = async (subject: string, count = o.queries.length): Promise<IRun[]> => {
      const out: IRun[] = [];
      for (const [i, q] of o.queries.slice(0, count).entries()) {
        const params: IHybridSearchParams = {
          userId: o.userId,
          board: BOARD,
          grade,
          subject,
          resourceTypes: null,
          chapterNumber: null,
          chapterName: null,
          query: q.query,
          embedding: embeddings[i]!,
          embeddingModel: model,
          alpha: ALPHA,
          limit: LIMIT,
        };
        const t = performance.now();
        const rows = await hybridSearch(db, params);
        const ms = performance.now() - t;
        const t2 = performance.now();
        await scopeWordCounts(db, o.userId, { board: BOARD, grade, subject, resourceTypes: null }, [
          ...new Set(q.query.toLowerCase().match(/[a-z]{3,}/g) ?? []),
        ]);
        const top = rows.slice(0, 8);
        await storedZones(
          db,
          top.map((r) => r.document_id),
          top.map((r) => r.chunk_index),
        );
        await fetchNeighbours(
          db,
          top.map((r) => ({
            documentId: r.document_id,
            chunkIndex: r.chunk_index,
            sectionPath: r.section_path,
          })),
          1,
        );
        out.push({ rows, ms, restMs: performance.now() - t2, path: "" });
      }
      return out;
    };
    /** Which vector path the function takes for this subject (one probe, in a transaction). */
    const pathOf = async (subject: string, forceExact: boolean): Promise<string> =>
      sql.begin(async (tx) => {
        if (forceExact) await tx.unsafe(`set local paperwise.hnsw_min_chunks = '${EXACT_MIN}'`);
        await tx.unsafe(
          `select count(*) from paperwise_hybrid_search($1, $2, $3, $4, null, null, null, $5, $6::vector, $7, $8, $9)`,
          [
            o.userId,
            BOARD,
            grade,
            subject,
            o.queries[0]!.query,
            `[${Array.from(embeddings[0]!).join(",")}]`,
            model,
            ALPHA,
            LIMIT,
          ],
        );
        const [{ p } = { p: "" }] = await tx.unsafe<{ p: string }[]>(
          "select coalesce(current_setting('paperwise.vector_path', true), '') as p",
        );
        return p;
      });
    const memory = async (label: string) => {
      const pids = await sql<{ pid: number }[]>`
        select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend'`;
      const rss: string[] = [];
      for (const { pid } of pids) {
        const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
        const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
        if (status)
          rss.push(`${(kb("VmRSS") / 1024).toFixed(0)} MB (anonymous ${(kb("RssAnon") / 1024).toFixed(0)})`);
      }
      const [{ sb } = { sb: "" }] = await sql<
        { sb: string }[]
      >`select current_setting('shared_buffers') as sb`;
      console.log(`memory ${label}: shared_buffers ${sb}; client backends' RSS ${rss.join(", ")}`);
    };
    const chunksOf = (s: string) => scopeRows.find((r) => r.subject === s)?.chunks ?? 0;
    const header = () => {
      console.log(
        "| subject | chunks | vector path | p50 ms | p95 ms | vector stage p50 ms | BM25 stage p50 ms | rest of the app's SQL p50 ms | top-8 rows vs exact | top-8 passages vs exact |",
      );
      console.log("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|");
    };
    /** The first 8 distinct keys of the exact run found among the first 8 distinct keys of `got`. */
    const recall = (got: IRun[], exact: IRun[], key: (r: IHybridRow) => string) =>
      got.reduce((acc, g, i) => {
        const truth = [...new Set(exact[i]!.rows.map(key))].slice(0, 8);
        const found = new Set([...new Set(g.rows.map(key))].slice(0, 8));
        return acc + truth.filter((k) => found.has(k)).length / Math.max(1, truth.length);
      }, 0) / got.length;
    const line = (s: string, path: string, got: IRun[], exact: IRun[]) => {
      const stage = (k: "vector_ms" | "keyword_ms") => got.map((g) => g.rows[0]?.[k] ?? 0);
      console.log(
        `| ${s} | ${chunksOf(s).toLocaleString("en")} | ${path} | ${pct(
          got.map((g) => g.ms),
          0.5,
        ).toFixed(0)} | ${pct(
          got.map((g) => g.ms),
          0.95,
        ).toFixed(
          0,
        )} | ${pct(stage("vector_ms"), 0.5).toFixed(0)} | ${pct(stage("keyword_ms"), 0.5).toFixed(0)} | ${pct(
          got.map((g) => g.restMs),
          0.5,
        ).toFixed(
          0,
        )} | ${recall(got, exact, (r) => `${r.document_id}:${r.chunk_index}`).toFixed(3)} | ${recall(got, exact, passage).toFixed(3)} |`,
      );
    };

    const subjects = scopeRows.map((r) => r.subject);
    const exact = new Map<string, IRun[]>();
    // 1. The exact scoped scan everywhere (the truth), index or not.
    await db.exec(`set paperwise.hnsw_min_chunks = '${EXACT_MIN}'`);
    console.log(
      `\n### Exact vector stage; ${o.queries.length} queries per subject, limit ${LIMIT}, alpha ${ALPHA}; load average ${await loadAverage()}`,
    );
    header();
    for (const s of subjects) {
      await runScope(s, 5); // warm the caches
      const ex = await runScope(s);
      exact.set(s, ex);
      line(s, await pathOf(s, true), ex, ex);
    }
    await memory("after the exact runs");
    console.log(`load average ${await loadAverage()}`);
    await db.exec("reset paperwise.hnsw_min_chunks");

    // 2. The index `npm run db:index` builds, then the same queries with the function's crossover.
    // An index being built by another session (e.g. `npm run db:index` started once chunk_lite
    // was loaded) is waited for and used.
    for (;;) {
      const [{ building } = { building: 0 }] = await db.query<{ building: number }>(
        "select count(*)::int as building from pg_stat_progress_create_index where relid = 'chunk_lite'::regclass",
      );
      if (!building) break;
      log("an HNSW build of another session is in progress; waiting");
      await new Promise((r) => setTimeout(r, 15_000));
    }
    const kept = await vectorIndexBytes(db);
    if (kept !== null && o.reuseIndex)
      console.log(`\nHNSW index built before this step kept (${(kept / 1048576).toFixed(0)} MB)`);
    else {
      if (kept !== null) await db.exec(`drop index ${HNSW_INDEX}`);
      log(`HNSW m ${o.m}, ef_construction ${o.efConstruction} …`);
      console.log(`\nload average before the HNSW build ${await loadAverage()}`);
      await db.exec("set max_parallel_maintenance_workers = 2");
      const ms = await createVectorIndex(db, {
        m: o.m,
        efConstruction: o.efConstruction,
        maintenanceWorkMem: o.maintenanceWorkMem,
        concurrently: false,
      });
      await db.exec("reset max_parallel_maintenance_workers");
      console.log(
        `HNSW (m ${o.m}, ef_construction ${o.efConstruction}, maintenance_work_mem ${o.maintenanceWorkMem}, 2 parallel workers) built in ${(ms / 1000).toFixed(1)} s, ${(((await vectorIndexBytes(db)) ?? 0) / 1048576).toFixed(0)} MB; load average after ${await loadAverage()}`,
      );
    }
    console.log(
      `\n### HNSW index present (the function's crossover decides); load average ${await loadAverage()}`,
    );
    header();
    for (const s of subjects) {
      await runScope(s, 5);
      const got = await runScope(s);
      line(s, await pathOf(s, false), got, exact.get(s)!);
    }
    await memory("after the HNSW runs");
    console.log(`load average ${await loadAverage()}`);
  } finally {
    await sql.end();
    await db.close();
  }
}
