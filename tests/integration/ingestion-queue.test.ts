import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as retry } from "@/app/api/resources/[id]/retry/route";
import { POST as upload } from "@/app/api/resources/route";
import { getEmbedder } from "@/lib/ai/embedder";
import { createAccount } from "@/lib/auth/accounts";
import type { IDatabase } from "@/lib/db/types";
import { registerUpload } from "@/lib/ingestion/pipeline";
import { IngestionWorker } from "@/lib/ingestion/worker";
import { getStorage } from "@/lib/storage";
import { createLocalStorage } from "@/lib/storage/local";
import type { IEmbedder } from "@/types/chunk.types";
import { DEMO_DIR } from "../support/demo-data";
import { createTestDatabase, open } from "../support/test-db";
import { createTestEnv, type ITestEnv, makeRequest, params } from "../support/test-env";

/**
 * The ingestion queue is the `ingestions` table (lib/ingestion/worker.ts): uploads wait there as
 * `queued` rows, any number of workers claim them with `for update skip locked`, each is processed
 * exactly once, and they survive the process that received them.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const META = { board: "Queue", grade: "10", subject: "Biology", resourceType: "textbook" };

let env: ITestEnv;
beforeAll(async () => {
  // This process's worker stays off: the tests run the workers themselves.
  env = await createTestEnv({ PAPERWISE_INGEST_WORKER: "off" });
});
afterAll(async () => env.close());

const chapters = [
  "biology-2e/ch04-cell-structure.md",
  "biology-2e/ch05-structure-and-function-of-plasma-membranes.md",
  "biology-2e/ch08-photosynthesis.md",
];

/** Uploads `n` distinct Markdown files through the real route; with no worker they stay queued. */
async function queueUploads(n: number, tag: string): Promise<string[]> {
  const texts = await Promise.all(chapters.map((c) => readFile(path.join(DEMO_DIR, c), "utf8")));
  const form = new FormData();
  for (const [k, v] of Object.entries(META)) form.set(k, v);
  for (let i = 0; i < n; i++) {
    const text = `# ${tag} part ${i + 1}\n\n${texts[i % texts.length]!.slice(0, 12_000)}\n`;
    form.append("file", new Blob([text]), `${tag}-${i + 1}.md`);
  }
  const res = await upload(makeRequest("POST", "/api/resources", { token: env.admin.token, body: form }), {});
  expect(res.status).toBe(202);
  const body = (await res.json()) as { ingestions: { id: string; status: string }[] };
  expect(body.ingestions.map((i) => i.status)).toEqual(Array(n).fill("queued"));
  return body.ingestions.map((i) => i.id);
}

/** The offline embedder, slowed down so that every worker is busy when the others claim. */
function slowEmbedder(ms: number): IEmbedder {
  const offline = getEmbedder();
  return {
    ...offline,
    async embedDocuments(texts) {
      await new Promise((r) => setTimeout(r, ms));
      return offline.embedDocuments(texts);
    },
  };
}

async function states(db: IDatabase, ids: string[]) {
  return db.query<{ id: string; status: string; attempts: number; claimed_by: string; published: number }>(
    `select i.id, i.status, i.attempts, i.claimed_by,
            (select count(*)::int from document_versions v where v.ingestion_id = i.id and v.state = 'published')
              as published
     from ingestions i where i.id = any ($1::uuid[])`,
    [ids],
  );
}

function runWorkerCli(
  extraEnv: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "--conditions=react-server", "scripts/worker.ts", "--once"],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          PAPERWISE_SEED_DEMO: "false",
          PAPERWISE_LOG_LEVEL: "silent",
          PAPERWISE_EMBEDDER: "offline",
          PAPERWISE_LLM: "offline",
          ...extraEnv,
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const processedIds = (stdout: string) =>
  [...stdout.matchAll(/^ready .* \(([0-9a-f-]{36})\): \d+ chunks$/gm)].map((m) => m[1]!);

describe("the ingestion queue", () => {
  it("two workers on one database process each queued ingestion exactly once, and both take part", async () => {
    const ids = await queueUploads(10, "shared");
    // Two instances: on PostgreSQL each has its own connection pool; PGlite has one process.
    const second = env.kind === "postgres" ? await open(env.location) : env.db;
    const done: Record<string, string[]> = { a: [], b: [] };
    const make = (name: "a" | "b", db: IDatabase) =>
      new IngestionWorker(async () => ({ db, storage: getStorage(), embedder: slowEmbedder(40) }), {
        id: `worker-${name}`,
        concurrency: 2,
        onProcessed: (row) => done[name]!.push(row.id),
      });
    const a = make("a", env.db);
    const b = make("b", second);
    try {
      a.start();
      b.start();
      await Promise.all([a.whenIdle(), b.whenIdle()]);
      await Promise.all([a.stop(), b.stop()]);
    } finally {
      if (second !== env.db) await second.close();
    }
    expect([...done.a!, ...done.b!].sort()).toEqual([...ids].sort());
    expect(done.a!.filter((id) => done.b!.includes(id))).toEqual([]);
    expect(done.a!.length).toBeGreaterThan(0);
    expect(done.b!.length).toBeGreaterThan(0);
    const rows = await states(env.db, ids);
    expect(rows).toHaveLength(ids.length);
    for (const r of rows) {
      expect(r).toMatchObject({ status: "ready", attempts: 1, published: 1 });
      expect(r.claimed_by).toBe(done.a!.includes(r.id) ? "worker-a" : "worker-b");
    }
  });

  it("two `npm run worker` processes: on PostgreSQL they share the queue, each ingestion once; PGlite refuses a second process", async () => {
    if (env.kind === "pglite") {
      // PGlite is one process per data directory: a worker beside the process holding it is refused.
      const dataDir = await mkdtemp(path.join(os.tmpdir(), "paperwise-queue-held-"));
      const held = await createTestDatabase({ dir: path.join(dataDir, "pglite") });
      try {
        const run = await runWorkerCli({ ...held.env, PAPERWISE_DATA_DIR: dataDir });
        expect(run.code).toBe(1);
        expect(run.stderr).toMatch(
          new RegExp(`in use by process ${process.pid}.*let the server process uploads`),
        );
      } finally {
        await held.dispose();
        await rm(dataDir, { recursive: true, force: true });
      }
      return;
    }
    const ids = await queueUploads(12, "processes");
    const cliEnv = { DATABASE_URL: env.location, PAPERWISE_DATA_DIR: env.dataDir };
    const [p, q] = await Promise.all([runWorkerCli(cliEnv), runWorkerCli(cliEnv)]);
    expect(p.code, p.stderr).toBe(0);
    expect(q.code, q.stderr).toBe(0);
    const byP = processedIds(p.stdout);
    const byQ = processedIds(q.stdout);
    expect([...byP, ...byQ].sort()).toEqual([...ids].sort());
    expect(byP.filter((id) => byQ.includes(id))).toEqual([]);
    const rows = await states(env.db, ids);
    expect(rows.every((r) => r.status === "ready" && r.attempts === 1 && r.published === 1)).toBe(true);
  }, 120_000);

  it("a retried resource goes back to the queue and the next worker publishes it again", async () => {
    const [id] = await queueUploads(1, "retry");
    const worker = new IngestionWorker(async () => ({
      db: env.db,
      storage: getStorage(),
      embedder: getEmbedder(),
    }));
    worker.start();
    await worker.whenIdle();
    const res = await retry(
      makeRequest("POST", `/api/resources/${id}/retry`, { token: env.admin.token }),
      params({ id: id! }),
    );
    expect(res.status).toBe(202);
    expect(((await res.json()) as { ingestion: { status: string } }).ingestion.status).toBe("queued");
    worker.kick();
    await worker.whenIdle();
    await worker.stop();
    const [row] = await states(env.db, [id!]);
    expect(row).toMatchObject({ status: "ready", attempts: 1, published: 1 });
    const [versions] = await env.db.query<{ n: number }>(
      "select count(*)::int as n from document_versions where ingestion_id = $1",
      [id],
    );
    expect(versions!.n).toBe(1);
  });
});

describe("uploads survive the process that received them", () => {
  it("queued by one process, stopped; `npm run worker -- --once` started later processes them", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "paperwise-queue-"));
    const target = await createTestDatabase({ dir: path.join(dataDir, "pglite") });
    try {
      const admin = await createAccount(target.db, {
        email: "admin@queue.local",
        password: "queue-admin-123",
        role: "admin",
      });
      const storage = createLocalStorage(path.join(dataDir, "storage"));
      const ids: string[] = [];
      for (const chapter of chapters) {
        const { ingestion } = await registerUpload(target.db, storage, {
          userId: admin.id,
          filename: path.basename(chapter),
          bytes: new Uint8Array(await readFile(path.join(DEMO_DIR, chapter))),
          metadata: { ...META, resourceType: "textbook", visibility: "shared", splitChapters: false },
          maxBytes: 10 * 1024 * 1024,
        });
        ids.push(ingestion.id);
      }
      // The receiving process goes away with its uploads still queued.
      await target.db.close();
      const run = await runWorkerCli({ ...target.env, PAPERWISE_DATA_DIR: dataDir });
      expect(run.code, run.stderr).toBe(0);
      expect(processedIds(run.stdout).sort()).toEqual([...ids].sort());
      expect(run.stdout).toMatch(/3 ingestions processed, 0 failed/);
      const db = await open(target.location);
      try {
        const rows = await states(db, ids);
        expect(rows.every((r) => r.status === "ready" && r.attempts === 1 && r.published === 1)).toBe(true);
      } finally {
        await db.close();
      }
    } finally {
      await target.dispose();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
