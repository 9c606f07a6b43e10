/**
 * npm run eval:calibrate -- [--queries ../shared/eval/queries-open.jsonl] [--out-of-scope eval/retrieval/out-of-scope.jsonl]
 *
 * Fits the calibrated relevance of lib/retrieval/calibrate.ts (a logistic model over absolute
 * evidence) and reports how well it is calibrated:
 * - training data: the top-8 passages of the open queries' even lines (label: the passage's
 *   section has grade ≥ 1) and of the Biology half of the out-of-scope set (label 0);
 * - check: the odd lines and the Physics half (never used to fit): reliability per relevance band
 *   and the refusal trade-off per threshold.
 * Prints the coefficients to paste into calibrate.ts. Both books are ingested (as `--refusal`).
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { Command } from "commander";
import { fitLogistic, type ILogisticModel, logLoss, predictLogistic } from "@/lib/eval/logistic";
import type { IRelevanceFeatures } from "@/lib/retrieval/calibrate";
import { filtersOf, type IManifest, readJsonl, readManifest, sectionMapper } from "./support/eval-corpus";
import { openOfflineWorkspace } from "./support/workspace";

const opts = new Command()
  .option("--queries <file>", "open queries (JSONL)", "../shared/eval/queries-open.jsonl")
  .option("--out-of-scope <file>", "out-of-scope queries", "eval/retrieval/out-of-scope.jsonl")
  .option("--corpora <dirs...>", "books", [
    "../shared/eval/corpus/biology-2e",
    "../shared/eval/corpus/physics",
  ])
  .option("--data-dir <dir>", "embedded database", ".bench/eval/two-books")
  .option(
    "--dump-queries <file>",
    "instead: write each calibration query's scope evidence (JSONL) for fitting the refusal",
  )
  .option("--questions <files...>", "exam questions for --dump-queries (in scope)", [
    "../shared/eval/questions/biology-2e.jsonl",
    "../shared/eval/questions/biology-2e-short-answer.jsonl",
    "eval/retrieval/physics-exam-questions.jsonl",
  ])
  .option("--calibration <files...>", "out-of-scope sets for --dump-queries (never the held-out one)", [
    "eval/retrieval/out-of-scope-calibration.jsonl",
    "eval/retrieval/out-of-scope-calibration-2.jsonl",
    "eval/retrieval/out-of-scope.jsonl",
  ])
  .parse()
  .opts<{
    queries: string;
    outOfScope: string;
    corpora: string[];
    dataDir: string;
    dumpQueries?: string;
    questions: string[];
    calibration: string[];
  }>();

if (opts.dumpQueries) {
  // The refusal fit's data (`npm run eval:fit-refusal` runs the same and fits it).
  const { judgeCalibrationQueries } = await import("./support/refusal-judgements");
  const judged = await judgeCalibrationQueries({
    dataDir: path.resolve(opts.dataDir),
    corpora: opts.corpora,
    openQueries: opts.queries,
    questions: opts.questions,
    outOfScope: opts.calibration,
  });
  await writeFile(opts.dumpQueries, `${judged.map((q) => JSON.stringify(q)).join("\n")}\n`);
  process.exit(0);
}

const ws = await openOfflineWorkspace(path.resolve(opts.dataDir));
for (const c of opts.corpora) await ws.ingest([c]);
const { retrieve } = await import("@/lib/retrieval/retrieve");
const manifests: IManifest[] = await Promise.all(opts.corpora.map((c) => readManifest(c)));
const byBook = new Map(manifests.map((m) => [m.book, m]));
const sectionOf = await sectionMapper(ws.db, manifests);

interface IExample {
  f: IRelevanceFeatures;
  y: number;
  query: number;
}
async function collect(m: IManifest, query: string, grades: Record<string, number> | null, queryId: number) {
  const out: IExample[] = [];
  await retrieve(
    { db: ws.db, embedder: ws.embedder, model: null, llmTimeoutMs: 0 },
    ws.userId,
    { filters: filtersOf(m), query, topK: 8, enableRerank: true },
    {
      refuse: false,
      planTuning: { latencyBudgetMs: Number.POSITIVE_INFINITY },
      onJudged: (passages) => {
        for (const p of passages) {
          const section = sectionOf(p.documentId, p.chunkIndex, p.sectionPath);
          const y = grades && section && (grades[section] ?? 0) >= 1 ? 1 : 0;
          out.push({ f: p.features, y, query: queryId });
        }
      },
    },
  );
  return out;
}

const open = await readJsonl<{ query: string; relevant: Record<string, number> }>(opts.queries);
const oos = await readJsonl<{ scope: string; query: string }>(opts.outOfScope);
const bio = byBook.get("biology-2e")!;
const train: IExample[] = [];
const check: IExample[] = [];
let qid = 0;
for (const [i, q] of open.entries())
  (i % 2 === 0 ? train : check).push(...(await collect(bio, q.query, q.relevant, qid++)));
const oosStart = qid;
for (const q of oos) {
  const m = byBook.get(q.scope)!;
  (q.scope === "biology-2e" ? train : check).push(...(await collect(m, q.query, null, qid++)));
}
await ws.db.close();

const full = (f: IRelevanceFeatures) => [
  f.coverage,
  f.heading,
  f.cosine ?? 0,
  f.cosineLift ?? 0,
  f.scopeCoverage,
];
const lexical = (f: IRelevanceFeatures) => [f.coverage, f.heading, f.scopeCoverage];
const withCosine = (xs: IExample[]) => xs.filter((e) => e.f.cosine !== null);
const fullModel = fitLogistic(
  withCosine(train).map((e) => full(e.f)),
  withCosine(train).map((e) => e.y),
);
const lexModel = fitLogistic(
  train.map((e) => lexical(e.f)),
  train.map((e) => e.y),
);
const show = (m: ILogisticModel, names: string[]) =>
  `intercept ${m.intercept.toFixed(2)}, ${names.map((n, i) => `${n} ${m.weights[i]!.toFixed(2)}`).join(", ")}`;
console.log(
  `train: ${train.length} passages (${train.filter((e) => e.y).length} relevant); check: ${check.length}`,
);
console.log(
  `full model (offline embedder): ${show(fullModel, ["coverage", "heading", "cosine", "cosineLift", "scopeCoverage"])}`,
);
console.log(`lexical model: ${show(lexModel, ["coverage", "heading", "scopeCoverage"])}`);
const predict = (e: IExample) =>
  e.f.cosine !== null ? predictLogistic(fullModel, full(e.f)) : predictLogistic(lexModel, lexical(e.f));
console.log(
  `log loss on check: full ${logLoss(
    fullModel,
    withCosine(check).map((e) => full(e.f)),
    withCosine(check).map((e) => e.y),
  ).toFixed(3)}, lexical ${logLoss(
    lexModel,
    check.map((e) => lexical(e.f)),
    check.map((e) => e.y),
  ).toFixed(3)}`,
);

console.log("\nreliability on the check set (odd lines + Physics out-of-scope):");
console.log("| predicted relevance | passages | observed share relevant |");
console.log("|---|---:|---:|");
for (let b = 0; b < 10; b++) {
  const lo = b / 10;
  const hi = (b + 1) / 10;
  const inBin = check.filter((e) => {
    const p = predict(e);
    return p >= lo && (p < hi || (b === 9 && p <= 1));
  });
  if (inBin.length)
    console.log(
      `| ${lo.toFixed(1)}–${hi.toFixed(1)} | ${inBin.length} | ${(inBin.filter((e) => e.y).length / inBin.length).toFixed(2)} |`,
    );
}

/** Best relevance per query, to study the refusal threshold. */
function bestPerQuery(xs: IExample[]) {
  const best = new Map<number, number>();
  for (const e of xs) best.set(e.query, Math.max(best.get(e.query) ?? 0, predict(e)));
  return best;
}
const bestTrain = bestPerQuery(train);
const bestCheck = bestPerQuery(check);
console.log("\nrefusal threshold (best passage below it → refused):");
console.log(
  "| threshold | real refused (even) | out-of-scope refused (Biology) | real refused (odd) | out-of-scope refused (Physics) |",
);
console.log("|---:|---:|---:|---:|---:|");
for (const t of [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4]) {
  const count = (m: Map<number, number>, oosSide: boolean) => {
    const qs = [...m.entries()].filter(([q]) => q >= oosStart === oosSide);
    return `${qs.filter(([, b]) => b < t).length}/${qs.length}`;
  };
  console.log(
    `| ${t} | ${count(bestTrain, false)} | ${count(bestTrain, true)} | ${count(bestCheck, false)} | ${count(bestCheck, true)} |`,
  );
}
