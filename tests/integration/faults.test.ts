import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createOpenAI } from "@ai-sdk/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as generate } from "@/app/api/generation/route";
import { POST as enhance } from "@/app/api/retrieval/enhance-query/route";
import { POST as query } from "@/app/api/retrieval/query/route";
import { getEmbedder } from "@/lib/ai/embedder";
import { setLanguageModelForProcess } from "@/lib/ai/providers";
import { ingestDemoChapter } from "../support/demo-data";
import { createTestDatabase, open, unreachableDatabase } from "../support/test-db";
import { createTestEnv, type ITestEnv, makeRequest } from "../support/test-env";
import { readGenerationStream } from "../support/ui-stream";

/**
 * A local OpenAI-compatible server that misbehaves on cue, reached through the real
 * @ai-sdk/openai client: every LLM step must fall back and say so.
 */
type TMode = "500" | "429" | "malformed" | "truncated" | "slow" | "stream-cut";
let mode: TMode = "500";
let server: Server;
let baseURL = "";

function chatCompletion(content: string) {
  return JSON.stringify({
    id: "x",
    object: "chat.completion",
    created: 0,
    model: "gpt-4o-mini",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
}

const FILTERS = { board: "OpenStax", grade: "11", subject: "Biology" };
let env: ITestEnv;
let refs: { documentId: string; chunkIndex: number }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (mode === "500") {
        res.writeHead(500, { "content-type": "application/json" }).end('{"error":{"message":"boom"}}');
      } else if (mode === "429") {
        res
          .writeHead(429, { "content-type": "application/json", "retry-after": "1" })
          .end('{"error":{"message":"slow down"}}');
      } else if (mode === "malformed") {
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(chatCompletion("{ this is : not json"));
      } else if (mode === "truncated") {
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(chatCompletion('{"scores":[{"id":0,"sco').slice(0, 120));
      } else if (mode === "stream-cut") {
        res.writeHead(200, { "content-type": "application/json" });
        res.write(chatCompletion('{"enhancedQuery":"x"').slice(0, 60));
        res.destroy();
      } else {
        setTimeout(
          () => res.writeHead(200, { "content-type": "application/json" }).end(chatCompletion("{}")),
          5000,
        );
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  env = await createTestEnv();
  const documentId = await ingestDemoChapter(env, "ch08-photosynthesis.md", 8, "Photosynthesis");
  // Enough passages for two offline MCQs: v3 leaves a slot empty rather than write a cloze.
  refs = Array.from({ length: 16 }, (_, i) => ({ documentId, chunkIndex: i + 2 }));
  setLanguageModelForProcess(createOpenAI({ baseURL, apiKey: "test" }).chat("gpt-4o-mini"), 400);
});
afterAll(async () => {
  setLanguageModelForProcess(undefined);
  server.close();
  await env.close();
});

describe("misbehaving LLM provider (real @ai-sdk/openai client)", () => {
  for (const m of ["500", "429", "malformed", "truncated", "slow", "stream-cut"] as TMode[]) {
    it(`falls back on every step when the provider answers ${m}`, async () => {
      mode = m;
      const started = Date.now();
      const q = await query(
        makeRequest("POST", "/api/retrieval/query", {
          token: env.teacher.token,
          json: { filters: FILTERS, query: "light reactions" },
        }),
        {},
      );
      expect(q.status).toBe(200);
      const qb = await q.json();
      // The planner's model call shares the 400 ms budget; on a loaded machine it can spend all
      // of it and the offline reranker orders the results instead of the fused fallback.
      expect(["fused-fallback", "offline"]).toContain(qb.debug.reranker);
      expect(qb.items).toHaveLength(8);
      expect(qb.warnings.join(" ")).toMatch(
        qb.debug.reranker === "offline" ? /budget was spent on planning/ : /fused order/,
      );

      const e = await enhance(
        makeRequest("POST", "/api/retrieval/enhance-query", {
          token: env.teacher.token,
          json: { filters: FILTERS, rawQuery: "chlorophyll" },
        }),
        {},
      );
      const eb = await e.json();
      expect(eb.debug.source).toBe("offline");
      expect(eb.debug.fallbackReason).toBeTruthy();

      const g = await generate(
        makeRequest("POST", "/api/generation", {
          token: env.teacher.token,
          json: { filters: FILTERS, context: refs, blueprint: { items: [{ type: "mcq", count: 2 }] } },
        }),
        {},
      );
      expect(g.status).toBe(200);
      const { chunks } = await readGenerationStream(g);
      const parts = chunks as { type: string; data?: { status?: string; question?: { source: string } } }[];
      expect(parts.filter((p) => p.type === "data-error").length).toBeGreaterThan(0);
      const finals = parts.filter((p) => p.type === "data-question" && p.data?.status === "final");
      expect(finals).toHaveLength(2);
      expect(finals.every((p) => p.data?.question?.source === "offline")).toBe(true);
      expect(parts.some((p) => p.type === "data-set")).toBe(true);
      expect(Date.now() - started).toBeLessThan(20_000);
    });
  }
});

describe("process killed in the middle of ingesting a book", () => {
  let child: ChildProcess | null = null;
  afterAll(() => child?.kill("SIGKILL"));

  it("leaves no visible partial document; the ingestion goes back to the queue and a worker completes it", async () => {
    const { mkdtemp, rm } = await import("node:fs/promises");
    const os = await import("node:os");
    const { createAccount } = await import("@/lib/auth/accounts");
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "paperwise-kill-"));
    const target = await createTestDatabase({ dir: path.join(dataDir, "pglite") });
    await createAccount(target.db, { email: "admin@kill.local", password: "kill-admin-123", role: "admin" });
    await target.db.close();
    const book = path.resolve(import.meta.dirname, "../../supabase/seed/demo/biology-2e");
    // Ingest through the real CLI; kill -9 once the second file has a staged version.
    child = spawn(
      process.execPath,
      ["--import", "tsx", "--conditions=react-server", "scripts/ingest.ts", book],
      {
        cwd: path.resolve(import.meta.dirname, "../.."),
        env: {
          ...process.env,
          ...target.env,
          PAPERWISE_DATA_DIR: dataDir,
          PAPERWISE_SEED_DEMO: "false",
          PAPERWISE_LOG_LEVEL: "silent",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const killed = await new Promise<boolean>((resolve) => {
      let out = "";
      const onData = (d: Buffer) => {
        out += d.toString();
        if (/2\/3 \S+: embedding/.test(out)) {
          child!.kill("SIGKILL");
          resolve(true);
        }
      };
      child!.stdout!.on("data", onData);
      child!.stderr!.on("data", onData);
      child!.on("exit", () => resolve(false));
    });
    expect(killed).toBe(true);
    await new Promise((r) => setTimeout(r, 300));

    const { recoverInterruptedIngestions } = await import("@/lib/ingestion/store");
    const { IngestionWorker } = await import("@/lib/ingestion/worker");
    const { createLocalStorage } = await import("@/lib/storage/local");
    const db = await open(target.location);
    const counts = async () =>
      (
        await db.query<{ visible: number; unpublished: number; orphans: number; partial: number }>(
          `select
             (select count(*)::int from documents d join ingestions i on i.id = d.ingestion_id
               where i.status <> 'ready') as visible,
             (select count(*)::int from document_versions where state <> 'published') as unpublished,
             (select count(*)::int from document_chunks c left join document_versions v on v.id = c.document_id
               where v.id is null) as orphans,
             (select count(*)::int from documents d
               where d.chunk_count <> (select count(*) from document_chunks c where c.document_id = d.id)) as partial`,
        )
      )[0]!;
    try {
      // The killed attempt left a staged version behind, which no reader can see.
      expect(await counts()).toMatchObject({ visible: 0, orphans: 0, partial: 0 });
      expect((await counts()).unpublished).toBeGreaterThanOrEqual(1);
      // A shared Postgres (several instances) only requeues ingestions idle past the stale age.
      expect(await recoverInterruptedIngestions(db, { staleAfterMs: 60_000 })).toEqual({
        requeued: 0,
        failed: 0,
      });
      await db.query(
        "update ingestions set updated_at = now() - interval '2 minutes' where status <> 'ready'",
      );
      const recovered = await recoverInterruptedIngestions(db, { staleAfterMs: 60_000 });
      expect(recovered.requeued).toBeGreaterThanOrEqual(1);
      expect(recovered.failed).toBe(0);
      expect(await recoverInterruptedIngestions(db)).toEqual({ requeued: 0, failed: 0 });

      // Any worker (an app instance, `npm run worker`) takes it up again: the staged leftovers go
      // and the book completes.
      const worker = new IngestionWorker(async () => ({
        db,
        storage: createLocalStorage(path.join(dataDir, "storage")),
        embedder: getEmbedder(),
      }));
      worker.start();
      await worker.whenIdle();
      await worker.stop();
      expect(worker.processed).toBe(recovered.requeued);
      const rows = await db.query<{ status: string; attempts: number; chunks: number }>(
        `select i.status, i.attempts, d.chunk_count as chunks from ingestions i
         left join documents d on d.ingestion_id = i.id`,
      );
      expect(rows.every((r) => r.status === "ready" && r.chunks > 0)).toBe(true);
      expect(rows.some((r) => r.attempts === 2)).toBe(true);
      expect(await counts()).toEqual({ visible: 0, unpublished: 0, orphans: 0, partial: 0 });
    } finally {
      await db.close();
      await target.dispose();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("process killed in the middle of saving a paper", () => {
  let child: ChildProcess | null = null;
  afterAll(() => child?.kill("SIGKILL"));

  it("leaves the paper fully at one revision: never half old, half new", async () => {
    const { mkdtemp, rm } = await import("node:fs/promises");
    const os = await import("node:os");
    const { createAccount } = await import("@/lib/auth/accounts");
    const { createPaper, getPaper } = await import("@/lib/papers/store");
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "paperwise-paper-kill-"));
    const target = await createTestDatabase({ dir: path.join(dataDir, "pglite") });
    let db = target.db;
    const user = await createAccount(db, {
      email: "kill@paperwise.local",
      password: "kill-paper-123",
      role: "teacher",
    });
    const paper = await createPaper(db, user.id, {
      template: "board-80",
      title: "Paper rev 0",
      board: "CBSE",
      grade: "10",
      subject: "Science",
    });
    await db.close();

    child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--conditions=react-server",
        "tests/support/paper-saver.ts",
        target.location,
        user.id,
        paper.id,
      ],
      { cwd: path.resolve(import.meta.dirname, "../.."), stdio: ["ignore", "pipe", "pipe"] },
    );
    // Kill -9 a few milliseconds after the third save, i.e. inside the fourth one.
    const lastReported = await new Promise<number>((resolve) => {
      let out = "";
      let last = 0;
      const onData = (d: Buffer) => {
        out += d.toString();
        last = Math.max(0, ...[...out.matchAll(/saved (\d+)/g)].map((m) => Number(m[1])));
        if (last >= 3) {
          setTimeout(() => {
            child!.kill("SIGKILL");
            resolve(last);
          }, 5);
        }
      };
      child!.stdout!.on("data", onData);
      child!.stderr!.on("data", (d: Buffer) => {
        out += d.toString();
      });
      child!.on("exit", () => resolve(last));
    });
    expect(lastReported).toBeGreaterThanOrEqual(3);
    await new Promise((r) => setTimeout(r, 300));

    db = await open(target.location);
    try {
      const saved = await getPaper(db, user.id, paper.id);
      const rev = Number(/rev (\d+)/.exec(saved.title)?.[1]);
      expect(rev).toBeGreaterThanOrEqual(lastReported);
      expect(saved.version).toBe(rev + 1);
      expect(saved.instructions).toEqual([`Instructions rev ${rev}`]);
      const texts = saved.sections.flatMap((s) => s.items.map((i) => i.question.promptText));
      expect(texts).toHaveLength(40 * saved.sections.length);
      for (const t of texts) expect(t).toContain(`rev ${rev}:`);
    } finally {
      await db.close();
      await target.dispose();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("database unavailable", () => {
  it("answers 503 with a clear message and Retry-After, then recovers when the database is back", async () => {
    const { setDbForProcess } = await import("@/lib/db");
    setDbForProcess(await unreachableDatabase());
    try {
      const res = await query(
        makeRequest("POST", "/api/retrieval/query", {
          token: env.teacher.token,
          json: { filters: FILTERS, query: "light" },
        }),
        {},
      );
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("2");
      const body = await res.json();
      expect(body.error.message).toMatch(/database is busy or unavailable/);
      expect(JSON.stringify(body)).not.toMatch(/PGlite|ECONNREFUSED|stack|at /);
    } finally {
      setDbForProcess(env.db);
    }
    const ok = await query(
      makeRequest("POST", "/api/retrieval/query", {
        token: env.teacher.token,
        json: { filters: FILTERS, query: "light" },
      }),
      {},
    );
    expect(ok.status).toBe(200);
  });
});
