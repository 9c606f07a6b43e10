/**
 * npm run bench:ingest -- [--corpus ../shared/eval/corpus/biology-2e ../shared/eval/corpus/physics]
 * Ingests each book offline into a fresh embedded database (its own child process, so peak RSS is
 * per book) and reports wall time, chunks/s and peak RSS.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { openOfflineWorkspace } from "./support/workspace";

const args = process.argv.slice(2).filter((a) => a !== "--corpus");
const books = args.length ? args : ["../shared/eval/corpus/biology-2e", "../shared/eval/corpus/physics"];

if (process.env.PAPERWISE_BENCH_CHILD) {
  const workspace = await openOfflineWorkspace(process.env.PAPERWISE_DATA_DIR!);
  const { db } = workspace;
  const started = performance.now();
  const results = await workspace.ingest([books[0]!]);
  const seconds = (performance.now() - started) / 1000;
  const chunks = results.reduce((n, r) => n + (r.ingestion?.chunk_count ?? 0), 0);
  const failed = results.filter((r) => r.error).length;
  const [{ chars } = { chars: 0 }] = await db.query<{ chars: number }>(
    "select sum(char_count)::int as chars from documents",
  );
  await db.close();
  console.log(
    JSON.stringify({
      files: results.length,
      failed,
      chunks,
      chars,
      seconds,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
    }),
  );
} else {
  console.log("| book | files | chars | chunks | wall s | chunks/s | peak RSS MB |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const book of books) {
    const dir = await mkdtemp(path.join(os.tmpdir(), "paperwise-bench-"));
    const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, book], {
      env: { ...process.env, PAPERWISE_BENCH_CHILD: "1", PAPERWISE_DATA_DIR: dir },
      encoding: "utf8",
    });
    await rm(dir, { recursive: true, force: true });
    const line = child.stdout.trim().split("\n").pop() ?? "";
    if (child.status !== 0 || !line.startsWith("{")) {
      console.error(child.stderr);
      process.exitCode = 1;
      continue;
    }
    const r = JSON.parse(line) as {
      files: number;
      failed: number;
      chunks: number;
      chars: number;
      seconds: number;
      peakRssMb: number;
    };
    console.log(
      `| ${path.basename(book)} | ${r.files}${r.failed ? ` (${r.failed} failed)` : ""} | ${r.chars.toLocaleString("en")} | ${r.chunks} | ${r.seconds.toFixed(1)} | ${(r.chunks / r.seconds).toFixed(0)} | ${r.peakRssMb.toFixed(0)} |`,
    );
  }
}
