import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { POST as generate } from "@/app/api/generation/route";
import { getEmbedder } from "@/lib/ai/embedder";
import { setLanguageModelForProcess } from "@/lib/ai/providers";
import { type IGenerationResult, runGeneration } from "@/lib/generation/generate";
import { loadScope } from "@/lib/generation/store";
import { ingestFiles } from "@/lib/ingestion/ingest-files";
import { getStorage } from "@/lib/storage";
import { openPoolOffload } from "@/lib/workers/generation";
import { getShortLane, poolOptionsFromConfig, setPoolForProcess } from "@/lib/workers/pool";
import type { TGenerationRequest } from "@/schema/generation.schema";
import type { IContextChunk } from "@/types/generation.types";
import { bystanderRetrievalMs } from "../support/bystander";
import { streamingModel, unsupportedMcqReply as unsupported } from "../support/mock-models";
import { createTestEnv, type ITestEnv, makeRequest } from "../support/test-env";
import { readGenerationStream } from "../support/ui-stream";

/**
 * A model-written set's offline parts — the knowledge the offline generator builds, the gate's
 * reading of each draft, the offline fallback for slots whose drafts were refused — run in the
 * worker pool's short lane, not on the thread that serves requests (issue 26, point 1). The
 * result is the inline one; another teacher's retrieval stays fast while such a set is written
 * (a generous bound; `npm run bench:outage` and the in-process measure in docs/isolation.md hold
 * the figures).
 */
const FILTERS = { board: "OpenStax", grade: "11", subject: "Biology" };
let env: ITestEnv;
let docId = "";
let scope: IContextChunk[] = [];

beforeAll(async () => {
  env = await createTestEnv({ PAPERWISE_RATE_LIMIT_PER_MIN: "0" });
  const [book] = await ingestFiles(env.db, getStorage(), getEmbedder(), {
    userId: env.admin.id,
    inputs: [path.join(import.meta.dirname, "../../supabase/seed/demo/biology-2e/ch04-cell-structure.md")],
    defaults: { ...FILTERS, resourceType: "textbook", visibility: "shared", chapterNumber: 4 },
    maxBytes: 10 * 1024 * 1024,
  });
  docId = book!.ingestion!.document_id!;
  scope = await loadScope(env.db, env.admin.id, [docId]);
});
afterEach(() => setLanguageModelForProcess(undefined));
afterAll(async () => {
  setLanguageModelForProcess(undefined);
  await env?.close();
});

const request = (over: Partial<TGenerationRequest> = {}) =>
  ({
    filters: FILTERS,
    context: Array.from({ length: 12 }, (_, i) => ({ documentId: docId, chunkIndex: i + 1 })),
    blueprint: {
      items: [
        { type: "mcq", count: 2, bloomLevel: "Remember" },
        { type: "short", count: 2, bloomLevel: "Remember" },
        { type: "mcq", count: 2, bloomLevel: "Understand" },
      ],
    },
    ...over,
  }) as TGenerationRequest;

const ran = () => getShortLane().stats().ran;
const comparable = (r: IGenerationResult) => ({
  questions: r.questions,
  warnings: r.warnings,
  gaps: r.gaps,
  rejections: r.rejections,
  generator: r.generator,
  passages: r.passages.map((p) => `${p.documentId}:${p.chunkIndex}`),
});

const retrieveMs = () => bystanderRetrievalMs(env.otherTeacher.token, FILTERS);

describe("a model-written set's offline parts in the pool", () => {
  it("gates the drafts and writes the refused slots offline in the short lane, with the inline result", async () => {
    const chunks = scope.filter((c) => c.chunkIndex >= 1 && c.chunkIndex <= 12);
    for (const useSection of [false, true]) {
      const req = request({ useSection });
      const run = async (offload: boolean) => {
        const model = streamingModel(unsupported);
        const events = { question: () => undefined, progress: () => undefined, error: () => undefined };
        const result = await runGeneration(
          {
            model,
            timeoutMs: 5_000,
            scope,
            // One slot at a time: the inline and pooled runs then read the same set at each step.
            concurrency: 1,
            ...(offload ? { offload: openPoolOffload } : {}),
          },
          chunks,
          req,
          events,
          (i) => `q${i}`,
        );
        return { result, calls: model.calls.length };
      };
      const before = ran();
      const pooled = await run(true);
      const after = ran();
      const inline = await run(false);
      expect(after.runPrepare ?? 0).toBe((before.runPrepare ?? 0) + 1);
      // Two drafts per slot (the draft and its rewrite), each read in the lane.
      expect((after.runGate ?? 0) - (before.runGate ?? 0)).toBe(pooled.calls);
      expect((after.runFill ?? 0) - (before.runFill ?? 0)).toBeGreaterThanOrEqual(6);
      // Six slots, each drafted and rewritten once.
      expect(pooled.calls).toBe(12);
      expect(comparable(pooled.result)).toEqual(comparable(inline.result));
      // Every slot was refused from the model and filled (or left empty) by the offline road.
      expect(pooled.result.questions.length).toBeGreaterThan(0);
      for (const q of pooled.result.questions) expect(q.source).toBe("offline");
      // The four MCQ slots' drafts and rewrites name a key the passages lack; every draft is refused.
      expect(pooled.result.rejections.answer_not_in_passage ?? 0).toBeGreaterThanOrEqual(8);
      const refused = Object.values(pooled.result.rejections).reduce((n, k) => n + (k ?? 0), 0);
      expect(refused).toBeGreaterThanOrEqual(pooled.calls);
    }
  }, 240_000);

  it("a set whose provider is already down is planned on the dry run, in the lane as inline", async () => {
    const chunks = scope.filter((c) => c.chunkIndex >= 1 && c.chunkIndex <= 12);
    const req = request();
    const events = { question: () => undefined, progress: () => undefined, error: () => undefined };
    const plan = async (over: Partial<Parameters<typeof runGeneration>[0]>) =>
      (
        await runGeneration(
          { model: null, timeoutMs: 5_000, scope, ...over },
          chunks,
          req,
          events,
          (i) => `q${i}`,
        )
      ).slots.map((s) => `${s.type}/${s.bloomLevel}`);
    const offline = await plan({});
    const before = ran();
    const pooled = await plan({
      model: streamingModel(unsupported),
      providerDown: true,
      offload: openPoolOffload,
    });
    expect((ran().runPrepare ?? 0) - (before.runPrepare ?? 0)).toBe(1);
    // The lane ran the dry run (runPrepare with `dryRun`): the same plan as a set without a model.
    expect(pooled).toEqual(offline);
  }, 240_000);

  it("through the route: the lane did the work, and another teacher's retrieval stays fast meanwhile", async () => {
    // A new lane: the set pays its worker's start and its knowledge build (a cold set).
    await setPoolForProcess(poolOptionsFromConfig());
    const idle: number[] = [];
    for (let i = 0; i < 5; i++) idle.push(await retrieveMs());
    setLanguageModelForProcess(streamingModel(unsupported, { firstTokenMs: 50, tokenMs: 2 }), 5_000);
    const before = ran();
    const res = await generate(
      makeRequest("POST", "/api/generation", { token: env.teacher.token, json: request() }),
      {},
    );
    expect(res.status).toBe(200);
    let done = false;
    const stream = readGenerationStream(res).finally(() => {
      done = true;
    });
    const during: number[] = [];
    while (!done && during.length < 60) during.push(await retrieveMs());
    const { chunks } = await stream;
    const parts = chunks as { type: string; data?: { status?: string; question?: { source?: string } } }[];
    expect(parts.some((p) => p.type === "data-set")).toBe(true);
    const finals = parts.filter((p) => p.type === "data-question" && p.data?.status === "final");
    expect(finals.length).toBeGreaterThan(0);
    for (const f of finals) expect(f.data?.question?.source).toBe("offline");
    const after = ran();
    expect((after.runPrepare ?? 0) - (before.runPrepare ?? 0)).toBe(1);
    expect((after.runGate ?? 0) - (before.runGate ?? 0)).toBeGreaterThanOrEqual(5);
    expect((after.runFill ?? 0) - (before.runFill ?? 0)).toBeGreaterThanOrEqual(5);
    expect(during.length).toBeGreaterThan(0);
    // Generous for a shared CI machine (idle ≈ tens of ms).
    expect(Math.max(...during)).toBeLessThan(Math.max(1500, 10 * Math.max(...idle)));
  }, 240_000);

  it("when the pool cannot load, the same set is written inline", async () => {
    await setPoolForProcess({
      ...poolOptionsFromConfig(),
      entry: path.join(os.tmpdir(), "paperwise-no-such-entry.mjs"),
    });
    try {
      const chunks = scope.filter((c) => c.chunkIndex >= 1 && c.chunkIndex <= 12);
      const run = (offload: boolean) =>
        runGeneration(
          {
            model: streamingModel(unsupported),
            timeoutMs: 5_000,
            scope,
            concurrency: 1,
            ...(offload ? { offload: openPoolOffload } : {}),
          },
          chunks,
          request(),
          { question: () => undefined, progress: () => undefined, error: () => undefined },
          (i) => `q${i}`,
        );
      const viaLane = await run(true);
      expect(getShortLane().stats()).toMatchObject({ inline: true, ran: {} });
      expect(comparable(viaLane)).toEqual(comparable(await run(false)));
      expect(viaLane.questions.length).toBeGreaterThan(0);
    } finally {
      await setPoolForProcess(null);
    }
  }, 240_000);
});
