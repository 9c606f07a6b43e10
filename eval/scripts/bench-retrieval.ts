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
import { createQualityBench, FILTERS, type IQuery, pct } from "./support/retrieval-quality";
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

const { db, userId, embedder } = workspace;
for (const book of opts.corpus) await workspace.ingest([book]);

const queries = (await readFile(opts.queries, "utf8"))
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l) as IQuery)
  .slice(0, opts.limit ? Number(opts.limit) : undefined);
const bench = createQualityBench({ db, embedder, userId, queries, planner: opts.planner });

await bench.run("(a) two books");

const target = Number(opts.scale);
await bench.scaleUp(target, Number(opts.subjects));
if (target > 0) {
  await bench.run("(b) scale-up");
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
