/**
 * npm run eval:readings -- --samples <file.samples.jsonl> --reader A=<a.jsonl> --reader B=<b.jsonl>
 *   [--merge <readers.jsonl>]
 *
 * Summarises independent readers' gradings of generated questions (one JSON line per question:
 * `{index, verdict, demand, flags, reason}`, `index` = line of the samples file, as the blind
 * readers write them by `../shared/eval/QUESTION-RUBRIC.md`): use / edit / reject per reader,
 * label = the reader's demand, the levels readers see per set, the flags they raise most, and
 * agreement between the first two readers (share and Cohen's κ on the verdict). `--merge` writes
 * (or extends) the one-line-per-question readers file kept beside the samples
 * (`eval/generation/round*.readers.jsonl`). The figures are the readers', not the generator's own
 * checks: nothing here reads the gate.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Command } from "commander";
import { cohensKappa, type IReading, type TVerdict, VERDICTS } from "./support/readings";

const opts = new Command()
  .requiredOption("--samples <file>", "the samples file the readers graded (JSONL)")
  .option(
    "--reader <name=file>",
    "a reader's gradings (repeatable)",
    (v: string, all: string[]) => [...all, v],
    [] as string[],
  )
  .option("--merge <file>", "write/extend the merged readers file (one line per question)")
  .parse()
  .opts<{ samples: string; reader: string[]; merge?: string }>();

interface ISample {
  topic: string;
  question: { bloomLevel: string; type: string };
}

const lines = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");
const samples = lines(opts.samples).map((l) => JSON.parse(l) as ISample);
if (opts.reader.length === 0) throw new Error("give at least one --reader NAME=FILE");

const readers = opts.reader.map((spec) => {
  const [name, file] = spec.split("=");
  if (!name || !file) throw new Error(`--reader wants NAME=FILE, got "${spec}"`);
  const byIndex = new Map<number, IReading>();
  for (const l of lines(file)) {
    const r = JSON.parse(l) as IReading;
    if (!VERDICTS.includes(r.verdict))
      throw new Error(`${file}: index ${r.index} has verdict "${r.verdict}"`);
    byIndex.set(r.index, r);
  }
  const missing = samples.map((_, i) => i).filter((i) => !byIndex.has(i));
  if (missing.length > 0) throw new Error(`${file}: no reading for lines ${missing.slice(0, 10).join(", ")}`);
  return { name, byIndex };
});

const pct = (a: number, n: number) => (n ? `${((100 * a) / n).toFixed(1)} %` : "–");
const n = samples.length;
console.log(
  `${path.basename(opts.samples)}: ${n} questions, ${new Set(samples.map((s) => s.topic)).size} sets\n`,
);
console.log(
  "| reader | use | edit | reject | label = demand | demand levels | sets with ≥ 5 levels (reader's demand) |",
);
console.log("|---|---:|---:|---:|---:|---|---:|");
for (const { name, byIndex } of readers) {
  const count = (v: TVerdict) => samples.filter((_, i) => byIndex.get(i)!.verdict === v).length;
  const agree = samples.filter((s, i) => byIndex.get(i)!.demand === s.question.bloomLevel).length;
  const levels = new Map<string, number>();
  const perSet = new Map<string, Set<string>>();
  samples.forEach((s, i) => {
    const d = byIndex.get(i)!.demand;
    levels.set(d, (levels.get(d) ?? 0) + 1);
    perSet.set(s.topic, (perSet.get(s.topic) ?? new Set()).add(d));
  });
  const rich = [...perSet.values()].filter((l) => l.size >= 5).length;
  console.log(
    `| ${name} | ${pct(count("use"), n)} | ${pct(count("edit"), n)} | ${pct(count("reject"), n)} | ${pct(agree, n)} | ${[
      ...levels,
    ]
      .map(([l, c]) => `${l} ${c}`)
      .join(", ")} | ${rich} of ${perSet.size} |`,
  );
}

if (readers.length >= 2) {
  const [a, b] = readers as [(typeof readers)[number], (typeof readers)[number]];
  const pairs = samples.map((_, i) => [a.byIndex.get(i)!.verdict, b.byIndex.get(i)!.verdict] as const);
  const same = pairs.filter(([x, y]) => x === y).length;
  console.log(
    `\nAgreement ${a.name}–${b.name} on the verdict: ${pct(same, n)} (Cohen's κ ${cohensKappa(pairs).toFixed(2)})`,
  );
}

const flags = new Map<string, number>();
for (const { byIndex } of readers)
  for (const r of byIndex.values()) for (const f of r.flags ?? []) flags.set(f, (flags.get(f) ?? 0) + 1);
console.log(
  `Flags (all readers): ${[...flags]
    .sort((x, y) => y[1] - x[1])
    .slice(0, 8)
    .map(([f, c]) => `${f} ${c}`)
    .join(", ")}`,
);

if (opts.merge) {
  const file = path.basename(opts.samples);
  const kept = existsSync(opts.merge)
    ? lines(opts.merge)
        .map((l) => {
          const { index: _old, ...row } = JSON.parse(l) as { index: number; file: string };
          return row;
        })
        .filter((r) => r.file !== file)
    : [];
  const merged = samples.map((_, i) => ({
    file,
    line: i,
    readers: Object.fromEntries(
      readers.map(({ name, byIndex }) => {
        const { verdict, demand, flags: f, reason } = byIndex.get(i)!;
        return [name, { verdict, demand, flags: f ?? [], reason }];
      }),
    ),
  }));
  const all = [...kept, ...merged].map((r, index) => JSON.stringify({ index, ...r }));
  writeFileSync(opts.merge, `${all.join("\n")}\n`);
  console.log(`\nWrote ${all.length} lines to ${opts.merge}`);
}
