/**
 * npm run bench:support -- [--corpus ../shared/eval/corpus/physics] [--every 6] [--offset 4]
 *
 * The blueprint panel's "what the passages can support" (`supportOf`, POST /api/generation/support)
 * timed per selection of eight retrieved passages (a section title inside its chapter, as
 * eval:generation selects them): p50 / p95 / max of the whole call, which since wave 11 also
 * dry-runs the selection with the rest of its section ("withSection"), beside the selection-only
 * dry run it replaced, and how many cells the section adds.
 */
import path from "node:path";
import { Command } from "commander";
import { filtersOf, readManifest, selectPassages, spreadTopics } from "./support/eval-corpus";
import { openOfflineWorkspace } from "./support/workspace";

const opts = new Command()
  .option("--corpus <dir>", "corpus folder with manifest.json", "../shared/eval/corpus/physics")
  .option("--every <n>", "every N-th section", "6")
  .option("--offset <n>", "start of the spread", "4")
  .option("--data-dir <dir>", "embedded database cache", ".bench/bench-support")
  .parse()
  .opts<{ corpus: string; every: string; offset: string; dataDir: string }>();

const workspace = await openOfflineWorkspace(
  path.resolve(opts.dataDir, path.basename(path.resolve(opts.corpus))),
);
const { loadScope } = await import("@/lib/generation/store");
const { supportOf } = await import("@/lib/generation/slot/support");
const { buildRunCore, dryRunOf } = await import("@/lib/generation/slot/offload");

const manifest = await readManifest(opts.corpus);
const topics = spreadTopics(manifest, Number(opts.every), Number(opts.offset));
const { db, userId } = workspace;
await workspace.ingest([opts.corpus]);
const filters = filtersOf(manifest);

const whole: number[] = [];
const selectionOnly: number[] = [];
let cells = 0;
let gained = 0;
for (const topic of topics) {
  const { chunks } = await selectPassages(workspace, filters, topic);
  const scope = await loadScope(
    db,
    userId,
    chunks.map((c) => c.documentId),
  );
  let t = performance.now();
  dryRunOf(buildRunCore(chunks, scope, { seed: 1, useSection: false }), { seed: 1 });
  selectionOnly.push(performance.now() - t);
  t = performance.now();
  const rows = supportOf(chunks, scope);
  whole.push(performance.now() - t);
  cells += rows.length;
  gained += rows.filter((r) => (r.withSection ?? r.count) > r.count).length;
}
const q = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? 0;
const f = (xs: number[]) =>
  `${q(xs, 0.5).toFixed(0)} / ${q(xs, 0.95).toFixed(0)} / ${Math.max(...xs).toFixed(0)} ms`;
console.log(`\n## Support table on ${path.basename(opts.corpus)}: ${topics.length} selections of 8 passages`);
console.log("| measure | p50 / p95 / max |\n|---|---:|");
console.log(`| selection-only dry run (before wave 11) | ${f(selectionOnly)} |`);
console.log(`| supportOf with the section (now) | ${f(whole)} |`);
console.log(`| cells the rest of the section adds | ${gained} of ${cells} |`);
