/**
 * npm run bench:load -- [--duration 60] [--connections 20] [--streams 5]
 *
 * Starts `next start` (embedded mode, fresh data dir with the demo curriculum) on 127.0.0.1 and
 * drives it with autocannon: N concurrent clients calling /api/retrieval/query with varied real
 * queries for the duration, then the same with M concurrent generation streams mixed in.
 * Reports throughput, p50/p95/p99, errors and the server's RSS at start and end.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { Command } from "commander";
import { login, percentile, startNextServer } from "./support/next-server";

const opts = new Command()
  .option("--duration <s>", "seconds per run", "60")
  .option("--connections <n>", "concurrent retrieval clients", "20")
  .option("--streams <n>", "concurrent generation streams in the second run", "5")
  .option("--port <n>", "port", "3200")
  .parse()
  .opts<{ duration: string; connections: string; streams: string; port: string }>();

const dataDir = mkdtempSync(path.join(os.tmpdir(), "paperwise-load-"));
const server = await startNextServer(Number(opts.port), { PAPERWISE_DATA_DIR: dataDir });
const { base } = server;
const pct = percentile;

try {
  const accessToken = await login(base, "teacher@paperwise.local", "paperwise-teacher");
  const headers = { authorization: `Bearer ${accessToken}`, "content-type": "application/json" };
  const filters = { board: "OpenStax", grade: "11", subject: "Biology" };
  const queries = readFileSync(path.join(process.cwd(), "../shared/eval/queries-open.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { query: string }).query);
  const requests = queries.map((query) => ({
    method: "POST",
    path: "/api/retrieval/query",
    headers,
    body: JSON.stringify({ filters, query }),
  }));
  // Warm up (first query per worker compiles routes and loads WordNet).
  for (const r of requests.slice(0, 5))
    await fetch(`${base}${r.path}`, { method: "POST", headers, body: r.body });
  const context = (
    (await (
      await fetch(`${base}/api/retrieval/query`, {
        method: "POST",
        headers,
        body: JSON.stringify({ filters, query: "photosynthesis light reactions", topK: 8 }),
      })
    ).json()) as {
      items: { documentId: string; chunkIndex: number }[];
    }
  ).items.map((i) => ({ documentId: i.documentId, chunkIndex: i.chunkIndex }));

  console.log(
    "| run | requests | req/s | p50 ms | p95 ms | p99 ms | errors | generation sets (errors) | server RSS start → end MB |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const streams of [0, Number(opts.streams)]) {
    const rssStart = server.rssMb();
    const times: number[] = [];
    const run = autocannon({
      url: base,
      connections: Number(opts.connections),
      duration: Number(opts.duration),
      requests,
      timeout: 30,
    });
    run.on("response", (_c, _s, _b, ms) => times.push(ms));
    let stop = false;
    let sets = 0;
    let genErrors = 0;
    const workers = Array.from({ length: streams }, async () => {
      while (!stop) {
        try {
          const res = await fetch(`${base}/api/generation`, {
            method: "POST",
            headers,
            body: JSON.stringify({
              filters,
              context,
              blueprint: {
                items: [
                  { type: "mcq", count: 6 },
                  { type: "short", count: 3 },
                  { type: "long", count: 1 },
                ],
              },
            }),
          });
          const text = await res.text();
          if (res.ok && text.includes('"data-set"')) sets++;
          else genErrors++;
        } catch {
          genErrors++;
        }
      }
    });
    const result = await run;
    stop = true;
    await Promise.all(workers);
    const errors = result.errors + result.timeouts + result.non2xx;
    console.log(
      `| ${Number(opts.connections)} retrieval clients${streams ? ` + ${streams} generation streams` : ""} | ${result.requests.total} | ${result.requests.average.toFixed(1)} | ${pct(times, 0.5).toFixed(0)} | ${pct(times, 0.95).toFixed(0)} | ${pct(times, 0.99).toFixed(0)} | ${errors} | ${streams ? `${sets} (${genErrors})` : "–"} | ${rssStart.toFixed(0)} → ${server.rssMb().toFixed(0)} |`,
    );
  }
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
