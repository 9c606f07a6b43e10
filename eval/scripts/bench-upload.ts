/**
 * npm run bench:upload -- [--mb 25] [--rate 10] [--baseline-s 20] [--port 3210]
 *
 * A large upload on the embedded server (issue 15 finding 3): `next start` on a fresh data dir
 * (demo curriculum), retrieval requests arriving at --rate per second (open loop: each is sent at
 * its scheduled time whether or not earlier ones have answered, and timed from then, so a server
 * that stalls shows every request it kept waiting), and one admin polling the upload's status
 * every 500 ms; first without an upload (baseline), then while a Markdown file of --mb megabytes
 * is ingested. The file is generated at run time from the eval corpus (both books'
 * chapters repeated, each copy under its own heading) and deleted afterwards. Reports latencies
 * of both kinds of request per phase, the ingestion's timeline and the server's memory.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Command } from "commander";
import { login, percentile, startNextServer } from "./support/next-server";

const opts = new Command()
  .option("--mb <n>", "size of the generated Markdown file", "25")
  .option("--rate <n>", "retrieval requests per second (open loop)", "10")
  .option("--baseline-s <s>", "seconds of retrieval before the upload", "20")
  .option("--port <n>", "port", "3210")
  .option("--corpus <dirs...>", "books the file is made from", [
    "../shared/eval/corpus/biology-2e",
    "../shared/eval/corpus/physics",
  ])
  .parse()
  .opts<{ mb: string; rate: string; baselineS: string; port: string; corpus: string[] }>();

/** Both books' chapters, repeated until the file reaches the size; each copy keeps its headings. */
async function makeLargeMarkdown(dir: string, bytes: number): Promise<string> {
  const chapters: string[] = [];
  for (const book of opts.corpus) {
    for (const f of (await readdir(book)).filter((f) => /^ch\d+.*\.md$/.test(f)).sort()) {
      chapters.push(await readFile(path.join(book, f), "utf8"));
    }
  }
  const parts: string[] = [];
  let size = 0;
  for (let copy = 1; size < bytes; copy++) {
    for (const text of chapters) {
      if (size >= bytes) break;
      const part = `${text.replace(/^# /m, `# Copy ${copy}: `)}\n\n`;
      parts.push(part);
      size += Buffer.byteLength(part);
    }
  }
  const file = path.join(dir, `large-${opts.mb}mb.md`);
  await writeFile(file, parts.join(""));
  return file;
}

interface ISample {
  at: number;
  ms: number;
  ok: boolean;
}

const summary = (xs: ISample[]) => {
  const ms = xs.map((x) => x.ms);
  return `${xs.length} | ${percentile(ms, 0.5).toFixed(0)} | ${percentile(ms, 0.95).toFixed(0)} | ${percentile(ms, 0.99).toFixed(0)} | ${Math.max(0, ...ms).toFixed(0)} | ${xs.filter((x) => !x.ok).length}`;
};

const dataDir = await mkdtemp(path.join(os.tmpdir(), "paperwise-upload-"));
const fileDir = await mkdtemp(path.join(os.tmpdir(), "paperwise-large-"));
const server = await startNextServer(Number(opts.port), {
  PAPERWISE_DATA_DIR: dataDir,
  PAPERWISE_MAX_UPLOAD_MB: String(Math.max(50, Number(opts.mb) + 1)),
  PAPERWISE_LOG_LEVEL: "info",
});
try {
  const base = server.base;
  const file = await makeLargeMarkdown(fileDir, Number(opts.mb) * 1024 * 1024);
  const teacher = await login(base, "teacher@paperwise.local", "paperwise-teacher");
  const admin = await login(base, "admin@paperwise.local", "paperwise-admin");
  const queries = (await readFile("../shared/eval/queries-open.jsonl", "utf8"))
    .split("\n")
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { query: string }).query);
  const filters = { board: "OpenStax", grade: "11", subject: "Biology" };
  const timed = async (run: () => Promise<Response>, timeoutMs = 30_000): Promise<ISample> => {
    const t0 = performance.now();
    try {
      const res = await Promise.race([
        run(),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error("timeout")), timeoutMs)),
      ]);
      await res.arrayBuffer();
      return { at: t0, ms: performance.now() - t0, ok: res.ok };
    } catch {
      return { at: t0, ms: performance.now() - t0, ok: false };
    }
  };
  const query = (i: number) =>
    timed(() =>
      fetch(`${base}/api/retrieval/query`, {
        method: "POST",
        headers: { authorization: `Bearer ${teacher}`, "content-type": "application/json" },
        body: JSON.stringify({ filters, query: queries[i % queries.length], topK: 8 }),
      }),
    );
  for (let i = 0; i < 5; i++) await query(i);

  let stop = false;
  const retrieval: ISample[] = [];
  /** Sends a query every 1/rate s until stopped; resolves when all sent ones have answered. */
  const clients = async () => {
    const pending: Promise<void>[] = [];
    const interval = 1000 / Number(opts.rate);
    const start = performance.now();
    for (let i = 0; !stop; i++) {
      const due = start + i * interval;
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
      pending.push(query(i).then((sample) => void retrieval.push(sample)));
    }
    await Promise.all(pending);
  };

  // Baseline: the same clients, no upload.
  let running = clients();
  await new Promise((r) => setTimeout(r, Number(opts.baselineS) * 1000));
  stop = true;
  await running;
  const baseline = retrieval.splice(0);
  const rssBefore = server.rssMb();

  stop = false;
  running = clients();
  const form = new FormData();
  for (const [k, v] of Object.entries({ ...filters, subject: "Large upload", resourceType: "textbook" }))
    form.set(k, v);
  form.set("file", new Blob([await readFile(file)]), path.basename(file));
  const uploadStarted = performance.now();
  const res = await fetch(`${base}/api/resources`, {
    method: "POST",
    headers: { authorization: `Bearer ${admin}` },
    body: form,
  });
  const uploadMs = performance.now() - uploadStarted;
  const uploaded = (await res.json()) as { ingestions?: { id: string }[]; error?: unknown };
  const id = uploaded.ingestions?.[0]?.id;
  if (!id) throw new Error(`upload refused: ${res.status} ${JSON.stringify(uploaded.error)}`);

  const polls: ISample[] = [];
  const timeline: { status: string; at: number; done: number; total: number }[] = [];
  let final: { status: string; chunkCount: number | null; error: string | null } | null = null as {
    status: string;
    chunkCount: number | null;
    error: string | null;
  } | null;
  let peakRss = rssBefore;
  type TStatus = {
    status: string;
    progressDone: number;
    progressTotal: number;
    chunkCount: number | null;
    error: string | null;
  };
  let lastShown = performance.now();
  while (!final) {
    const t0 = performance.now();
    let ing: TStatus | null = null;
    try {
      const r = await fetch(`${base}/api/resources/${id}`, {
        headers: { authorization: `Bearer ${admin}` },
        signal: AbortSignal.timeout(1500),
      });
      ing = ((await r.json()) as { ingestion?: TStatus }).ingestion ?? null;
      polls.push({ at: t0, ms: performance.now() - t0, ok: r.ok });
    } catch {
      polls.push({ at: t0, ms: performance.now() - t0, ok: false });
    }
    peakRss = Math.max(peakRss, server.rssMb());
    if (ing) {
      if (timeline.at(-1)?.status !== ing.status)
        timeline.push({
          status: ing.status,
          at: performance.now(),
          done: ing.progressDone,
          total: ing.progressTotal,
        });
      if (ing.status === "ready" || ing.status === "failed") final = ing;
      // A long run shows it is moving (stderr, every 10 s).
      if (performance.now() - lastShown >= 10_000) {
        lastShown = performance.now();
        console.error(
          `${((lastShown - uploadStarted) / 1000).toFixed(0)} s: ${ing.status} ${ing.progressDone}/${ing.progressTotal}; retrieval so far ${retrieval.length}, p95 ${percentile(
            retrieval.map((x) => x.ms),
            0.95,
          ).toFixed(0)} ms`,
        );
      }
    }
    await new Promise((r) => setTimeout(r, Math.max(0, 500 - (performance.now() - t0))));
  }
  const visible = performance.now();
  // The worker finishes after publishing (statistics, clean-up): measure until its last log line.
  const doneLine = () =>
    server.ingestionLogs.find((l) => /"ingestion\.(ready|failed)"/.test(l) && l.includes(id));
  for (let i = 0; i < 600 && !doneLine(); i++) await new Promise((r) => setTimeout(r, 100));
  const finished = performance.now();
  stop = true;
  await running;
  const during = retrieval.filter((s) => s.at >= uploadStarted && s.at < finished);

  console.log(
    `\n## ${opts.mb} MB Markdown (${(await readFile(file)).byteLength.toLocaleString("en")} bytes), ${final.chunkCount ?? 0} chunks: ${final.status}${final.error ? ` (${final.error})` : ""}`,
  );
  console.log(
    `upload answered in ${uploadMs.toFixed(0)} ms; searchable after ${((visible - uploadStarted) / 1000).toFixed(1)} s; worker done after ${((finished - uploadStarted) / 1000).toFixed(1)} s`,
  );
  console.log(
    `timeline: ${timeline.map((t) => `${t.status} at ${((t.at - uploadStarted) / 1000).toFixed(1)} s`).join(", ")}`,
  );
  console.log(
    `server RSS ${rssBefore.toFixed(0)} MB before, peak ${peakRss.toFixed(0)} MB, ${server.rssMb().toFixed(0)} MB after`,
  );
  console.log("\n| requests | n | p50 ms | p95 ms | p99 ms | max ms | errors/timeouts |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  console.log(`| retrieval, ${opts.rate}/s, no upload | ${summary(baseline)} |`);
  console.log(`| retrieval, ${opts.rate}/s, while the file is ingested | ${summary(during)} |`);
  console.log(`| status polls every 500 ms (1.5 s timeout), while ingested | ${summary(polls)} |`);
  // Where in the ingestion the slow requests were: p95 per window of 10 % of its duration.
  const span = (finished - uploadStarted) / 10;
  const windows = Array.from({ length: 10 }, (_, w) =>
    during.filter((x) => x.at >= uploadStarted + w * span && x.at < uploadStarted + (w + 1) * span),
  );
  console.log(
    `retrieval p95 per tenth of the ingestion (ms): ${windows
      .map((w) =>
        percentile(
          w.map((x) => x.ms),
          0.95,
        ).toFixed(0),
      )
      .join(" · ")}`,
  );
} finally {
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
  await rm(fileDir, { recursive: true, force: true });
}
