/**
 * npx tsx --conditions=react-server eval/scripts/eval-numeric.ts -- [--corpus <dir>] [--chapters 9-23]
 *   [--samples N] [--seed S] [--reasons] [--verbose]
 *
 * Coverage of the numeric Apply generator (lib/generation/offline/knowledge/numeric.ts) on a textbook
 * corpus: each chapter file is extracted and chunked as ingestion does, the chunks are searched
 * for worked examples, each example is verified, and a problem is generated from each verified
 * one. Prints how many "Problem:" labels the text has (a reference count), how many worked
 * examples were found (with the whole chapter's chunks, and with single chunks only, as a
 * retrieval may pass), how many verified, how many produced a problem, and the reasons for
 * the rest. --samples prints N generated problems, spread over the chapters, to read.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { Command } from "commander";
import { mulberry32 as seeded } from "@/lib/generation/offline/forms/common";
import {
  analyseWorkedExample,
  findWorkedExamples,
  type INumericProblem,
  makeNumericProblem,
} from "@/lib/generation/offline/knowledge/numeric";
import {
  evaluate,
  parseExpression,
  readQuantity,
} from "@/lib/generation/offline/knowledge/numeric/expression";
import { chunkDocument } from "@/lib/ingestion/chunk";
import { extractDocument } from "@/lib/ingestion/extract";
import type { IContextChunk } from "@/types/generation.types";

const opts = new Command()
  .option("--corpus <dir>", "folder of Markdown chapter files", "../shared/eval/corpus/physics")
  .option("--chapters <range>", "chapter numbers, e.g. 1-8 or 9-23 (default: all)")
  .option("--samples <n>", "print N generated problems", "0")
  .option("--seed <n>", "seed for new values", "1")
  .option("--reasons", "list every rejected example with its reason")
  .option("--verbose", "print every generated problem")
  .parse()
  .opts<{
    corpus: string;
    chapters?: string;
    samples: string;
    seed: string;
    reasons?: boolean;
    verbose?: boolean;
  }>();

const [lo, hi] = (opts.chapters ?? "1-999").split("-").map(Number);
const files = (await readdir(opts.corpus))
  .filter((f) => /^ch\d+.*\.md$/.test(f))
  .filter((f) => {
    const n = Number(/^ch(\d+)/.exec(f)![1]);
    return n >= lo! && n <= (hi ?? lo!);
  })
  .sort();

const totals = { labels: 0, found: 0, parts: 0, foundSingle: 0, verified: 0, generated: 0, recomputes: 0 };

/** Whether the last line of the worked solution, evaluated as displayed, gives the answer (±1.5 %). */
function recomputes(p: INumericProblem): boolean {
  const sides = p.workedSolution.split("\n").at(-1)!.split(" = ");
  const parsed = parseExpression(sides.at(-2) ?? "");
  if (!parsed) return false;
  const v = evaluate(parsed.node);
  const factor = readQuantity(p.answer.text.replace(/^−/, ""), 0)?.unit?.factor ?? 1;
  const value = v.unitful ? v.si / factor : v.written;
  return Math.abs(value - p.answer.value) <= 0.015 * Math.abs(p.answer.value);
}
const reasons = new Map<string, number>();
const generated: { file: string; text: string }[] = [];
const random = seeded(Number(opts.seed));

for (const file of files) {
  const bytes = await readFile(path.join(opts.corpus, file));
  const text = bytes.toString("utf8");
  totals.labels += (text.match(/^Problem:/gm) ?? []).length;
  const doc = await extractDocument(new Uint8Array(bytes), "text/markdown");
  const chunks: IContextChunk[] = chunkDocument(doc).map((c) => ({
    documentId: file,
    chunkIndex: c.chunkIndex,
    content: c.content,
    title: file,
    bucket: "corpus",
    path: file,
    ...(c.sectionPath ? { sectionPath: c.sectionPath } : {}),
  }));
  const examples = findWorkedExamples(chunks);
  totals.found += examples.length;
  totals.parts += examples.filter((e) => e.part).length;
  totals.foundSingle += chunks.reduce((n, c) => n + findWorkedExamples([c]).length, 0);
  for (const example of examples) {
    const analysis = analyseWorkedExample(example);
    if (!analysis.ok) {
      const key = analysis.reason.replace(/^.*?: /, "").replace(/given \S+ .*? is/, "a given is");
      reasons.set(key, (reasons.get(key) ?? 0) + 1);
      if (opts.reasons) console.log(`- ${file} | ${example.title ?? "?"}: ${analysis.reason}`);
      continue;
    }
    totals.verified++;
    const problem = makeNumericProblem(example, random);
    if (!problem) {
      reasons.set(
        "no acceptable new values or distractors",
        (reasons.get("no acceptable new values or distractors") ?? 0) + 1,
      );
      if (opts.reasons) console.log(`- ${file} | ${example.title ?? "?"}: no problem made`);
      continue;
    }
    totals.generated++;
    if (recomputes(problem)) totals.recomputes++;
    const rendered = [
      `[${file} | ${example.title ?? ""}]`,
      `Q: ${problem.stem}`,
      `Formula: ${problem.formula}`,
      `Answer: ${problem.answer.text}`,
      ...problem.distractors.map((d) => `  x ${d.text} (${d.slip})`),
      `Worked: ${problem.workedSolution}`,
      `Marks: ${problem.markingPoints.map((m) => `${m.point} [${m.marks}]`).join("; ")}`,
      `Quote (${problem.chunkKey}): ${problem.sourceQuote}`,
    ].join("\n");
    generated.push({ file, text: rendered });
    if (opts.verbose) console.log(`${rendered}\n`);
  }
}

console.log(`chapters: ${files.length} (${opts.corpus}${opts.chapters ? `, ${opts.chapters}` : ""})`);
console.log(`"Problem:" labels in the text: ${totals.labels}`);
console.log(
  `worked examples found: ${totals.found}, of which ${totals.parts} are parts of multi-part problems (passing single chunks only: ${totals.foundSingle})`,
);
console.log(`verified: ${totals.verified}  generated: ${totals.generated}`);
console.log(`worked solution recomputes to the answer (±1.5 %): ${totals.recomputes} of ${totals.generated}`);
console.log("rejected, by reason:");
for (const [reason, n] of [...reasons].sort((a, b) => b[1] - a[1]))
  console.log(`  ${String(n).padStart(3)}  ${reason}`);

const wanted = Number(opts.samples);
if (wanted > 0 && generated.length > 0) {
  const step = generated.length / Math.min(wanted, generated.length);
  console.log(`\n--- ${Math.min(wanted, generated.length)} samples ---\n`);
  for (let i = 0; i < Math.min(wanted, generated.length); i++) {
    console.log(`${i + 1}. ${generated[Math.floor(i * step)]!.text}\n`);
  }
}
