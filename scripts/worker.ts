/**
 * npm run worker -- [--once] [--concurrency N] [--poll-ms MS]
 *
 * Processes queued uploads (the `ingestions` table) on DATABASE_URL, beside the app instances or
 * instead of them (PAPERWISE_INGEST_WORKER=off on the instances). Any number of workers share one
 * database: each queued ingestion is claimed by exactly one. Runs until SIGINT/SIGTERM, finishing
 * the ingestions in progress first (a second signal exits at once; what was in progress is queued
 * again later). --once: process what is queued now, then exit (1 if any failed). On the embedded
 * data dir it works only while the server is stopped, which processes uploads itself.
 */
import { Command } from "commander";
import { getEmbedder } from "@/lib/ai/embedder";
import { getConfig } from "@/lib/config/env";
import { getDb, STALE_INGESTION_MS } from "@/lib/db";
import { IngestionWorker } from "@/lib/ingestion/worker";
import { getStorage } from "@/lib/storage";
import { runCli } from "./support/cli";

const opts = new Command()
  .name("worker")
  .option("--once", "process the queued ingestions, then exit")
  .option("--concurrency <n>", "ingestions processed side by side (PostgreSQL)")
  .option("--poll-ms <ms>", "how often an idle worker looks for new uploads")
  .parse()
  .opts<{ once?: boolean; concurrency?: string; pollMs?: string }>();

function positive(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive whole number`);
  return n;
}

await runCli(
  "worker",
  async () => {
    const config = getConfig();
    const db = await getDb();
    const postgres = db.kind === "postgres";
    const concurrency = postgres
      ? positive(opts.concurrency, "concurrency", config.ingestWorker.concurrency)
      : 1;
    const pollMs = positive(opts.pollMs, "poll-ms", config.ingestWorker.pollMs);
    let failed = 0;
    const worker = new IngestionWorker(async () => ({ db, storage: getStorage(), embedder: getEmbedder() }), {
      concurrency,
      pollMs: opts.once ? 0 : pollMs,
      staleAfterMs: postgres ? STALE_INGESTION_MS : null,
      onProcessed: (row) => {
        const what = `${row.title} (${row.id})`;
        if (row.status === "ready") console.log(`ready ${what}: ${row.chunk_count} chunks`);
        else {
          failed++;
          console.error(`failed ${what}: ${row.error}`);
        }
      },
    });
    worker.start();
    console.log(
      `worker ${worker.id} on ${db.kind}: ${concurrency} at a time${opts.once ? ", until the queue is empty" : `, polling every ${pollMs} ms`}`,
    );
    if (opts.once) {
      await worker.whenIdle();
    } else {
      await new Promise<void>((resolve) => {
        const onSignal = (signal: NodeJS.Signals) => {
          console.log(`${signal}: finishing the ingestions in progress (again to exit now)`);
          process.once(signal, () => process.exit(130));
          resolve();
        };
        process.once("SIGINT", onSignal);
        process.once("SIGTERM", onSignal);
      });
    }
    await worker.stop();
    console.log(`${worker.processed} ingestions processed, ${failed} failed`);
    return failed > 0 ? 1 : 0;
  },
  { whileServerRuns: "let the server process uploads (it does so itself)" },
);
