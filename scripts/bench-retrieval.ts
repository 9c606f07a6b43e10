/**
 * npm run bench:retrieval -- [--queries ../shared/eval/queries-open.jsonl] [--scale 50000] [--limit N] [--no-planner]
 *
 * (a) Server-side latency of the retrieval pipeline (what /api/retrieval/query runs, offline
 *     providers, topK 8, rerank on) over the open queries with both books ingested; beside it,
 *     Supabase's documented RRF `hybrid_search` (k = 50, both weights 1) on the same chunks and
 *     embeddings: quality (Recall@8, nDCG@10) and latency.
 * (b) The same queries after a synthetic scale-up to --scale chunks across --subjects subjects
 *     (copies of the books' chapters dealt round-robin to synthetic subjects; queries stay
 *     scoped to Biology).
 * (c) One more book (a copy of the physics corpus under a new subject) ingested while the same
 *     queries are served in a loop: query latency during ingestion, ingestion wall time, disk
 *     size of the data directory and RSS.
 */
import { cp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Command } from "commander";
import { dedupeSections, ndcgAt, recallAt, type TGrades } from "@/lib/eval/metrics";
import { openOfflineWorkspace } from "./support/workspace";

const opts = new Command()
  .option("--queries <file>", "queries (JSONL)", "../shared/eval/queries-open.jsonl")
  .option("--corpus <dirs...>", "books", [
    "../shared/eval/corpus/biology-2e",
    "../shared/eval/corpus/physics",
  ])
  .option("--scale <n>", "total chunks for the scale-up (0 = skip)", "50000")
  .option("--subjects <n>", "synthetic subjects the scale-up spreads over", "24")
  .option("--limit <n>", "first N queries")
  .option("--no-planner", "the single query as classified (the pipeline before the query planner)")
  .option("--data-dir <dir>", "embedded database", ".bench/retrieval")
  .parse()
  .opts<{
    queries: string;
    corpus: string[];
    scale: string;
    subjects: string;
    limit?: string;
    planner: boolean;
    dataDir: string;
  }>();

const workspace = await openOfflineWorkspace(path.resolve(opts.dataDir));
const { retrieve } = await import("@/lib/retrieval/retrieve");
const { toVectorLiteral } = await import("@/lib/db/types");

const { db, userId, embedder } = workspace;
for (const book of opts.corpus) await workspace.ingest([book]);

interface IQuery {
  query: string;
  type: string;
  relevant: TGrades;
}
const queries = (await readFile(opts.queries, "utf8"))
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l) as IQuery)
  .slice(0, opts.limit ? Number(opts.limit) : undefined);
const FILTERS = { board: "OpenStax", grade: "11", subject: "Biology" };

const chapterOf = new Map(
  (await db.query<{ id: string; chapter_number: number }>("select id, chapter_number from documents")).map(
    (d) => [d.id, d.chapter_number],
  ),
);
const sectionOf = (documentId: string, sectionPath: string | null | undefined): string | null => {
  const m = sectionPath ? /(?:^|> )(\d+)\.(\d+)\b/.exec(sectionPath) : null;
  return m && Number(m[1]) === chapterOf.get(documentId) ? `biology-2e:${m[1]}.${m[2]}` : null;
};

const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};

// Supabase's documented hybrid_search (weighted RRF), scoped to the same subject for fairness.
const RRF_SQL = `
with scope as (
  select id from documents where board = $1 and grade = $2 and subject = $3
),
full_text as (
  select c.document_id, c.chunk_index,
         row_number() over (order by ts_rank_cd(c.fts, websearch_to_tsquery('english', $4)) desc) as rank_ix
  from document_chunks c
  where c.document_id in (select id from scope) and c.fts @@ websearch_to_tsquery('english', $4)
  order by rank_ix
  limit least($6::int, 30) * 2
),
semantic as (
  select c.document_id, c.chunk_index, row_number() over (order by c.embedding <#> $5::vector) as rank_ix
  from document_chunks c
  where c.document_id in (select id from scope)
  order by rank_ix
  limit least($6::int, 30) * 2
)
select c.document_id, c.chunk_index, c.section_path
from full_text
full outer join semantic on full_text.document_id = semantic.document_id and full_text.chunk_index = semantic.chunk_index
join document_chunks c on c.document_id = coalesce(full_text.document_id, semantic.document_id)
  and c.chunk_index = coalesce(full_text.chunk_index, semantic.chunk_index)
order by coalesce(1.0 / (50 + full_text.rank_ix), 0.0) * 1 + coalesce(1.0 / (50 + semantic.rank_ix), 0.0) * 1 desc
limit least($6::int, 30)`;

async function run(label: string) {
  const ours: number[] = [];
  const rrf: number[] = [];
  let cut = 0;
  const quality = { ours: { r: 0, n: 0 }, rrf: { r: 0, n: 0 } };
  for (const q of queries) {
    const res = await retrieve({ db, embedder, model: null, llmTimeoutMs: 0 }, userId, {
      filters: FILTERS,
      query: q.query,
      topK: 8,
      enableRerank: true,
      planner: opts.planner,
    });
    ours.push(res.debug.totalMs);
    if (res.plan.probes.some((p) => p.note === "latency budget spent")) cut++;
    const wide = await retrieve({ db, embedder, model: null, llmTimeoutMs: 0 }, userId, {
      filters: FILTERS,
      query: q.query,
      topK: 24,
      rerankFanout: 24,
      enableRerank: true,
      planner: opts.planner,
    });
    const oursSections = wide.items.map((i) => sectionOf(i.documentId, i.sectionPath));
    quality.ours.r += recallAt(oursSections, q.relevant, 8);
    quality.ours.n += ndcgAt(dedupeSections(oursSections), q.relevant, 10);

    const t0 = performance.now();
    const e = await embedder.embedQuery(q.query);
    const rows = await db.query<{ document_id: string; section_path: string }>(RRF_SQL, [
      FILTERS.board,
      FILTERS.grade,
      FILTERS.subject,
      q.query,
      toVectorLiteral(e),
      24,
    ]);
    rrf.push(performance.now() - t0);
    const rrfSections = rows.map((r) => sectionOf(r.document_id, r.section_path));
    quality.rrf.r += recallAt(rrfSections, q.relevant, 8);
    quality.rrf.n += ndcgAt(dedupeSections(rrfSections), q.relevant, 10);
  }
  const [{ chunks } = { chunks: 0 }] = await db.query<{ chunks: number }>(
    "select count(*)::int as chunks from document_chunks",
  );
  const n = queries.length;
  console.log(
    `\n## ${label}: ${chunks.toLocaleString("en")} chunks, ${n} queries (scope: OpenStax / 11 / Biology)`,
  );
  console.log("| method | Recall@8 | nDCG@10 | p50 ms | p95 ms | p99 ms |");
  console.log("|---|---:|---:|---:|---:|---:|");
  console.log(
    `| Paperwise hybrid (BM25 + vector, classifier, ${opts.planner ? "planner, " : ""}rerank) | ${(quality.ours.r / n).toFixed(3)} | ${(quality.ours.n / n).toFixed(3)} | ${pct(ours, 0.5).toFixed(1)} | ${pct(ours, 0.95).toFixed(1)} | ${pct(ours, 0.99).toFixed(1)} |`,
  );
  console.log(
    `| Supabase hybrid_search (RRF k=50) | ${(quality.rrf.r / n).toFixed(3)} | ${(quality.rrf.n / n).toFixed(3)} | ${pct(rrf, 0.5).toFixed(1)} | ${pct(rrf, 0.95).toFixed(1)} | ${pct(rrf, 0.99).toFixed(1)} |`,
  );
  console.log(
    `planner: ${cut} of ${n} queries skipped an optional probe because the latency budget was spent; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
  );
}

await run("(a) two books");

const target = Number(opts.scale);
const [{ chunks: have } = { chunks: 0 }] = await db.query<{ chunks: number }>(
  "select count(*)::int as chunks from document_chunks",
);
if (target > have) {
  console.error(`scaling up from ${have} to ≈${target} chunks…`);
  const started = performance.now();
  const originals = await db.query<{ id: string; chunk_count: number }>(
    "select id, chunk_count from documents where subject in ('Biology', 'Physics') order by subject, chapter_number",
  );
  const subjects = Math.max(1, Number(opts.subjects));
  let total = have;
  let copied = 0;
  while (total < target) {
    for (const doc of originals) {
      if (total >= target) break;
      // Chapters are dealt round-robin, so every synthetic subject mixes both books.
      const subject = `Synthetic ${String((copied++ % subjects) + 1).padStart(2, "0")}`;
      await db.transaction(async (tx) => {
        const [ing] = await tx.query<{ id: string }>(
          `insert into ingestions (user_id, board, grade, subject, resource_type, chapter_number, chapter_name, visibility,
             title, original_filename, mime_type, byte_size, content_sha256, dedupe_key, status, bucket, path)
           select user_id, board, grade, $2, resource_type, chapter_number, chapter_name, visibility, title,
             original_filename, mime_type, byte_size, content_sha256, md5(random()::text), 'ready', bucket, path
           from ingestions where id = (select ingestion_id from documents where id = $1) returning id`,
          [doc.id, subject],
        );
        const [nd] = await tx.query<{ id: string }>(
          `insert into documents (ingestion_id, owner_id, board, grade, subject, resource_type, chapter_number, chapter_name,
             visibility, title, bucket, path, mime_type, page_count, char_count, chunk_count, token_count, embedding_model, metadata)
           select $2, owner_id, board, grade, $3, resource_type, chapter_number, chapter_name, visibility, title, bucket, path,
             mime_type, page_count, char_count, chunk_count, token_count, embedding_model, metadata
           from documents where id = $1 returning id`,
          [doc.id, ing!.id, subject],
        );
        await tx.query(
          `insert into document_chunks (document_id, chunk_index, content, tokens, page_start, page_end, section_path,
             char_start, char_end, embedding, embedding_model)
           select $2, chunk_index, content, tokens, page_start, page_end, section_path, char_start, char_end, embedding, embedding_model
           from document_chunks where document_id = $1`,
          [doc.id, nd!.id],
        );
        await tx.query("select paperwise_index_chunks($1)", [nd!.id]);
      });
      total += doc.chunk_count;
    }
  }
  await db.query("analyze");
  console.error(`scale-up done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}
if (target > 0) {
  await run(`(b) scale-up`);
  const [{ n: subjectCount } = { n: 0 }] = await db.query<{ n: number }>(
    "select count(distinct subject)::int as n from documents",
  );
  console.log(`subjects: ${subjectCount}`);
}

/** Bytes under a directory (the embedded database and its file storage). */
async function du(dir: string): Promise<number> {
  let bytes = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) bytes += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return bytes;
}
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

// (c) One more book arrives while teachers keep querying.
const physics = opts.corpus.find((c) => /physics/i.test(c)) ?? opts.corpus[opts.corpus.length - 1]!;
const extra = path.join(os.tmpdir(), `paperwise-bench-extra-${process.pid}`);
await cp(physics, extra, { recursive: true });
const manifest = JSON.parse(await readFile(path.join(extra, "manifest.json"), "utf8"));
manifest.subject = `${manifest.subject} (second edition)`;
await writeFile(path.join(extra, "manifest.json"), JSON.stringify(manifest));
// A rerun on the same data directory ingests the book again rather than finding duplicates.
await db.query("delete from ingestions where subject = $1", [manifest.subject]);

const diskBefore = await du(path.resolve(opts.dataDir));
const rssBefore = process.memoryUsage().rss;
const during: number[] = [];
let ingesting = true;
const ingestStarted = performance.now();
const ingestion = workspace.ingest([extra]).finally(() => {
  ingesting = false;
});
for (let i = 0; ingesting; i++) {
  // Requests arrive through the event loop; yielding to it lets the ingestion's file reads run
  // (a loop of awaited in-process queries alone would starve them).
  await new Promise((resolve) => setImmediate(resolve));
  const q = queries[i % queries.length]!;
  const t0 = performance.now();
  await retrieve({ db, embedder, model: null, llmTimeoutMs: 0 }, userId, {
    filters: FILTERS,
    query: q.query,
    topK: 8,
    enableRerank: true,
    planner: opts.planner,
  });
  during.push(performance.now() - t0);
}
const ingested = await ingestion;
const ingestS = (performance.now() - ingestStarted) / 1000;
const [{ chunks: newChunks } = { chunks: 0 }] = await db.query<{ chunks: number }>(
  "select count(*)::int as chunks from document_chunks c join documents d on d.id = c.document_id where d.subject = $1",
  [manifest.subject],
);
const diskAfter = await du(path.resolve(opts.dataDir));
await rm(extra, { recursive: true, force: true });
console.log(
  `\n## (c) one more book while serving: ${ingested.length} files, ${newChunks} chunks ingested in ${ingestS.toFixed(1)} s`,
);
console.log(
  `queries served meanwhile: ${during.length}, wall p50 ${pct(during, 0.5).toFixed(1)} / p95 ${pct(during, 0.95).toFixed(1)} / p99 ${pct(during, 0.99).toFixed(1)} ms`,
);
console.log(
  `disk ${mb(diskBefore)} → ${mb(diskAfter)} MB; RSS ${mb(rssBefore)} → ${mb(process.memoryUsage().rss)} MB; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
);
await db.close();
