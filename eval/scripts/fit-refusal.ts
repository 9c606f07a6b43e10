/**
 * npm run eval:fit-refusal -- [--judged <file>] [--save-judged <file>] [--features a,b,…]
 *                             [--max-refused 0.006] [--evaluate] [--write]
 *
 * Fits the refusal's query-level model (lib/retrieval/refusal-model.json, read by calibrate.ts
 * `queryRelevance`):
 * 1. runs every calibration query through the real retrieval (both books in one embedded database,
 *    offline providers; support/refusal-judgements.ts), or reads a file written earlier with
 *    `--save-judged` (or `npm run eval:calibrate -- --dump-queries`);
 * 2. computes each query's features with the code the server runs (calibrate.ts `refusalFeatures`);
 * 3. fits a class-balanced logistic regression (Newton/IRLS, lib/eval/logistic.ts) on the even
 *    lines of the in-scope sets and all the out-of-scope calibration queries;
 * 4. puts the cut at the highest score that refuses at most `--max-refused` of the even in-scope
 *    lines, and reports the odd lines (never fitted on) beside them, and the hand-written in-scope
 *    control lines of `--controls` (everyday wording; never fitted on, never in the cut) apart.
 * `--evaluate` scores the current model file instead of fitting; `--write` writes the new model.
 * The held-out out-of-scope file is never read here: `npm run eval -- --refusal` measures it.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Command } from "commander";
import { fitLogisticNewton } from "@/lib/eval/logistic";
import {
  type IRefusalModel,
  REFUSAL_FEATURES,
  REFUSE_BELOW,
  refusalFeatures,
  refusalScore,
  type TRefusalFeature,
} from "@/lib/retrieval/calibrate";
import currentModel from "@/lib/retrieval/refusal-model.json";
import { filtersOf, readManifest } from "./support/eval-corpus";
import { fitRefusalModel, type IRefusalExample, splitJudged } from "./support/refusal-fit";
import { type IJudgedQuery, judgeCalibrationQueries } from "./support/refusal-judgements";

const MODEL_FILE = "lib/retrieval/refusal-model.json";

const opts = new Command()
  .option("--judged <file>", "read the judged calibration queries from this JSONL instead of running them")
  .option("--save-judged <file>", "write the judged calibration queries (JSONL) for later refits")
  .option("--features <names>", `comma-separated, from: ${REFUSAL_FEATURES.join(", ")}`)
  .option("--max-refused <share>", "in-scope even lines the cut may refuse", "0.006")
  .option("--l2 <value>", "L2 penalty on the standardised weights", "0.001")
  .option(
    "--add-meaning",
    "fill in the words' WordNet meaning evidence from the scopes of --data-dir (for files judged before it existed)",
  )
  .option(
    "--add-phrases",
    "fill in the queries' two-word phrase counts from the scopes of --data-dir (for files judged before it existed)",
  )
  .option("--evaluate", "score the current model file instead of fitting")
  .option("--write", `write the fitted model to ${MODEL_FILE}`)
  .option("--verbose", "list the out-of-scope queries kept and the in-scope ones refused, with features")
  .option("--queries <file>", "open queries (in scope)", "../shared/eval/queries-open.jsonl")
  .option("--questions <files...>", "exam questions (in scope)", [
    "../shared/eval/questions/biology-2e.jsonl",
    "../shared/eval/questions/biology-2e-short-answer.jsonl",
    "eval/retrieval/physics-exam-questions.jsonl",
  ])
  .option("--calibration <files...>", "out-of-scope calibration sets (never the held-out one)", [
    "eval/retrieval/out-of-scope-calibration.jsonl",
    "eval/retrieval/out-of-scope-calibration-2.jsonl",
    "eval/retrieval/out-of-scope-calibration-3.jsonl",
    "eval/retrieval/out-of-scope-calibration-4.jsonl",
    "eval/retrieval/out-of-scope-calibration-5.jsonl",
    "eval/retrieval/out-of-scope.jsonl",
  ])
  .option("--controls <files...>", "hand-written in-scope lines, reported apart (never fitted on)", [
    "eval/retrieval/in-scope-controls.jsonl",
  ])
  .option("--corpora <dirs...>", "books", [
    "../shared/eval/corpus/biology-2e",
    "../shared/eval/corpus/physics",
  ])
  .option("--data-dir <dir>", "embedded database", ".bench/eval/two-books")
  .parse()
  .opts<{
    judged?: string;
    saveJudged?: string;
    features?: string;
    maxRefused: string;
    l2: string;
    evaluate?: boolean;
    addMeaning?: boolean;
    addPhrases?: boolean;
    write?: boolean;
    verbose?: boolean;
    queries: string;
    questions: string[];
    calibration: string[];
    controls: string[];
    corpora: string[];
    dataDir: string;
  }>();

if (opts.calibration.some((f) => f.includes("heldout")))
  throw new Error("the held-out out-of-scope set is for measuring only");

let judged: IJudgedQuery[];
if (opts.judged && existsSync(opts.judged)) {
  judged = (await readFile(opts.judged, "utf8"))
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as IJudgedQuery);
} else {
  judged = await judgeCalibrationQueries({
    dataDir: path.resolve(opts.dataDir),
    corpora: opts.corpora,
    openQueries: opts.queries,
    questions: opts.questions,
    outOfScope: opts.calibration,
    controls: opts.controls,
    onProgress: (n) => {
      if (n % 250 === 0) console.error(`judged ${n} queries`);
    },
  });
  if (opts.saveJudged)
    await writeFile(opts.saveJudged, `${judged.map((q) => JSON.stringify(q)).join("\n")}\n`);
}
if (opts.addMeaning) {
  // The scope's meaning profile as the server builds it (scope-vocabulary.ts), per book.
  const { openOfflineWorkspace } = await import("./support/workspace");
  const { scopeMeaning } = await import("@/lib/retrieval/scope-vocabulary");
  const { meaningLift } = await import("@/lib/text/wordnet-domains");
  const ws = await openOfflineWorkspace(path.resolve(opts.dataDir));
  const manifests = await Promise.all(opts.corpora.map((c) => readManifest(c)));
  for (const m of manifests) {
    const lines = judged.filter((q) => q.scope === m.book && q.judged);
    const passages = lines[0]?.judged?.passages ?? 0;
    if (!passages) continue;
    const t0 = performance.now();
    const profile = await scopeMeaning(ws.db, ws.userId, { ...filtersOf(m), resourceTypes: null }, passages);
    console.log(
      `meaning profile of ${m.book}: ${passages} passages, built in ${Math.round(performance.now() - t0)} ms (rss ${Math.round(process.memoryUsage().rss / 1e6)} MB)`,
    );
    for (const q of lines) for (const w of q.judged?.words ?? []) w.meaning = meaningLift(w.word, profile);
  }
  await ws.db.close();
  if (opts.saveJudged && opts.judged)
    await writeFile(opts.saveJudged, `${judged.map((q) => JSON.stringify(q)).join("\n")}\n`);
}
if (opts.addPhrases) {
  // The phrase counts as the server looks them up (scope-vocabulary.ts scopePhraseIndex, scopePhraseLookup), per book.
  const { openOfflineWorkspace } = await import("./support/workspace");
  const { scopePhraseIndex, scopePhraseLookup } = await import("@/lib/retrieval/scope-vocabulary");
  const ws = await openOfflineWorkspace(path.resolve(opts.dataDir));
  const manifests = await Promise.all(opts.corpora.map((c) => readManifest(c)));
  const t0 = performance.now();
  let n = 0;
  for (const m of manifests) {
    const lines = judged.filter((x) => x.scope === m.book && x.judged);
    const first = lines[0]?.judged;
    if (!first) continue;
    // The index build as the server pays it on a scope's first refusal-checked query.
    const rss = process.memoryUsage().rss;
    const t1 = performance.now();
    const index = await scopePhraseIndex(
      ws.db,
      ws.userId,
      { ...filtersOf(m), resourceTypes: null },
      { passages: first.passages, bgPassages: first.bgPassages },
    );
    console.log(
      `phrase index of ${m.book}: ${index.scope.size} scope and ${index.background.size} background phrases, built in ${Math.round(performance.now() - t1)} ms (rss +${Math.round((process.memoryUsage().rss - rss) / 1e6)} MB)`,
    );
    for (const q of lines) {
      if (q.judged)
        q.judged.phrases =
          (await scopePhraseLookup(ws.db, ws.userId, filtersOf(m), q.query, {
            passages: q.judged.passages,
            bgPassages: q.judged.bgPassages,
          })) ?? [];
      if (++n % 500 === 0) console.error(`phrases of ${n} queries`);
    }
  }
  console.log(`phrase counts of ${n} queries in ${Math.round(performance.now() - t0)} ms`);
  await ws.db.close();
  if (opts.saveJudged && opts.judged)
    await writeFile(opts.saveJudged, `${judged.map((q) => JSON.stringify(q)).join("\n")}\n`);
}
const { rows, controls } = splitJudged(judged, opts.calibration, opts.controls);

const examples: IRefusalExample[] = [];
let unmodelled = 0;
let unmodelledRefused = 0;
for (const q of rows) {
  const f = q.judged ? refusalFeatures(q.judged) : null;
  if (!f) {
    // No vector score or no scope words: the best passage's relevance decides (as the server).
    unmodelled++;
    if ((q.judged?.bestRelevance ?? 1) < REFUSE_BELOW && !q.inScope) unmodelledRefused++;
    continue;
  }
  examples.push({ features: f, inScope: q.inScope, half: q.half, set: q.file ?? q.set, query: q.query });
}

const features = (opts.features?.split(",").map((s) => s.trim()) ??
  (opts.evaluate ? currentModel.features : REFUSAL_FEATURES)) as TRefusalFeature[];
for (const f of features) if (!REFUSAL_FEATURES.includes(f)) throw new Error(`unknown feature ${f}`);

const model: IRefusalModel = opts.evaluate
  ? (currentModel as IRefusalModel)
  : fitRefusalModel(examples, features, {
      maxRefused: Number(opts.maxRefused),
      l2: Number(opts.l2),
      fit: fitLogisticNewton,
    });

console.log(
  `${examples.length} queries with the model's evidence (${unmodelled} without: the old rule decides)`,
);
console.log(
  `model: intercept ${model.intercept}, ${model.features.map((f, i) => `${f} ${model.weights[i]}`).join(", ")}; cut ${model.cut}`,
);
const groups = new Map<string, { n: number; refused: number }>();
for (const e of examples) {
  const key = e.inScope ? `in scope · ${e.set} · ${e.half}` : `out of scope · ${e.set}`;
  const g = groups.get(key) ?? { n: 0, refused: 0 };
  g.n++;
  if (refusalScore(model, e.features) < model.cut) g.refused++;
  groups.set(key, g);
}
console.log("\n| set | n | refused |\n|---|---:|---:|");
for (const [k, g] of [...groups].sort(([a], [b]) => a.localeCompare(b)))
  console.log(`| ${k} | ${g.n} | ${g.refused} (${((100 * g.refused) / g.n).toFixed(1)} %) |`);
const sum = (pred: (e: IRefusalExample) => boolean) => {
  const xs = examples.filter(pred);
  return `${xs.filter((e) => refusalScore(model, e.features) < model.cut).length}/${xs.length}`;
};
console.log(
  `\nin scope refused: even ${sum((e) => e.inScope && e.half === "even")}, odd ${sum((e) => e.inScope && e.half === "odd")}; out of scope refused ${sum((e) => !e.inScope)} (+${unmodelledRefused} by the old rule)`,
);
if (controls.length) {
  // Everyday-worded in-scope lines: the in-scope cost the exam-style sets above do not show.
  const refused = controls.filter((q) => {
    const f = q.judged ? refusalFeatures(q.judged) : null;
    return f ? refusalScore(model, f) < model.cut : (q.judged?.bestRelevance ?? 1) < REFUSE_BELOW;
  });
  console.log(`in-scope controls refused (never fitted on): ${refused.length}/${controls.length}`);
  if (opts.verbose) console.log(refused.map((q) => `  ${q.scope}: ${q.query}`).join("\n"));
}
if (opts.verbose) {
  const show = (e: IRefusalExample) =>
    `${refusalScore(model, e.features).toFixed(2)} ${e.set}: ${e.query.slice(0, 90)} [${model.features
      .map((f) => `${f} ${e.features[f].toFixed(2)}`)
      .join(", ")}]`;
  const kept = examples.filter((e) => !e.inScope && refusalScore(model, e.features) >= model.cut);
  const lost = examples.filter((e) => e.inScope && refusalScore(model, e.features) < model.cut);
  console.log(`\nout of scope, not refused:\n${kept.map(show).join("\n")}`);
  console.log(`\nin scope, refused:\n${lost.map(show).join("\n")}`);
}
if (opts.write && !opts.evaluate) {
  await writeFile(MODEL_FILE, `${JSON.stringify(model, null, 2)}\n`);
  console.log(`wrote ${MODEL_FILE}`);
}
