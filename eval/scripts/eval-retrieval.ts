/**
 * npm run eval -- [--queries ../shared/eval/queries-open.jsonl] [--corpus ../shared/eval/corpus/biology-2e]
 *                 [--ablation NAME|planner|all] [--split even|odd] [--type T] [--limit N] [--json]
 *                 [--dump file.jsonl] [--budget] [--tune key=value,...]
 * npm run eval -- --follow-ups eval/retrieval/follow-ups.jsonl
 * npm run eval -- --refusal eval/retrieval/out-of-scope.jsonl
 *
 * Ingests the corpus (once; cached under .bench/eval/) with the offline providers, runs every query
 * through the same `retrieve()` the API uses, maps chunks to section ids and prints Recall@8,
 * MRR@10 and nDCG@10 per query type (and how many real queries were refused), plus the
 * correlation of confidence with correctness. `--follow-ups` and `--refusal` run the repo's own
 * eval files (eval/retrieval/README.md). The planner's latency budget is lifted unless `--budget`
 * is given, so the figures do not depend on how busy the machine is (the benchmark measures time).
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { Command } from "commander";
import { dedupeSections, mrrAt, ndcgAt, pearson, recallAt, spearman, type TGrades } from "@/lib/eval/metrics";
import type { IRetrieveAblation } from "@/lib/retrieval/retrieve";
import { filtersOf, mean, quantile, readJsonl, readManifest, sectionMapper } from "./support/eval-corpus";
import { runFollowUpEval } from "./support/eval-follow-ups";
import { runRefusalEval } from "./support/eval-refusal";
import { openOfflineWorkspace } from "./support/workspace";

const opts = new Command()
  .option("--queries <file>", "queries (JSONL)", "../shared/eval/queries-open.jsonl")
  .option("--corpus <dir>", "corpus folder with manifest.json", "../shared/eval/corpus/biology-2e")
  .option("--ablation <name>", `one of ${"ABLATION names"} | planner | all`, "full")
  .option("--limit <n>", "first N queries only")
  .option("--type <type>", "only this query type")
  .option("--data-dir <dir>", "embedded database cache", ".bench/eval")
  .option(
    "--split <half>",
    "even | odd: only the even- or odd-numbered query lines (0-based; tune on one, confirm on the other)",
  )
  .option("--dump <file>", "write per-query results (JSONL: query, relevant, retrieved sections, metrics)")
  .option("--budget", "apply the planner's production latency budget (figures then depend on machine load)")
  .option("--tune <k=v,...>", "planner weights and limits (PLAN_DEFAULTS keys; tuning)")
  .option("--follow-ups <file>", "run the follow-up sequences instead (eval/retrieval/follow-ups.jsonl)")
  .option(
    "--refusal <files...>",
    "run out-of-scope sets and the in-scope queries (open, --questions, section titles) over both books instead",
  )
  .option("--questions <files...>", "exam questions counted as in scope by --refusal", [
    "../shared/eval/questions/biology-2e.jsonl",
    "../shared/eval/questions/biology-2e-short-answer.jsonl",
    "eval/retrieval/physics-exam-questions.jsonl",
  ])
  .option("--physics <dir>", "second book for --refusal", "../shared/eval/corpus/physics")
  .option(
    "--sets-only",
    "with --refusal: run only the --refusal files (e.g. the in-scope spelling pairs), not the open queries, --questions and section titles",
  )
  .option(
    "--llm",
    "with --refusal: plan and rerank with the configured language model (OPENAI_API_KEY), as production does",
  )
  .option(
    "--mcq <file>",
    "pasted exam questions instead (an eval question file: ../shared/eval/questions/biology-2e.jsonl, …-short-answer.jsonl, eval/retrieval/physics-exam-questions.jsonl)",
  )
  .option("--stem-only", "with --mcq: paste each question's stem without its options")
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
    budget?: boolean;
    tune?: string;
    followUps?: string;
    refusal?: string[];
    questions: string[];
    physics: string;
    llm?: boolean;
    setsOnly?: boolean;
    mcq?: string;
    stemOnly?: boolean;
  }>();

/** The previous pipeline, stage by stage (planner and refusal off), then the planner's stages. */
const PREVIOUS = { planner: false, refuse: false } as const;
const ABLATIONS: Record<string, IRetrieveAblation & { rerank?: boolean }> = {
  fts: {
    ...PREVIOUS,
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
    ...PREVIOUS,
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
    ...PREVIOUS,
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
    ...PREVIOUS,
    legs: "both",
    expansion: false,
    rerank: false,
    retry: false,
    poolFactor: 1,
    sectionSpreadLambda: 1,
  },
  expansion: {
    ...PREVIOUS,
    legs: "both",
    rerank: false,
    retry: false,
    poolFactor: 1,
    sectionSpreadLambda: 1,
  },
  rerank: { ...PREVIOUS, poolFactor: 1, sectionSpreadLambda: 1 },
  /** The previous production default: one query, no planner, no refusal. */
  single: { ...PREVIOUS },
  "no-refusal": { refuse: false },
  "no-hyde": { hyde: false },
  "+hyde-lookups": { hydeLookups: true },
  "no-focus": { focus: false },
  "no-exam": { exam: false },
  "no-variants": { variants: false },
  rrf: { fusion: "rrf" },
  "+synonyms": { offlineVariants: ["synonyms"] },
  "+feedback": { offlineVariants: ["feedback"] },
  "+headings": { offlineVariants: ["headings"] },
  /** Every zone ranked alike and duplicates kept (lib/retrieval/pipeline/zones.ts off). */
  "no-zones": { zones: false },
  full: {},
};
const GROUPS: Record<string, string[]> = {
  planner: [
    "single",
    "no-hyde",
    "+hyde-lookups",
    "no-focus",
    "no-variants",
    "rrf",
    "+synonyms",
    "+feedback",
    "+headings",
    "no-refusal",
    "full",
  ],
  all: Object.keys(ABLATIONS),
};

const tuning = Object.fromEntries(
  (opts.tune ?? "")
    .split(",")
    .filter(Boolean)
    .map((kv) => [kv.split("=")[0]!, Number(kv.split("=")[1])]),
);
const planTuning = { ...(opts.budget ? {} : { latencyBudgetMs: Number.POSITIVE_INFINITY }), ...tuning };

if (opts.refusal) {
  await runRefusalEval({
    dataDir: path.resolve(opts.dataDir, "two-books"),
    corpora: [opts.corpus, opts.physics],
    outOfScope: opts.refusal,
    openQueries: opts.queries,
    questions: opts.questions,
    planTuning,
    json: !!opts.json,
    llm: !!opts.llm,
    setsOnly: !!opts.setsOnly,
  });
  process.exit(0);
}

const workspace = await openOfflineWorkspace(
  path.resolve(opts.dataDir, path.basename(path.resolve(opts.corpus))),
);
const { retrieve } = await import("@/lib/retrieval/retrieve");
const { db, userId, embedder } = workspace;
const t0 = Date.now();
const ingested = await workspace.ingest([opts.corpus]);
if (!opts.json)
  console.error(
    `corpus ready (${ingested.filter((r) => !r.duplicate).length} new files) in ${Date.now() - t0} ms`,
  );
const manifest = await readManifest(opts.corpus);
const sectionOf = await sectionMapper(db, [manifest]);

if (opts.followUps) {
  await runFollowUpEval({
    db,
    userId,
    embedder,
    manifest,
    sectionOf,
    file: opts.followUps,
    planTuning,
    json: !!opts.json,
  });
  await db.close();
  process.exit(0);
}

interface IQuery {
  id: string;
  query: string;
  type: string;
  relevant: TGrades;
}
/**
 * `--mcq`: each end-of-section question pasted whole, labelled like the open set's exam questions
 * (its section grade 2, the rest of its chapter grade 1): an MCQ as "stem A) … B) …" (type
 * "pasted mcq"), a question without options as its stem (type "pasted <kind>": short answers,
 * numericals, assertion–reason, fill-ins). Questions that need a figure are left out. With
 * `--stem-only`, an MCQ is pasted as its stem alone (type "pasted mcq stem").
 */
async function mcqQueries(file: string): Promise<IQuery[]> {
  const rows = await readJsonl<{
    id: string;
    sectionId: string;
    kind?: string;
    stem: string;
    options?: string[];
    needsFigure: boolean;
  }>(file);
  return rows
    .filter((r) => !r.needsFigure && (r.options === undefined || r.options.length >= 3))
    .map((r) => {
      const chapter = manifest.chapters.find((c) => c.sections.some((s) => s.id === r.sectionId));
      const relevant: TGrades = Object.fromEntries(
        (chapter?.sections ?? []).map((s) => [s.id, s.id === r.sectionId ? 2 : 1]),
      );
      if (!r.options) return { id: r.id, query: r.stem, type: `pasted ${r.kind ?? "question"}`, relevant };
      if (opts.stemOnly) return { id: r.id, query: r.stem, type: "pasted mcq stem", relevant };
      const letters = r.options.map((o, i) => `${"ABCDEFGH"[i]}) ${o}`).join(" ");
      return { id: r.id, query: `${r.stem} ${letters}`, type: "pasted mcq", relevant };
    });
}

const queries = (opts.mcq ? await mcqQueries(opts.mcq) : await readJsonl<IQuery>(opts.queries))
  .filter((_, i) => !opts.split || (opts.split === "even" ? i % 2 === 0 : i % 2 === 1))
  .filter((q) => !opts.type || q.type === opts.type)
  .slice(0, opts.limit ? Number(opts.limit) : undefined);

async function runAblation(name: string) {
  const base = ABLATIONS[name];
  if (!base) throw new Error(`unknown ablation ${name} (${Object.keys(ABLATIONS).join(", ")})`);
  const ablation: IRetrieveAblation = { ...base, planTuning };
  const rows: {
    type: string;
    recall: number;
    mrr: number;
    ndcg: number;
    confidence: number;
    ms: number;
    refused: number;
  }[] = [];
  const dump: string[] = [];
  for (const q of queries) {
    const started = performance.now();
    const res = await retrieve(
      { db, embedder, model: null, llmTimeoutMs: 0 },
      userId,
      {
        filters: filtersOf(manifest),
        query: q.query,
        topK: 24,
        rerankFanout: 24,
        enableRerank: base.rerank !== false,
      },
      ablation,
    );
    const chunkSections = res.items.map((it) => sectionOf(it.documentId, it.chunkIndex, it.sectionPath));
    const sections = dedupeSections(chunkSections);
    const row = {
      type: q.type,
      recall: recallAt(chunkSections, q.relevant, 8),
      mrr: mrrAt(sections, q.relevant, 10),
      ndcg: ndcgAt(sections, q.relevant, 10),
      confidence: res.confidence,
      ms: performance.now() - started,
      refused: res.refusal ? 1 : 0,
    };
    rows.push(row);
    if (opts.dump)
      dump.push(
        JSON.stringify({
          id: q.id,
          query: q.query,
          relevant: q.relevant,
          sections: sections.slice(0, 10),
          ...row,
          strategy: res.plan.strategy,
          focus: res.plan.focus,
          refusal: res.refusal?.code,
        }),
      );
  }
  if (opts.dump)
    await writeFile(`${opts.dump.replace(/\.jsonl$/, "")}.${name}.jsonl`, `${dump.join("\n")}\n`);
  const types = [...new Set(rows.map((r) => r.type))];
  const summarise = (rs: typeof rows) => ({
    n: rs.length,
    recall8: mean(rs.map((r) => r.recall)),
    mrr10: mean(rs.map((r) => r.mrr)),
    ndcg10: mean(rs.map((r) => r.ndcg)),
    refused: rs.reduce((a, r) => a + r.refused, 0),
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

const names = GROUPS[opts.ablation] ?? [opts.ablation];
const results = [];
for (const name of names) {
  const r = await runAblation(name);
  results.push(r);
  if (!opts.json) {
    console.log(
      `\n## ${name} (${queries.length} queries, ${manifest.book}${opts.split ? `, ${opts.split} lines` : ""})`,
    );
    console.log("| type | n | Recall@8 | MRR@10 | nDCG@10 | refused | p50 ms |");
    console.log("|---|---:|---:|---:|---:|---:|---:|");
    for (const [t, s] of [...Object.entries(r.perType), ["**all**", r.all] as const]) {
      console.log(
        `| ${t} | ${s.n} | ${s.recall8.toFixed(3)} | ${s.mrr10.toFixed(3)} | ${s.ndcg10.toFixed(3)} | ${s.refused} | ${s.p50ms.toFixed(1)} |`,
      );
    }
    console.log(
      `confidence vs nDCG@10: Pearson ${r.confidence.pearsonVsNdcg.toFixed(3)}, Spearman ${r.confidence.spearmanVsNdcg.toFixed(3)}; vs hit@8: Pearson ${r.confidence.pearsonVsHit8.toFixed(3)}`,
    );
  }
}
if (opts.json) console.log(JSON.stringify(results, null, 2));
await db.close();
