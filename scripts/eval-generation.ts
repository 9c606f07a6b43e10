/**
 * npm run eval:generation -- [--corpus ../shared/eval/corpus/biology-2e] [--topics <file>] [--limit N] [--json]
 *
 * For each topic (a section id such as biology-2e:8.2; default: every non-introduction section
 * of the corpus), retrieve context for the section title, generate the standard blueprint
 * (6 MCQ + 3 short + 1 long over all six Bloom levels) with the offline generator, and score it
 * with the deterministic scorers. Also reports the Bloom classifier's agreement with the labels
 * of the human-written end-of-section MCQs (../shared/eval/questions/biology-2e.jsonl).
 * --samples <file> writes every generated question as JSONL, to read them.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Command } from "commander";
import { openOfflineWorkspace } from "./support/workspace";

const opts = new Command()
  .option("--corpus <dir>", "corpus folder with manifest.json", "../shared/eval/corpus/biology-2e")
  .option("--topics <file>", "section ids, one per line (default: all sections)")
  .option("--questions <file>", "human MCQs with Bloom labels", "../shared/eval/questions/biology-2e.jsonl")
  .option("--limit <n>", "first N topics")
  .option("--data-dir <dir>", "embedded database cache", ".bench/eval-generation")
  .option("--samples <file>", "write every generated question (JSONL) for reading")
  .option("--json", "print JSON")
  .parse()
  .opts<{
    samples?: string;
    corpus: string;
    topics?: string;
    questions: string;
    limit?: string;
    dataDir: string;
    json?: boolean;
  }>();

const workspace = await openOfflineWorkspace(
  path.resolve(opts.dataDir, path.basename(path.resolve(opts.corpus))),
);
const { retrieve } = await import("@/lib/retrieval/retrieve");
const { runGeneration } = await import("@/lib/generation/run");
const { scoreSet } = await import("@/lib/generation/scorers");
const { classifyBloom } = await import("@/lib/generation/bloom-classifier");
const { loadContext } = await import("@/lib/generation/store");
const { GenerationRequestSchema } = await import("@/schema/generation.schema");

interface IManifest {
  book: string;
  board: string;
  grade: string;
  subject: string;
  chapters: { chapterNumber: number; sections: { id: string; number: string; title: string }[] }[];
}
const manifest = JSON.parse(await readFile(path.join(opts.corpus, "manifest.json"), "utf8")) as IManifest;
const allSections = manifest.chapters.flatMap((c) =>
  c.sections.filter((s) => !s.number.endsWith(".0")).map((s) => ({ ...s, chapter: c.chapterNumber })),
);
const wanted = opts.topics
  ? new Set((await readFile(opts.topics, "utf8")).split(/\s+/).filter(Boolean))
  : null;
const topics = allSections
  .filter((s) => !wanted || wanted.has(s.id))
  .slice(0, opts.limit ? Number(opts.limit) : undefined);

const { db, userId, embedder } = workspace;
await workspace.ingest([opts.corpus]);

const filters = { board: manifest.board, grade: String(manifest.grade), subject: manifest.subject };
const totals = {
  sets: 0,
  questions: 0,
  requested: 0,
  citations: 0,
  supported: 0,
  duplicates: 0,
  blueprint: 0,
  bloom: 0,
  sane: 0,
};
const firstMs: number[] = [];
const samples: string[] = [];
const setMs: number[] = [];
for (const topic of topics) {
  const found = await retrieve({ db, embedder, model: null, llmTimeoutMs: 0 }, userId, {
    filters: { ...filters, chapterNumber: topic.chapter },
    query: topic.title,
    topK: 8,
    enableRerank: true,
  });
  const chunks = await loadContext(db, userId, found.items);
  const request = GenerationRequestSchema.parse({
    filters,
    context: found.items.map((i) => ({ documentId: i.documentId, chunkIndex: i.chunkIndex })),
    blueprint: {
      items: [
        { type: "mcq", count: 6 },
        { type: "short", count: 3 },
        { type: "long", count: 1, marks: 5 },
      ],
      bloomDistribution: { Remember: 2, Understand: 2, Apply: 2, Analyze: 2, Evaluate: 1, Create: 1 },
    },
    seed: totals.sets + 1,
  });
  const started = performance.now();
  let first = 0;
  const result = await runGeneration(
    { model: null, timeoutMs: 0 },
    chunks,
    request,
    {
      question: (_slot, status) => {
        if (status === "final" && first === 0) first = performance.now() - started;
      },
      progress: () => undefined,
      error: () => undefined,
    },
    (i) => `${topic.id}-${i}`,
  );
  setMs.push(performance.now() - started);
  firstMs.push(first);
  const keys = new Set(chunks.map((c) => `${c.documentId}:${c.chunkIndex}`));
  const text = new Map(chunks.map((c) => [`${c.documentId}:${c.chunkIndex}`, c.content]));
  const s = scoreSet(result.questions, result.slots, keys, text);
  if (opts.samples)
    samples.push(
      ...result.questions.map((q) => JSON.stringify({ topic: `${topic.id} ${topic.title}`, ...q })),
    );
  totals.sets++;
  totals.questions += s.questions;
  totals.requested += s.requested;
  totals.citations += s.validCitations * s.questions;
  totals.supported += s.supported * s.questions;
  totals.duplicates += s.duplicates;
  totals.blueprint += s.blueprintAdherence ? 1 : 0;
  totals.bloom += s.bloomAgreement * s.questions;
  totals.sane += s.distractorSanity * s.questions;
}

if (opts.samples) await writeFile(opts.samples, `${samples.join("\n")}\n`);

// The classifier on human-written items (a sanity check, not a target: the labels there are
// themselves heuristic, per the eval README).
const human = (await readFile(opts.questions, "utf8"))
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { stem: string; bloom: string });
const humanAgree = human.filter((q) => classifyBloom(q.stem) === q.bloom).length / human.length;

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const q = totals.questions || 1;
const quant = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? 0;
const summary = {
  sets: totals.sets,
  questions: totals.questions,
  requested: totals.requested,
  validCitations: totals.citations / q,
  supported: totals.supported / q,
  duplicates: totals.duplicates,
  blueprintAdherence: totals.blueprint / Math.max(1, totals.sets),
  bloomAgreement: totals.bloom / q,
  distractorSanity: totals.sane / q,
  firstQuestionMsP50: quant(firstMs, 0.5),
  setMsP50: quant(setMs, 0.5),
  setMsP95: quant(setMs, 0.95),
  humanMcqBloomAgreement: humanAgree,
};
if (opts.json) console.log(JSON.stringify(summary, null, 2));
else {
  console.log(
    `\n## Offline generator on ${manifest.book}: ${totals.sets} topics × (6 MCQ + 3 short + 1 long)`,
  );
  console.log("| check | result |\n|---|---:|");
  console.log(`| questions generated / requested | ${totals.questions} / ${totals.requested} |`);
  console.log(`| valid citations | ${pct(summary.validCitations)} |`);
  console.log(`| answers supported by cited text | ${pct(summary.supported)} |`);
  console.log(`| duplicate stems | ${summary.duplicates} |`);
  console.log(`| blueprint adherence (sets) | ${pct(summary.blueprintAdherence)} |`);
  console.log(`| Bloom agreement (classifier vs label) | ${pct(summary.bloomAgreement)} |`);
  console.log(`| MCQ distractor sanity | ${pct(summary.distractorSanity)} |`);
  console.log(
    `| first question / whole set p50 (p95) | ${summary.firstQuestionMsP50.toFixed(1)} ms / ${summary.setMsP50.toFixed(1)} (${summary.setMsP95.toFixed(1)}) ms |`,
  );
  console.log(`| classifier vs human MCQ Bloom labels (${human.length} items) | ${pct(humanAgree)} |`);
}
await db.close();
