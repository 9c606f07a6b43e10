/**
 * npm run eval:bloom -- --outside <csv> [--train <csv> [--cv <k>] [--with-outside] [--write-model]] [--json]
 *
 * How well the Bloom demand estimator (`lib/generation/gate/demand.ts`) reads the level of what
 * earns the marks, against labels it was not written from. Per set: exact agreement, within one
 * level, per-level recall and the confusion matrix (rows: label, columns: estimate).
 *
 *  - outside: an openly licensed, Bloom-labelled question set, text only (`Questions,Category`
 *    CSV with BT1…BT6 or level names). Read with `estimateDemandOfText`. The set is not part of
 *    this repository: see docs/bloom-demand.md for where to get it.
 *  - drafts: the 65 language-model drafts in ../shared/eval/llm-drafts/physics.jsonl with their
 *    passages; label: the reader's `teacher.demand`.
 *  - round3: the offline generator's questions in eval/generation/round3.samples.jsonl with their
 *    passages; label: the readers' `demand` in round3.graded.jsonl.
 *  - biology MCQs (804) and short answers (565) of ../shared/eval/questions with their section as
 *    context; label: a heuristic from the stem's verb (their README says so), so agreement there
 *    measures closeness to a verb heuristic, not to a reader.
 *
 * --train <csv>: fits the text model's weights (one-vs-rest logistic regression over the
 * structural and command-verb features of `demand-features.ts`) on that CSV, leaving out every
 * question whose text is also in the outside set, and reports the outside set read by those
 * weights alone (cross-set). --cv <k>: k folds of the outside set (row index mod k), each read by
 * weights fitted on the --train set and the other folds (held out). --write-model writes the
 * weights to lib/generation/gate/demand-model.ts; --with-outside fits them on the outside set too
 * (the shipped weights: the outside figure is then in-sample). Also printed: the wording
 * classifier on the outside set, the outside set through `estimateDemand`, and the gate's Bloom
 * refusals of usable drafts.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Command } from "commander";
import { fitLogistic } from "@/lib/eval/logistic";
import { classifyBloom } from "@/lib/generation/bloom-classifier";
import { createGateContext, estimateDemand } from "@/lib/generation/gate";
import { estimateDemandOfText, textRuleLevel } from "@/lib/generation/gate/demand";
import { DEMAND_FEATURES, demandFeatures } from "@/lib/generation/gate/demand-features";
import { fromLlm } from "@/lib/generation/llm/draft";
import type { TLlmQuestion } from "@/schema/generation.schema";
import { BLOOM_LEVELS, type EBloomLevel } from "@/types/bloom.types";
import { type IContextChunk, type ISlot, passageKey, type TQuestion } from "@/types/generation.types";

const opts = new Command()
  .requiredOption("--outside <csv>", "outside Bloom-labelled question set (Questions,Category)")
  .option("--train <csv>", "fit the text model on this CSV (outside questions left out)")
  .option("--write-model", "write the fitted weights to lib/generation/gate/demand-model.ts")
  .option(
    "--cv <k>",
    "with --train: k-fold check on the outside set (train on the --train set plus k-1 folds, test on the fold)",
  )
  .option("--with-outside", "with --train --write-model: fit the shipped weights on the outside set too")
  .option("--drafts <file>", "language-model drafts", "../shared/eval/llm-drafts/physics.jsonl")
  .option("--round3 <dir>", "graded offline questions", "eval/generation")
  .option("--questions <dir>", "biology question files", "../shared/eval/questions")
  .option("--corpus <dir>", "biology corpus (section context)", "../shared/eval/corpus/biology-2e")
  .option("--json", "print JSON")
  .parse()
  .opts<{
    outside: string;
    train?: string;
    writeModel?: boolean;
    cv?: string;
    withOutside?: boolean;
    drafts: string;
    round3: string;
    questions: string;
    corpus: string;
    json?: boolean;
  }>();

// ---- Reading the sets --------------------------------------------------------------------------

/** RFC 4180 CSV (quoted fields, doubled quotes, newlines inside quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

const LEVEL_OF: Record<string, EBloomLevel> = {
  bt1: "Remember",
  bt2: "Understand",
  bt3: "Apply",
  bt4: "Analyze",
  bt5: "Evaluate",
  bt6: "Create",
  knowledge: "Remember",
  comprehension: "Understand",
  application: "Apply",
  analysis: "Analyze",
  synthesis: "Create",
  evaluation: "Evaluate",
  ...Object.fromEntries(BLOOM_LEVELS.map((l) => [l.toLowerCase(), l])),
};

interface ITextItem {
  text: string;
  label: EBloomLevel;
}

async function readLabelledCsv(file: string): Promise<ITextItem[]> {
  const rows = parseCsv(await readFile(file, "utf8"));
  const head = (rows[0] ?? []).map((h) => h.trim().toLowerCase());
  const qi = head.findIndex((h) => /question/.test(h));
  const li = head.findIndex((h) => /categor|level|label|taxonomy|bloom/.test(h));
  if (qi < 0 || li < 0) throw new Error(`${file}: needs a question column and a level column`);
  return rows.slice(1).flatMap((r) => {
    const label = LEVEL_OF[(r[li] ?? "").trim().toLowerCase()];
    const text = (r[qi] ?? "").trim();
    return label && text ? [{ text, label }] : [];
  });
}

const norm = (t: string) =>
  t
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

async function readJsonl<T>(file: string): Promise<T[]> {
  return (await readFile(file, "utf8"))
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

// ---- Scoring ----------------------------------------------------------------------------------

interface IScore {
  n: number;
  exact: number;
  withinOne: number;
  /** confusion[label][estimate] */
  confusion: Record<EBloomLevel, Record<EBloomLevel, number>>;
}

const emptyRow = () => Object.fromEntries(BLOOM_LEVELS.map((l) => [l, 0])) as Record<EBloomLevel, number>;

function score(pairs: readonly { label: EBloomLevel; estimate: EBloomLevel }[]): IScore {
  const confusion = Object.fromEntries(BLOOM_LEVELS.map((l) => [l, emptyRow()])) as IScore["confusion"];
  let exact = 0;
  let withinOne = 0;
  for (const { label, estimate } of pairs) {
    confusion[label][estimate]++;
    if (label === estimate) exact++;
    if (Math.abs(BLOOM_LEVELS.indexOf(label) - BLOOM_LEVELS.indexOf(estimate)) <= 1) withinOne++;
  }
  return { n: pairs.length, exact, withinOne, confusion };
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)} %` : "–");

function report(name: string, s: IScore): string {
  const lines = [
    `### ${name}: n ${s.n}, exact ${s.exact} (${pct(s.exact, s.n)}), within one level ${s.withinOne} (${pct(s.withinOne, s.n)})`,
    "",
    `| label \\ estimate | ${BLOOM_LEVELS.join(" | ")} | recall |`,
    `| --- | ${BLOOM_LEVELS.map(() => "---:").join(" | ")} | ---: |`,
  ];
  for (const l of BLOOM_LEVELS) {
    const row = s.confusion[l];
    const n = BLOOM_LEVELS.reduce((a, e) => a + row[e], 0);
    if (!n) continue;
    lines.push(`| ${l} | ${BLOOM_LEVELS.map((e) => row[e]).join(" | ")} | ${pct(row[l], n)} |`);
  }
  return lines.join("\n");
}

// ---- Optional training ------------------------------------------------------------------------

const outside = await readLabelledCsv(opts.outside);
const outsideKeys = new Set(outside.map((o) => norm(o.text)));
const results: Record<string, IScore> = {};
const notes: string[] = [];

/** One-vs-rest logistic weights with equal level priors. */
function fitDemandModel(train: readonly ITextItem[]) {
  const xs = train.map((t) => demandFeatures({ stem: t.text }));
  const models = BLOOM_LEVELS.map((level) =>
    fitLogistic(
      xs,
      train.map((t) => (t.label === level ? 1 : 0)),
      { iterations: 2000, rate: 0.5, l2: 3e-3 },
    ),
  );
  // Equal priors: the training set's level mix (not the outside set's) would otherwise decide the
  // close calls. Each one-vs-rest intercept is shifted from the training prior to one in six.
  const logit = (p: number) => Math.log(p / (1 - p));
  BLOOM_LEVELS.forEach((level, k) => {
    const p = Math.max(1, train.filter((t) => t.label === level).length) / train.length;
    models[k]!.intercept += logit(1 / 6) - logit(p);
  });
  return models;
}

/** As `estimateDemandOfText`, with the given weights in place of the shipped ones. */
function predictWith(models: ReturnType<typeof fitDemandModel>, text: string): EBloomLevel {
  const ruled = textRuleLevel(text);
  if (ruled) return ruled;
  const x = demandFeatures({ stem: text });
  let best = 0;
  let bestZ = Number.NEGATIVE_INFINITY;
  models.forEach((m, k) => {
    let z = m.intercept;
    for (let i = 0; i < m.weights.length; i++) z += m.weights[i]! * (x[i] ?? 0);
    if (z > bestZ) {
      bestZ = z;
      best = k;
    }
  });
  return BLOOM_LEVELS[best]!;
}

const levelMix = (items: readonly ITextItem[]) =>
  BLOOM_LEVELS.map((l) => `${l} ${items.filter((t) => t.label === l).length}`).join(", ");

if (opts.train) {
  const seen = new Set<string>();
  const train = (await readLabelledCsv(opts.train)).filter((t) => {
    const k = norm(t.text);
    if (outsideKeys.has(k) || seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  notes.push(
    `training set: ${train.length} questions of ${path.basename(opts.train)} not in ${path.basename(opts.outside)} (${levelMix(train)})`,
  );
  if (opts.cv) {
    // Folds by position modulo k: every level of a level-sorted file is spread over the folds.
    const k = Number(opts.cv);
    const pairs: { label: EBloomLevel; estimate: EBloomLevel }[] = [];
    for (let f = 0; f < k; f++) {
      const models = fitDemandModel([...train, ...outside.filter((_, i) => i % k !== f)]);
      for (const o of outside.filter((_, i) => i % k === f))
        pairs.push({ label: o.label, estimate: predictWith(models, o.text) });
    }
    results[`outside, ${k}-fold held out (trained on ${path.basename(opts.train)} + the other folds)`] =
      score(pairs);
  }
  const t0 = performance.now();
  const shipped = opts.withOutside ? [...train, ...outside] : train;
  const models = fitDemandModel(shipped);
  notes.push(`fit ${shipped.length} questions in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  if (!opts.withOutside)
    results[`outside, cross-set (trained only on ${path.basename(opts.train)})`] = score(
      outside.map((o) => ({ label: o.label, estimate: predictWith(models, o.text) })),
    );
  if (opts.writeModel) {
    const round = (x: number) => Math.round(x * 1000) / 1000;
    const source = opts.withOutside
      ? `${path.basename(opts.train)} and ${path.basename(opts.outside)} (deduplicated)`
      : `${path.basename(opts.train)} without the questions of ${path.basename(opts.outside)}`;
    const body = [
      "// Generated by `npm run eval:bloom -- --train <csv> --write-model` (see docs/bloom-demand.md).",
      "// One-vs-rest logistic weights over DEMAND_FEATURES, in BLOOM_LEVELS order, equal level priors.",
      `// Trained on ${shipped.length} questions: ${source}.`,
      "",
      `export const DEMAND_MODEL_FEATURES = ${JSON.stringify(DEMAND_FEATURES)} as const;`,
      "",
      "export const DEMAND_MODEL: readonly { intercept: number; weights: readonly number[] }[] = [",
      ...models.map(
        (m) => `  { intercept: ${round(m.intercept)}, weights: [${m.weights.map(round).join(", ")}] },`,
      ),
      "];",
      "",
    ].join("\n");
    await writeFile("lib/generation/gate/demand-model.ts", body);
    notes.push("wrote lib/generation/gate/demand-model.ts (run the eval again to measure the shipped model)");
  }
}

// ---- 1. Outside set, text only ----------------------------------------------------------------
{
  const t0 = performance.now();
  const pairs = outside.map((o) => ({ label: o.label, estimate: estimateDemandOfText(o.text) }));
  const ms = performance.now() - t0;
  results[`outside (${path.basename(opts.outside)}, text only)`] = score(pairs);
  notes.push(`outside: ${((1000 * ms) / Math.max(1, outside.length)).toFixed(0)} µs per question`);
  // The verb-cue wording classifier that reads past-paper questions (lib/generation/bloom-classifier.ts).
  results[`outside (${path.basename(opts.outside)}), verb cues only (classifyBloom)`] = score(
    outside.map((o) => ({ label: o.label, estimate: classifyBloom(o.text) })),
  );
  // The gate's path on the same texts: a 2-mark short question with no answer and no passages.
  const none = createGateContext([]);
  results[`outside (${path.basename(opts.outside)}) through estimateDemand, no answer or passages`] = score(
    outside.map((o) => ({
      label: o.label,
      estimate: estimateDemand(
        {
          id: "outside",
          type: "short",
          bloomLevel: "Remember",
          promptText: o.text,
          marks: 2,
          difficulty: "medium",
          contextRefs: [],
          validation: {
            citationsOk: true,
            supported: true,
            bloomAgreed: true,
            regenerated: false,
            flags: [],
          },
          source: "offline",
          suggestedAnswer: "",
          evaluatorKeywords: [],
        },
        none,
      ),
    })),
  );
}

// ---- 2. Language-model drafts -----------------------------------------------------------------
interface IDraftRow {
  id: string;
  type: "mcq" | "short" | "long";
  marks: number;
  requestedLevel: EBloomLevel | null;
  gateReason?: string;
  draft: TLlmQuestion;
  passages: { id: string; text: string }[];
  teacher: { demand: EBloomLevel; verdict: string };
}
const chunkOf = (id: string, text: string, i: number): IContextChunk => {
  const [documentId, idx] = id.split(":");
  return { documentId: documentId ?? `doc${i}`, chunkIndex: Number(idx ?? i), content: text, title: "" };
};
{
  const rows = await readJsonl<IDraftRow>(opts.drafts);
  // The gate refuses a label above the demand. Where the draft's requested level is known (the
  // slot's for passed drafts, the gate's reason for refused ones), count those refusals: every
  // draft was read usable (use or edit), so each is a false refusal.
  let known = 0;
  let refused = 0;
  let ms = 0;
  const pairs = rows.map((r) => {
    const chunks = r.passages.map((p, i) => chunkOf(p.id, p.text, i));
    const requested =
      r.requestedLevel ??
      (BLOOM_LEVELS.find((l) => new RegExp(`labelled ${l}`, "i").test(r.gateReason ?? "")) || null);
    const slot: ISlot = {
      id: r.id,
      index: 0,
      type: r.type,
      bloomLevel: requested ?? "Remember",
      marks: r.marks,
      difficulty: "medium",
      sourceKeys: [],
    };
    const q = fromLlm(slot, r.draft, new Map(chunks.map((c) => [passageKey(c), c])));
    const ctx = createGateContext(chunks);
    const t0 = performance.now();
    const estimate = estimateDemand(q, ctx);
    ms += performance.now() - t0;
    if (requested && r.teacher.verdict !== "reject") {
      known++;
      if (BLOOM_LEVELS.indexOf(requested) > BLOOM_LEVELS.indexOf(estimate)) refused++;
    }
    return { label: r.teacher.demand, estimate };
  });
  notes.push(
    `drafts: the gate's Bloom check would refuse ${refused} of ${known} usable drafts whose requested level is known (label above the demand); estimateDemand ${((1000 * ms) / Math.max(1, rows.length)).toFixed(0)} µs per draft (first pass, with warm-up)`,
  );
  results["drafts (llm-drafts/physics.jsonl, reader's demand)"] = score(pairs);
}

// ---- 3. Round 3 offline questions, readers' demand --------------------------------------------
{
  const samples = await readJsonl<{ question: TQuestion; passages: { key: string; text: string }[] }>(
    path.join(opts.round3, "round3.samples.jsonl"),
  );
  const graded = new Map(
    (await readJsonl<{ id: string; demand: EBloomLevel }>(path.join(opts.round3, "round3.graded.jsonl"))).map(
      (g) => [g.id, g.demand],
    ),
  );
  const pairs = samples.flatMap((s) => {
    const label = graded.get(s.question.id);
    if (!label) return [];
    const chunks = s.passages.map((p, i) => chunkOf(p.key, p.text, i));
    return [{ label, estimate: estimateDemand(s.question, createGateContext(chunks)) }];
  });
  results["round3 (offline generator, readers' demand)"] = score(pairs);
}

// ---- 4. Biology 2e end-of-section questions (heuristic labels) ---------------------------------
{
  interface IManifest {
    chapters: { file: string; sections: { id: string; charStart: number; charEnd: number }[] }[];
  }
  const manifest = JSON.parse(await readFile(path.join(opts.corpus, "manifest.json"), "utf8")) as IManifest;
  const sectionText = new Map<string, string>();
  for (const ch of manifest.chapters) {
    const text = await readFile(path.join(opts.corpus, ch.file), "utf8");
    for (const s of ch.sections) sectionText.set(s.id, text.slice(s.charStart, s.charEnd));
  }
  const base = (id: string, stem: string, sectionId: string) => ({
    id,
    bloomLevel: "Remember" as const,
    promptText: stem,
    marks: 1,
    difficulty: "medium" as const,
    contextRefs: [{ documentId: sectionId, chunkIndex: 0, title: "", quote: "" }],
    validation: { citationsOk: true, supported: true, bloomAgreed: true, regenerated: false, flags: [] },
    source: "offline" as const,
  });
  const ctxOf = (sectionId: string) =>
    createGateContext([chunkOf(`${sectionId}:0`, sectionText.get(sectionId) ?? "", 0)]);
  const mcqs = await readJsonl<{
    id: string;
    sectionId: string;
    stem: string;
    options: string[];
    correctIndex: number | null;
    bloom: EBloomLevel;
  }>(path.join(opts.questions, "biology-2e.jsonl"));
  results["biology MCQs (heuristic verb labels)"] = score(
    mcqs
      .filter((m) => m.correctIndex !== null)
      .map((m) => ({
        label: m.bloom,
        estimate: estimateDemand(
          {
            ...base(m.id, m.stem, m.sectionId),
            type: "mcq",
            options: m.options,
            correctIndex: m.correctIndex ?? 0,
            explanation: "",
            distractorRationales: [],
          },
          ctxOf(m.sectionId),
        ),
      })),
  );
  const shorts = await readJsonl<{
    id: string;
    sectionId: string;
    stem: string;
    modelAnswer: string;
    bloom: EBloomLevel;
  }>(path.join(opts.questions, "biology-2e-short-answer.jsonl"));
  results["biology short answers (heuristic verb labels)"] = score(
    shorts.map((m) => ({
      label: m.bloom,
      estimate: estimateDemand(
        {
          ...base(m.id, m.stem, m.sectionId),
          type: "short",
          marks: 3,
          suggestedAnswer: m.modelAnswer,
          evaluatorKeywords: [],
        },
        ctxOf(m.sectionId),
      ),
    })),
  );
}

if (opts.json) console.log(JSON.stringify({ notes, results }, null, 2));
else {
  for (const n of notes) console.log(`- ${n}`);
  for (const [name, s] of Object.entries(results)) console.log(`\n${report(name, s)}`);
}
