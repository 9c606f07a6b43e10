/**
 * npm run eval -- [--queries ../shared/eval/queries-open.jsonl] [--corpus ../shared/eval/corpus/biology-2e]
 *                 [--ablation full|fts|vector|fused|classifier|expansion|rerank|all] [--limit N] [--json]
 *                 [--split even|odd] [--dump file.jsonl]
 *
 * Ingests the corpus (once; cached under .bench/eval/) with the offline providers, runs every query
 * through the same `retrieve()` the API uses, maps chunks to section ids and prints Recall@8,
 * MRR@10 and nDCG@10 per query type, plus the correlation of confidence with correctness.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Command } from "commander";
import { dedupeSections, mrrAt, ndcgAt, pearson, recallAt, spearman, type TGrades } from "@/lib/eval/metrics";
import type { IRetrieveAblation } from "@/lib/retrieval/retrieve";
import { openOfflineWorkspace } from "./support/workspace";

const opts = new Command()
  .option("--queries <file>", "queries (JSONL)", "../shared/eval/queries-open.jsonl")
  .option("--corpus <dir>", "corpus folder with manifest.json", "../shared/eval/corpus/biology-2e")
  .option("--ablation <name>", "full | fts | vector | fused | classifier | expansion | rerank | all", "full")
  .option("--limit <n>", "first N queries only")
  .option("--type <type>", "only this query type")
  .option("--data-dir <dir>", "embedded database cache", ".bench/eval")
  .option("--coherence <w>", "document-smoothing weight (tuning)")
  .option("--protect <n>", "items kept in place by smoothing (tuning)")
  .option("--bm25 <k1,b,heading>", "BM25 parameters (tuning)")
  .option("--alpha-shift <x>", "added to the classifier's alpha (tuning)")
  .option("--rerank-fused <w>", "fused-score weight inside the offline reranker (tuning)")
  .option(
    "--split <half>",
    "even | odd: only the even- or odd-numbered query lines (0-based; tune on one, confirm on the other)",
  )
  .option("--dump <file>", "write per-query results (JSONL: query, relevant, retrieved sections, metrics)")
  .option("--diversify <lambda>", "λ of the section spread for every query (tuning; 1 = off)")
  .option("--pool <factor>", "SQL candidate pool as a multiple of the rerank fanout (tuning; 1 = off)")
  .option("--json", "print JSON")
  .parse()
  .opts<{
    queries: string;
    corpus: string;
    ablation: string;
    limit?: string;
    type?: string;
    dataDir: string;
    json?: boolean;
    split?: string;
    dump?: string;
    diversify?: string;
    pool?: string;
    coherence?: string;
    protect?: string;
    bm25?: string;
    alphaShift?: string;
    rerankFused?: string;
  }>();

const ABLATIONS: Record<string, IRetrieveAblation & { rerank?: boolean }> = {
  fts: {
    poolFactor: 1,
    sectionSpreadLambda: 1,
    legs: "keyword",
    classifier: false,
    expansion: false,
    rerank: false,
    diversify: false,
    retry: false,
    chapterNarrowing: false,
  },
  vector: {
    poolFactor: 1,
    sectionSpreadLambda: 1,
    legs: "vector",
    classifier: false,
    expansion: false,
    rerank: false,
    diversify: false,
    retry: false,
    chapterNarrowing: false,
  },
  fused: {
    poolFactor: 1,
    sectionSpreadLambda: 1,
    legs: "both",
    classifier: false,
    expansion: false,
    rerank: false,
    diversify: false,
    retry: false,
    chapterNarrowing: false,
  },
  classifier: {
    legs: "both",
    expansion: false,
    rerank: false,
    retry: false,
    poolFactor: 1,
    sectionSpreadLambda: 1,
  },
  expansion: { legs: "both", rerank: false, retry: false, poolFactor: 1, sectionSpreadLambda: 1 },
  /** The previous production default: reranked pool = fanout, no section spread. */
  rerank: { poolFactor: 1, sectionSpreadLambda: 1 },
  full: {},
};

const workspace = await openOfflineWorkspace(
  path.resolve(opts.dataDir, path.basename(path.resolve(opts.corpus))),
);
const { retrieve } = await import("@/lib/retrieval/retrieve");

interface IManifest {
  book: string;
  board: string;
  grade: string;
  subject: string;
  chapters: {
    chapterNumber: number;
    sections: { id: string; number: string; charStart: number; charEnd: number }[];
  }[];
}
interface IQuery {
  id: string;
  query: string;
  type: string;
  relevant: TGrades;
}

const manifest = JSON.parse(await readFile(path.join(opts.corpus, "manifest.json"), "utf8")) as IManifest;
const queries = (await readFile(opts.queries, "utf8"))
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as IQuery)
  .filter((_, i) => !opts.split || (opts.split === "even" ? i % 2 === 0 : i % 2 === 1))
  .filter((q) => !opts.type || q.type === opts.type)
  .slice(0, opts.limit ? Number(opts.limit) : undefined);

const { db, userId } = workspace;
const t0 = Date.now();
const ingested = await workspace.ingest([opts.corpus]);
if (!opts.json)
  console.error(
    `corpus ready (${ingested.filter((r) => !r.duplicate).length} new files) in ${Date.now() - t0} ms`,
  );

// chunk → section id: the `N.M` heading in the chunk's section path, else the manifest's char ranges.
const docChapter = new Map(
  (await db.query<{ id: string; chapter_number: number }>("select id, chapter_number from documents")).map(
    (d) => [d.id, d.chapter_number],
  ),
);
function sectionOf(
  documentId: string,
  sectionPath: string | undefined,
  charMid: number | null,
): string | null {
  const chapter = docChapter.get(documentId);
  const m = sectionPath ? /(?:^|> )(\d+)\.(\d+)\b/.exec(sectionPath) : null;
  if (m && Number(m[1]) === chapter) return `${manifest.book}:${m[1]}.${m[2]}`;
  const ch = manifest.chapters.find((c) => c.chapterNumber === chapter);
  if (!ch || charMid === null) return null;
  return ch.sections.find((s) => charMid >= s.charStart && charMid < s.charEnd)?.id ?? null;
}
const mids = new Map(
  (
    await db.query<{ document_id: string; chunk_index: number; mid: number }>(
      "select document_id, chunk_index, (char_start + char_end) / 2 as mid from document_chunks",
    )
  ).map((r) => [`${r.document_id}:${r.chunk_index}`, r.mid]),
);

async function runAblation(name: string) {
  const base = ABLATIONS[name];
  if (!base) throw new Error(`unknown ablation ${name}`);
  const ablation = {
    ...base,
    ...(opts.coherence !== undefined ? { coherenceWeight: Number(opts.coherence) } : {}),
    ...(opts.protect !== undefined ? { coherenceProtect: Number(opts.protect) } : {}),
    ...(opts.alphaShift !== undefined ? { alphaShift: Number(opts.alphaShift) } : {}),
    ...(opts.diversify !== undefined ? { sectionSpreadLambda: Number(opts.diversify) } : {}),
    ...(opts.pool !== undefined ? { poolFactor: Number(opts.pool) } : {}),
    ...(opts.rerankFused !== undefined ? { rerankFusedWeight: Number(opts.rerankFused) } : {}),
    ...(opts.bm25
      ? {
          bm25: (([k1, b, headingWeight]) => ({ k1: k1!, b: b!, headingWeight: headingWeight! }))(
            opts.bm25.split(",").map(Number),
          ),
        }
      : {}),
  };
  const rows: { type: string; recall: number; mrr: number; ndcg: number; confidence: number; ms: number }[] =
    [];
  const { embedder } = workspace;
  const dump: string[] = [];
  for (const q of queries) {
    const started = performance.now();
    const res = await retrieve(
      { db, embedder, model: null, llmTimeoutMs: 0 },
      userId,
      {
        filters: { board: manifest.board, grade: String(manifest.grade), subject: manifest.subject },
        query: q.query,
        topK: 24,
        rerankFanout: 24,
        enableRerank: ablation.rerank !== false,
      },
      ablation,
    );
    const chunkSections = res.items.map((it) =>
      sectionOf(it.documentId, it.sectionPath, mids.get(`${it.documentId}:${it.chunkIndex}`) ?? null),
    );
    const sections = dedupeSections(chunkSections);
    if (opts.dump)
      dump.push(
        JSON.stringify({
          id: q.id,
          type: q.type,
          query: q.query,
          relevant: q.relevant,
          sections: sections.slice(0, 10),
          ndcg: ndcgAt(sections, q.relevant, 10),
          mrr: mrrAt(sections, q.relevant, 10),
          recall: recallAt(chunkSections, q.relevant, 8),
        }),
      );
    rows.push({
      type: q.type,
      recall: recallAt(chunkSections, q.relevant, 8),
      mrr: mrrAt(sections, q.relevant, 10),
      ndcg: ndcgAt(sections, q.relevant, 10),
      confidence: res.confidence,
      ms: performance.now() - started,
    });
  }
  if (opts.dump)
    await writeFile(`${opts.dump.replace(/\.jsonl$/, "")}.${name}.jsonl`, `${dump.join("\n")}\n`);
  const types = [...new Set(rows.map((r) => r.type))];
  const summarise = (rs: typeof rows) => ({
    n: rs.length,
    recall8: mean(rs.map((r) => r.recall)),
    mrr10: mean(rs.map((r) => r.mrr)),
    ndcg10: mean(rs.map((r) => r.ndcg)),
    p50ms: quantile(
      rs.map((r) => r.ms),
      0.5,
    ),
  });
  return {
    ablation: name,
    perType: Object.fromEntries(types.map((t) => [t, summarise(rows.filter((r) => r.type === t))])),
    all: summarise(rows),
    confidence: {
      pearsonVsNdcg: pearson(
        rows.map((r) => r.confidence),
        rows.map((r) => r.ndcg),
      ),
      spearmanVsNdcg: spearman(
        rows.map((r) => r.confidence),
        rows.map((r) => r.ndcg),
      ),
      pearsonVsHit8: pearson(
        rows.map((r) => r.confidence),
        rows.map((r) => r.recall),
      ),
    },
  };
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : 0;
}

const names =
  opts.ablation === "all"
    ? ["fts", "vector", "fused", "classifier", "expansion", "rerank", "full"]
    : [opts.ablation];
const results = [];
for (const name of names) {
  const r = await runAblation(name);
  results.push(r);
  if (!opts.json) {
    console.log(`\n## ${name} (${queries.length} queries, ${manifest.book})`);
    console.log("| type | n | Recall@8 | MRR@10 | nDCG@10 | p50 ms |");
    console.log("|---|---:|---:|---:|---:|---:|");
    for (const [t, s] of [...Object.entries(r.perType), ["**all**", r.all] as const]) {
      console.log(
        `| ${t} | ${s.n} | ${s.recall8.toFixed(3)} | ${s.mrr10.toFixed(3)} | ${s.ndcg10.toFixed(3)} | ${s.p50ms.toFixed(1)} |`,
      );
    }
    console.log(
      `confidence vs nDCG@10: Pearson ${r.confidence.pearsonVsNdcg.toFixed(3)}, Spearman ${r.confidence.spearmanVsNdcg.toFixed(3)}; vs hit@8: Pearson ${r.confidence.pearsonVsHit8.toFixed(3)}`,
    );
  }
}
if (opts.json) console.log(JSON.stringify(results, null, 2));
await db.close();
