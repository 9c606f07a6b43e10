/**
 * npm run bench:isolation -- [--port 3231] [--idle 40] [--phase-s 30] [--settle-s 300] [--bomb-pages 1000]
 *   [--bomb-lines 300] [--md-mb 10] [--export-items 1000] [--skip-provider]
 *   [--phases bomb,flood,uploads,markdown,restart,export,provider]
 *
 * One user's heavy requests against another user's simple retrieval ("bystander"), through the
 * HTTP API of `next start` (embedded mode: PGlite, offline embedder and generator), fresh data dir
 * with the demo curriculum, 127.0.0.1 only. Loads, one after the other, each sent by the admin
 * while the demo teacher retrieves in a sequential loop (bounded by --phase-s):
 *   1. idle (no load): the bystander's p50/p95;
 *   2. a PDF bomb (pages sharing one content stream), private upload, until its ingestion ends;
 *   3. a generation flood: 4 of the largest offline requests at a time (60 slots, 60 passages);
 *   4. 8 parallel 200 MB chunked uploads (each should stop at the file limit, or get 429);
 *   5. one --md-mb MB Markdown upload: data dir and pg_wal growth per MB uploaded;
 *   6. kill -9 of the server and the time until it answers again (polled every 500 ms);
 *   7. a big export: a --export-items question paper built through the API (PUT, 100 MCQs of
 *      1 mark per section), exported as PDF in 3 loops at once with a `papers:read` API token;
 *   8. (unless --skip-provider) a model provider that accepts requests and never answers
 *      (stand-in on 127.0.0.1): bystander p95 once the breakers are open, vs offline idle.
 * --phases picks the load phases to run (idle always runs first), e.g. `--phases flood`. A phase's
 * load is waited for until it ends (at most --settle-s) before the next phase starts.
 * The server is started with eval/scripts/support/next-server.ts, like the other HTTP benchmarks.
 * Per phase: bystander requests, p50, p95, max, failures, the server's RSS (max during, and
 * after), data dir size.
 */
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Command } from "commander";
import { startOpenAIStandIn } from "../../tests/support/openai-stand-in";
import { makePdfBomb } from "../../tests/support/pdf-bomb";
import { type INextServer, startNextServer } from "./support/next-server";

const opts = new Command()
  .option("--port <n>", "port for next start", "3231")
  .option("--idle <n>", "bystander requests in the idle phase", "40")
  .option("--phase-s <s>", "longest a load phase runs", "30")
  .option("--settle-s <s>", "longest the bench waits for a phase's load to finish before the next", "300")
  .option("--bomb-pages <n>", "pages of the PDF bomb", "1000")
  .option("--bomb-lines <n>", "text lines of its shared content stream", "300")
  .option("--md-mb <n>", "size of the Markdown upload", "10")
  .option("--export-items <n>", "questions in the big-export paper (at most 1000)", "1000")
  .option("--phases <list>", "load phases to run", "bomb,flood,uploads,markdown,restart,export,provider")
  .option("--skip-provider", "leave out the hanging-provider phase")
  .parse()
  .opts<{
    port: string;
    idle: string;
    phaseS: string;
    settleS: string;
    bombPages: string;
    bombLines: string;
    mdMb: string;
    exportItems: string;
    phases: string;
    skipProvider?: boolean;
  }>();

const base = `http://127.0.0.1:${opts.port}`;
const FILTERS = { board: "OpenStax", grade: "11", subject: "Biology" };
const PHASE_MS = Number(opts.phaseS) * 1000;
/**
 * A phase's load (an ingestion, the flood's sets) is waited for until it ends, up to this bound,
 * before the next phase starts: phases must not overlap, or the next one measures this one's tail.
 */
const SETTLE_MS = Number(opts.settleS) * 1000;

const dataDir = mkdtempSync(path.join(os.tmpdir(), "paperwise-isolation-"));
const runs = new Set(opts.phases.split(",").map((p) => p.trim()));
if (opts.skipProvider) runs.delete("provider");

function startServer(env: Record<string, string> = {}): Promise<INextServer> {
  return startNextServer(Number(opts.port), {
    PAPERWISE_DATA_DIR: dataDir,
    PAPERWISE_LOG_LEVEL: "error",
    ...env,
  });
}

async function stopServer(server: INextServer, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  const child = server.child;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill(signal);
  await exited;
}

const rssMb = (server: INextServer) => {
  try {
    return Math.round(server.rssMb());
  } catch {
    return 0; // a process of the tree exited while it was read
  }
};

function dirMb(dir: string): number {
  let total = 0;
  const walk = (d: string) => {
    for (const name of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, name.name);
      if (name.isDirectory()) walk(p);
      else if (name.isFile()) total += statSync(p).size;
    }
  };
  if (existsSync(dir)) walk(dir);
  return Math.round((total / 1048576) * 10) / 10;
}

const pct = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;
const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);

async function login(email: string, password: string): Promise<Record<string, string>> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  const { accessToken } = (await res.json()) as { accessToken: string };
  return { authorization: `Bearer ${accessToken}` };
}

const QUERIES = [
  "How does osmosis work?",
  "light reactions of photosynthesis",
  "what does the cell membrane do",
];

async function bystanderOnce(auth: Record<string, string>, i: number): Promise<{ ms: number; ok: boolean }> {
  const t0 = performance.now();
  try {
    const res = await fetch(`${base}/api/retrieval/query`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ filters: FILTERS, query: QUERIES[i % QUERIES.length], topK: 8 }),
    });
    await res.arrayBuffer();
    return { ms: performance.now() - t0, ok: res.ok };
  } catch {
    return { ms: performance.now() - t0, ok: false };
  }
}

interface IPhase {
  label: string;
  times: number[];
  failures: number;
  rssMax: number;
  rssAfter: number;
  dataMb: number;
  note: string;
}
const phases: IPhase[] = [];

/** Runs the bystander loop until `load` settles (or the phase time is up), then reports. */
async function phase(
  label: string,
  server: INextServer,
  auth: Record<string, string>,
  load: (() => Promise<string>) | null,
  count?: number,
): Promise<IPhase> {
  const times: number[] = [];
  let failures = 0;
  let rssMax = rssMb(server);
  let done = load === null;
  let note = "";
  const running = load
    ? load().then(
        (n) => {
          note = n;
          done = true;
        },
        (err: unknown) => {
          note = `load failed: ${String(err).slice(0, 100)}`;
          done = true;
        },
      )
    : Promise.resolve();
  const started = performance.now();
  for (let i = 0; ; i++) {
    if (count !== undefined ? i >= count : done || performance.now() - started > PHASE_MS) break;
    const r = await bystanderOnce(auth, i);
    times.push(r.ms);
    if (!r.ok) failures++;
    rssMax = Math.max(rssMax, rssMb(server));
  }
  const measuredFor = performance.now() - started;
  const wasDone = done;
  await Promise.race([running, new Promise((r) => setTimeout(r, SETTLE_MS))]);
  if (!done)
    note ||= `load still running after ${fmt(performance.now() - started)} (next phase starts anyway)`;
  else if (!wasDone)
    note += ` (still running when measuring stopped at ${fmt(measuredFor)}; next phase waited for it)`;
  const p: IPhase = {
    label,
    times,
    failures,
    rssMax,
    rssAfter: rssMb(server),
    dataMb: dirMb(dataDir),
    note,
  };
  phases.push(p);
  console.log(
    `| ${label} | ${times.length} | ${fmt(pct(times, 0.5))} | ${fmt(pct(times, 0.95))} | ${fmt(Math.max(...times))} | ${failures} | ${p.rssMax} | ${p.rssAfter} | ${p.dataMb} | ${note} |`,
  );
  return p;
}

async function resourceStatus(auth: Record<string, string>, id: string): Promise<string> {
  const res = await fetch(`${base}/api/resources/${id}`, { headers: auth });
  const body = (await res.json()) as { status?: string; ingestion?: { status?: string }; error?: string };
  return body.status ?? body.ingestion?.status ?? "?";
}

async function uploadFile(auth: Record<string, string>, name: string, bytes: Uint8Array, type: string) {
  const form = new FormData();
  for (const [k, v] of Object.entries({ ...FILTERS, chapterName: name, visibility: "private" }))
    form.set(k, v);
  form.append("file", new Blob([bytes as BlobPart], { type }), name);
  const res = await fetch(`${base}/api/resources`, { method: "POST", headers: auth, body: form });
  const body = (await res.json()) as { ingestions?: { id: string }[]; error?: { message: string } };
  if (!res.ok) throw new Error(`upload answered ${res.status}: ${body.error?.message}`);
  return body.ingestions![0]!.id;
}

async function waitIngested(auth: Record<string, string>, id: string): Promise<string> {
  const t0 = performance.now();
  for (;;) {
    const status = await resourceStatus(auth, id);
    if (status === "ready" || status === "failed") return `${status} after ${fmt(performance.now() - t0)}`;
    if (performance.now() - t0 > SETTLE_MS) return `still ${status} after ${fmt(performance.now() - t0)}`;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A chunked (no Content-Length) multipart body of `mb` MB. */
async function chunkedUpload(auth: Record<string, string>, mb: number): Promise<number> {
  const head = new TextEncoder().encode(
    '--b\r\nContent-Disposition: form-data; name="file"; filename="huge.md"\r\nContent-Type: text/markdown\r\n\r\n',
  );
  const chunk = new Uint8Array(1024 * 1024).fill(97);
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(head);
    },
    pull(c) {
      if (sent >= mb) return c.close();
      sent++;
      c.enqueue(chunk);
    },
  });
  try {
    const res = await fetch(`${base}/api/resources`, {
      method: "POST",
      headers: { ...auth, "content-type": "multipart/form-data; boundary=b" },
      body,
      duplex: "half",
    } as RequestInit);
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0; // the server closed the connection after answering
  }
}

/** A paper of `items` one-mark MCQs on the demo passages, built through the API (POST, then PUT). */
async function buildBigPaper(auth: Record<string, string>, items: number): Promise<string> {
  const top = (await (
    await fetch(`${base}/api/retrieval/query`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ filters: FILTERS, query: "cell structure organelles", topK: 50 }),
    })
  ).json()) as { items: { documentId: string; chunkIndex: number; content: string; title?: string }[] };
  const created = (await (
    await fetch(`${base}/api/papers`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ template: "blank", title: "Big export", ...FILTERS, totalMarks: items }),
    })
  ).json()) as { paper: Record<string, unknown> & { id: string; version: number } };
  const sections = Array.from({ length: Math.ceil(items / 100) }, (_, s) => ({
    id: randomUUID(),
    name: `Section ${s + 1}`,
    questionType: "mcq",
    items: Array.from({ length: Math.min(100, items - s * 100) }, (_, i) => {
      const passage = top.items[(s * 100 + i) % top.items.length]!;
      return {
        id: randomUUID(),
        marks: 1,
        question: {
          type: "mcq",
          bloomLevel: "Understand",
          difficulty: "medium",
          promptText: `Question ${s * 100 + i + 1}: which statement does the passage on ${passage.content.slice(0, 60).replace(/\s+/g, " ")} support?`,
          options: [
            "The first statement",
            "The second statement",
            "The third statement",
            "The fourth statement",
          ],
          correctIndex: i % 4,
          explanation: passage.content.slice(0, 200),
          citations: [
            {
              documentId: passage.documentId,
              chunkIndex: passage.chunkIndex,
              title: passage.title ?? "Biology",
              quote: passage.content.slice(0, 160),
            },
          ],
        },
      };
    }),
  }));
  const { id, version, ...rest } = created.paper;
  const res = await fetch(`${base}/api/papers/${id}`, {
    method: "PUT",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ ...rest, version, totalMarks: items, sections, blueprint: null }),
  });
  if (!res.ok) throw new Error(`PUT paper answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  return id;
}

let server: INextServer | null = null;
let standIn: Awaited<ReturnType<typeof startOpenAIStandIn>> | null = null;
try {
  const t0 = performance.now();
  server = await startServer();
  const firstStart = performance.now() - t0;
  const teacher = await login("teacher@paperwise.local", "paperwise-teacher");
  const admin = await login("admin@paperwise.local", "paperwise-admin");
  for (let i = 0; i < 10; i++) await bystanderOnce(teacher, i); // warm-up
  console.log(`First start (demo seeding included): ${fmt(firstStart)}\n`);
  console.log(
    "| load (sent by another user) | bystander requests | p50 | p95 | max | failed | RSS max MB | RSS after MB | data dir MB | load outcome |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
  const idle = await phase("idle", server, teacher, null, Number(opts.idle));

  if (runs.has("bomb")) {
    const bomb = makePdfBomb(Number(opts.bombPages), Number(opts.bombLines));
    await phase(
      `PDF bomb (${opts.bombPages} pages, ${Math.round(bomb.byteLength / 1024)} KB)`,
      server,
      teacher,
      async () => waitIngested(admin, await uploadFile(admin, "bomb.pdf", bomb, "application/pdf")),
    );
  }

  if (runs.has("flood")) {
    // The largest offline request: 60 slots over 60 passages of the demo chapter.
    const top = (await (
      await fetch(`${base}/api/retrieval/query`, {
        method: "POST",
        headers: { ...admin, "content-type": "application/json" },
        body: JSON.stringify({ filters: FILTERS, query: "cell structure organelles", topK: 50 }),
      })
    ).json()) as { items: { documentId: string; chunkIndex: number }[] };
    const docId = top.items[0]!.documentId;
    const context = Array.from({ length: 60 }, (_, i) => ({ documentId: docId, chunkIndex: i + 1 }));
    const generate = async () => {
      const res = await fetch(`${base}/api/generation`, {
        method: "POST",
        headers: { ...admin, "content-type": "application/json" },
        body: JSON.stringify({
          filters: FILTERS,
          context,
          blueprint: {
            items: [
              { type: "mcq", count: 30 },
              { type: "short", count: 20 },
              { type: "long", count: 10 },
            ],
          },
        }),
      });
      await res.arrayBuffer();
      return res.status;
    };
    await phase("generation flood (4 × 60-question sets at a time)", server, teacher, async () => {
      const statuses: number[] = [];
      const t0 = performance.now();
      while (performance.now() - t0 < PHASE_MS)
        statuses.push(...(await Promise.all([1, 2, 3, 4].map(generate))));
      const by: Record<number, number> = {};
      for (const s of statuses) by[s] = (by[s] ?? 0) + 1;
      return `statuses ${JSON.stringify(by)}`;
    });
  }

  if (runs.has("uploads")) {
    const rssBefore = rssMb(server);
    await phase("8 parallel 200 MB chunked uploads", server, teacher, async () => {
      const statuses = await Promise.all(Array.from({ length: 8 }, () => chunkedUpload(admin, 200)));
      return `statuses ${statuses.join(",")}; RSS before ${rssBefore} MB`;
    });
  }

  if (runs.has("markdown")) {
    const mdBytes = Number(opts.mdMb) * 1024 * 1024;
    const para =
      "The cell membrane is a phospholipid bilayer that controls what enters and leaves the cell. ";
    let md = "";
    for (let s = 0; md.length < mdBytes; s++) md += `\n\n## Section ${s}\n\n${para.repeat(40)}`;
    const pgDir = path.join(dataDir, "pglite");
    const dataBefore = dirMb(dataDir);
    const walBefore = dirMb(path.join(pgDir, "pg_wal"));
    await phase(`${opts.mdMb} MB Markdown upload`, server, teacher, async () => {
      const id = await uploadFile(admin, "big.md", new TextEncoder().encode(md), "text/markdown");
      const outcome = await waitIngested(admin, id);
      await new Promise((r) => setTimeout(r, 12_000)); // let the WAL check run
      return `${outcome}; data dir +${(dirMb(dataDir) - dataBefore).toFixed(0)} MB (${(
        (dirMb(dataDir) - dataBefore) / Number(opts.mdMb)
      ).toFixed(1)} MB per MB uploaded), pg_wal ${walBefore} → ${dirMb(path.join(pgDir, "pg_wal"))} MB`;
    });
  }

  if (runs.has("restart")) {
    await stopServer(server, "SIGKILL");
    const t1 = performance.now();
    server = await startServer();
    console.log(`\nRestart after kill -9: answered /api/health after ${fmt(performance.now() - t1)}\n`);
  }

  if (runs.has("export")) {
    const items = Math.min(1000, Number(opts.exportItems));
    const t1 = performance.now();
    const paperId = await buildBigPaper(admin, items);
    const built = performance.now() - t1;
    const tokenRes = await fetch(`${base}/api/tokens`, {
      method: "POST",
      headers: { ...admin, "content-type": "application/json" },
      body: JSON.stringify({ name: "Big export", scopes: ["papers:read"] }),
    });
    const reader = { authorization: `Bearer ${((await tokenRes.json()) as { token: string }).token}` };
    await phase(`big export (${items}-question paper, PDF, 3 loops)`, server, teacher, async () => {
      const statuses: Record<number, number> = {};
      const took: number[] = [];
      let bytes = 0;
      const loop = async () => {
        const t0 = performance.now();
        while (performance.now() - t0 < PHASE_MS) {
          const s0 = performance.now();
          const res = await fetch(`${base}/api/papers/${paperId}/export?format=pdf`, { headers: reader });
          const body = await res.arrayBuffer();
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          if (res.ok) {
            took.push(performance.now() - s0);
            bytes = body.byteLength;
          } else await new Promise((r) => setTimeout(r, 1000)); // 429: come back a little later
        }
      };
      await Promise.all([loop(), loop(), loop()]);
      return `built in ${fmt(built)}; statuses ${JSON.stringify(statuses)}; export p50 ${fmt(pct(took, 0.5))}, ${Math.round(bytes / 1024)} KB`;
    });
  }
  await stopServer(server);
  server = null;

  if (runs.has("provider")) {
    standIn = await startOpenAIStandIn("hang");
    server = await startServer({
      PAPERWISE_LLM: "openai",
      OPENAI_API_KEY: "stand-in",
      OPENAI_BASE_URL: standIn.baseURL,
    });
    const t2 = await login("teacher@paperwise.local", "paperwise-teacher");
    // The requests that open the breakers (each waits its timeouts once).
    let opening = 0;
    for (let i = 0; i < 8; i++) opening = Math.max(opening, (await bystanderOnce(t2, i)).ms);
    const open = await phase("hanging provider, breakers open", server, t2, null, Number(opts.idle));
    console.log(
      `\nHanging provider: slowest retrieval while the breakers opened ${fmt(opening)}; once open p95 ${fmt(
        pct(open.times, 0.95),
      )} vs offline idle p95 ${fmt(pct(idle.times, 0.95))} (${(pct(open.times, 0.95) - pct(idle.times, 0.95)).toFixed(0)} ms)`,
    );
  }
  const idleP95 = pct(idle.times, 0.95);
  console.log(`\nTarget: bystander p95 ≤ 3 × idle p95 (${fmt(3 * idleP95)}), no failures:`);
  for (const p of phases.slice(1))
    console.log(
      `- ${p.label}: p95 ${fmt(pct(p.times, 0.95))} = ${(pct(p.times, 0.95) / idleP95).toFixed(1)}× idle, ${p.failures} failed`,
    );
  console.log(
    `\nnode ${process.version}, ${os.cpus().length} CPUs, ${os.loadavg()[0]!.toFixed(1)} load (1 min)`,
  );
} finally {
  if (server) await stopServer(server);
  await standIn?.close();
  rmSync(dataDir, { recursive: true, force: true });
}
