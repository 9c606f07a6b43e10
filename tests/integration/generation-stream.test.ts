import { randomUUID } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { POST as generate } from "@/app/api/generation/route";
import { POST as stopGeneration } from "@/app/api/generation/stop/route";
import { getEmbedder } from "@/lib/ai/embedder";
import { setLanguageModelForProcess } from "@/lib/ai/providers";
import { ingestFiles } from "@/lib/ingestion/ingest-files";
import { getStorage } from "@/lib/storage";
import type { IQuestionDraft, TQuestion, TQuestionPartData } from "@/types/generation.types";
import {
  type IStreamingCall,
  type IStreamingOptions,
  streamingModel,
  stromaMcqReply,
} from "../support/mock-models";
import { createTestEnv, type ITestEnv, makeRequest } from "../support/test-env";

/**
 * The language model's questions streamed into their cards through the real route handler, with
 * `ai/test` models that stream at a set pace, stall, break their JSON, or write what the quality
 * gate refuses. Whatever the model does, a card moves generating → draft… → final | failed, a
 * draft is always replaced, and nothing reaches "final" that the gate did not pass.
 */
const FILTERS = { board: "OpenStax", grade: "11", subject: "Biology" };
let env: ITestEnv;
let notes: { documentId: string; chunkIndex: number };

beforeAll(async () => {
  env = await createTestEnv();
  const dir = await mkdtemp(path.join(env.dataDir, "notes-"));
  const file = path.join(dir, "chloroplast-notes.md");
  await writeFile(
    file,
    [
      "# Chloroplast notes",
      "",
      "Photosynthesis is the process by which plants use light energy to make sugar from carbon dioxide and water.",
      "Photosynthesis takes place in the chloroplasts of the leaf cells of green plants.",
      "The stroma is the fluid-filled space of the chloroplast that surrounds the thylakoid membranes.",
      "A photosystem is a group of pigments and proteins that captures light energy in the thylakoid membrane.",
      "Stomata are small pores in the leaf surface that let carbon dioxide enter the leaf.",
      "Carbon fixation is the conversion of inorganic carbon dioxide into organic molecules in the Calvin cycle.",
    ].join("\n"),
  );
  const [doc] = await ingestFiles(env.db, getStorage(), getEmbedder(), {
    userId: env.teacher.id,
    inputs: [file],
    defaults: { ...FILTERS, resourceType: "notes", visibility: "private" },
    maxBytes: 1024 * 1024,
  });
  notes = { documentId: doc!.ingestion!.document_id!, chunkIndex: 0 };
});
afterEach(() => setLanguageModelForProcess(undefined));
afterAll(async () => {
  setLanguageModelForProcess(undefined);
  await env.close();
});

/** An MCQ the gate accepts from the notes (the same draft the gate tests keep), with changes. */
const stroma = stromaMcqReply;
const LEANS = "According to the passage, which part of the chloroplast is fluid-filled?";

interface IPart {
  type: string;
  id?: string;
  data?: Record<string, unknown>;
  at: number;
}

/** Reads the UI message stream part by part as it arrives; `onPart` may stop reading early. */
async function readParts(res: Response, onPart?: (p: IPart) => boolean | undefined): Promise<IPart[]> {
  const started = performance.now();
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const parts: IPart[] = [];
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.startsWith("data: ") || line.includes("[DONE]")) continue;
      const part = { ...(JSON.parse(line.slice(6)) as Omit<IPart, "at">), at: performance.now() - started };
      parts.push(part);
      if (onPart?.(part)) {
        await reader.cancel();
        return parts;
      }
    }
  }
  return parts;
}

function post(json: unknown, signal?: AbortSignal) {
  return generate(makeRequest("POST", "/api/generation", { token: env.teacher.token, json, signal }), {});
}

/** The teacher's Stop button: POST /api/generation/stop with the run's id. */
async function stopRun(runId: unknown, token = env.teacher.token) {
  const res = await stopGeneration(
    makeRequest("POST", "/api/generation/stop", { token, json: { runId } }),
    {},
  );
  return { status: res.status, body: await res.json() };
}

const setCount = async () =>
  ((await env.db.query<{ n: number }>("select count(*)::int as n from question_sets")) as [{ n: number }])[0]
    .n;

const oneMcq = (count = 1) => ({
  filters: FILTERS,
  context: [notes],
  blueprint: { items: [{ type: "mcq", count, bloomLevel: "Remember" }] },
});

const slotParts = (parts: IPart[], id: string) =>
  parts
    .filter((p) => p.type === "data-question" && p.id === id)
    .map((p) => p.data as unknown as TQuestionPartData);
const questionIds = (parts: IPart[]) => [
  ...new Set(parts.filter((p) => p.type === "data-question").map((p) => p.id!)),
];
const finals = (parts: IPart[]) =>
  parts.flatMap((p) => {
    const d = p.data as unknown as TQuestionPartData | undefined;
    return p.type === "data-question" && d?.status === "final" ? [d.question] : [];
  });

/** A card's updates are generating → (draft | generating)* → final | failed, and nothing after that. */
function expectLifecycle(updates: TQuestionPartData[]) {
  expect(updates[0]!.status).toBe("generating");
  const last = updates.at(-1)!;
  expect(["final", "failed"]).toContain(last.status);
  for (const u of updates.slice(1, -1)) expect(["draft", "generating"]).toContain(u.status);
}

function use(model: ReturnType<typeof streamingModel>, timeoutMs = 2_000) {
  setLanguageModelForProcess(model, timeoutMs);
  return model;
}

describe("a language model's question, streamed", () => {
  it("normal: the stem grows and options appear complete in the card, then the accepted question replaces the draft", async () => {
    use(streamingModel(stroma(), { tokenChars: 4, tokenMs: 1 }));
    const parts = await readParts(await post(oneMcq()));
    const [id] = questionIds(parts);
    const updates = slotParts(parts, id!);
    expectLifecycle(updates);
    const drafts = updates.flatMap((u) => (u.status === "draft" ? [u.draft] : []));
    expect(drafts.length).toBeGreaterThan(3);
    const final = updates.at(-1) as Extract<TQuestionPartData, { status: "final" }>;
    expect(final.question.source).toBe("llm");
    for (let i = 1; i < drafts.length; i++)
      expect(drafts[i]!.promptText.startsWith(drafts[i - 1]!.promptText)).toBe(true);
    const q = final.question as Extract<TQuestion, { type: "mcq" }>;
    for (const d of drafts) expect(d.options ?? []).toEqual(q.options.slice(0, d.options?.length ?? 0));
    // The first words reach the card as the stem, before anything else (the order of the
    // other pieces is checked draft by draft in tests/unit/generation-stream.test.ts).
    expect(drafts[0]!.writing).toBe("stem");
    expect(parts.find((p) => p.type === "data-set")?.data).toMatchObject({ generated: 1, requested: 1 });
    expect(parts.filter((p) => p.type === "data-error")).toEqual([]);
  });

  it("slow (400 ms to the first token, 50 tokens/s): the draft is on screen long before the question is final", async () => {
    use(streamingModel(stroma(), { firstTokenMs: 400, tokenMs: 20, tokenChars: 6 }));
    const parts = await readParts(await post(oneMcq()));
    const firstDraft = parts.find((p) => p.type === "data-question" && p.data?.status === "draft")!;
    const final = parts.find((p) => p.type === "data-question" && p.data?.status === "final")!;
    expect(firstDraft).toBeDefined();
    expect((final.data as unknown as { question: TQuestion }).question.source).toBe("llm");
    // About 75 tokens at 20 ms each were still to come when the first words were shown.
    expect(final.at - firstDraft.at).toBeGreaterThan(700);
    expect(parts.filter((p) => p.type === "data-error")).toEqual([]);
  });

  it("stalling mid-question: the draft is replaced, the rest of the set goes offline, the call is stopped", async () => {
    const model = use(streamingModel(stroma(), { tokenMs: 1, stallAfter: 30 }), 300);
    const started = performance.now();
    const parts = await readParts(await post(oneMcq(2)));
    expect(performance.now() - started).toBeLessThan(10_000);
    for (const id of questionIds(parts)) {
      const updates = slotParts(parts, id);
      expectLifecycle(updates);
      const last = updates.at(-1)!;
      if (last.status === "final") expect(last.question.source).toBe("offline");
    }
    expect(finals(parts).some((q) => q.source === "llm")).toBe(false);
    // Each offline question says why the model did not write it.
    for (const q of finals(parts))
      expect((q.validation as { offlineReason?: string }).offlineReason).toBe(
        "Written offline because the model provider was not responding.",
      );
    expect(parts.some((p) => p.type === "data-question" && p.data?.status === "draft")).toBe(true);
    // One structured notice for the set, not a crash or a raw error.
    const errors = parts.filter((p) => p.type === "data-error").map((p) => p.data as Record<string, string>);
    expect(errors.filter((e) => e.code === "llm_unavailable")).toEqual([
      { code: "llm_unavailable", message: expect.stringMatching(/not responding/) as unknown as string },
    ]);
    // The rest are slots the offline generator could not fill from these short notes, each with its reason.
    for (const e of errors.filter((e) => e.code !== "llm_unavailable"))
      expect(e).toMatchObject({
        code: "slot_empty",
        slotId: expect.any(String),
        message: expect.any(String),
      });
    expect(model.calls.length).toBeGreaterThan(0);
    for (const call of model.calls) expect(call.signal?.aborted).toBe(true);
  });

  it("malformed JSON mid-stream: a structured error for the slot and an offline question in place of the draft", async () => {
    const broken = `{"promptText":"Which part of the chloroplast is fluid-filled?","options":["stroma","stomata","photosystem",}}} oops`;
    use(streamingModel(() => broken, { tokenMs: 10 }));
    const parts = await readParts(await post(oneMcq()));
    const [id] = questionIds(parts);
    const updates = slotParts(parts, id!);
    expectLifecycle(updates);
    const drafts = updates.flatMap((u) => (u.status === "draft" ? [u.draft] : []));
    expect(drafts.length).toBeGreaterThan(0);
    // What was shown was only ever complete options, never the broken tail.
    for (const d of drafts)
      for (const o of d.options ?? []) expect(["stroma", "stomata", "photosystem"]).toContain(o);
    const afterDraft = updates.findLast((u) => u.status === "generating")!;
    expect(afterDraft).toMatchObject({ note: expect.stringMatching(/did not finish/) });
    expect(finals(parts).every((q) => q.source === "offline")).toBe(true);
    for (const q of finals(parts))
      expect((q.validation as { offlineReason?: string }).offlineReason).toBe(
        "Written offline because the model failed on this question.",
      );
    const error = parts.find((p) => p.type === "data-error")!.data!;
    expect(error).toMatchObject({ code: "llm_failed", slotId: id });
    expect(error.message).toMatch(/offline generator/);
    expect(JSON.stringify(error)).not.toMatch(/\bat [\w.<>]+ \(|node_modules/);
  });

  it("refused by the gate: each draft is replaced by its rewrite, then by the offline question or the slot's reason", async () => {
    // The key is not in the passages: a refusal reason.
    const model = use(
      streamingModel(stroma({ options: ["cytoplasm", "stomata", "photosystem", "carbon fixation"] }), {
        tokenMs: 1,
      }),
    );
    const parts = await readParts(await post(oneMcq()));
    const [id] = questionIds(parts);
    const updates = slotParts(parts, id!);
    expectLifecycle(updates);
    const attempts = updates.flatMap((u) => (u.status === "draft" ? [u.draft.attempt] : []));
    expect(new Set(attempts)).toEqual(new Set([1, 2]));
    // Between the two drafts, and after the second, the card says why; the drafts never linger.
    const notes = updates.flatMap((u) => (u.status === "generating" && u.note ? [u.note] : []));
    expect(notes).toEqual([
      expect.stringMatching(/quality gate refused the draft \(.*answer not in passage.*\); rewriting it/),
      expect.stringMatching(/refused the rewrite too/),
    ]);
    expect(updates.findIndex((u) => u.status === "draft" && u.draft.attempt === 2)).toBeGreaterThan(
      updates.findIndex((u) => u.status === "generating" && !!u.note),
    );
    expect(model.calls).toHaveLength(2);
    expect(model.calls[1]!.prompt).toMatch(/reviewer found these problems/);
    for (const q of finals(parts)) {
      expect(q.source).toBe("offline");
      expect(q.promptText).not.toMatch(/cytoplasm/i);
      expect((q.validation as { offlineReason?: string }).offlineReason).toMatch(
        /^Written offline because the model's draft was refused by the quality gate \(The key is not supported/,
      );
    }
  });

  it("warned by the gate: one rewrite, and the better draft stays on the card with its warnings", async () => {
    const model = use(streamingModel(stroma({ promptText: LEANS }), { tokenMs: 1 }));
    const parts = await readParts(await post(oneMcq()));
    const [id] = questionIds(parts);
    const updates = slotParts(parts, id!);
    expectLifecycle(updates);
    const notes = updates.flatMap((u) => (u.status === "generating" && u.note ? [u.note] : []));
    expect(notes).toEqual([expect.stringMatching(/noted .*vague stem.*; trying one rewrite/)]);
    expect(model.calls).toHaveLength(2);
    const [q] = finals(parts);
    expect(q!.source).toBe("llm");
    expect(q!.promptText).toBe(LEANS);
    const validation = q!.validation as { flags: string[]; regenerated: boolean };
    expect(validation.regenerated).toBe(false);
    expect(validation.flags.some((f) => f.startsWith("vague_stem:"))).toBe(true);
  });
});

describe("slots in parallel", () => {
  /** The most model streams open at one moment. */
  const peak = (calls: IStreamingCall[]) =>
    Math.max(
      ...calls.map(
        (c) =>
          calls.filter((o) => o.startedAt <= c.startedAt && (o.endedAt ?? Infinity) > c.startedAt).length,
      ),
    );

  it("writes six at once (the default), keeps the cards in slot order, and never accepts the same fact twice", async () => {
    // Every call writes the same question: the first accepted wins, the others are duplicates.
    const model = use(streamingModel(stroma(), { tokenMs: 2, tokenChars: 8 } satisfies IStreamingOptions));
    const parts = await readParts(await post(oneMcq(8)));
    const ids = questionIds(parts);
    expect(ids).toHaveLength(8);
    // Every card is announced, in slot order, before any of them is written.
    expect(
      parts
        .filter((p) => p.type === "data-question")
        .slice(0, 8)
        .map((p) => p.data?.status),
    ).toEqual(Array(8).fill("generating"));
    expect(peak(model.calls)).toBe(6);
    for (const id of ids) expectLifecycle(slotParts(parts, id));
    const accepted = finals(parts);
    expect(accepted.filter((q) => q.source === "llm")).toHaveLength(1);
    expect(new Set(accepted.map((q) => q.promptText)).size).toBe(accepted.length);
    const refusals = parts.flatMap((p) =>
      p.type === "data-question" && p.data?.status === "generating" && typeof p.data.note === "string"
        ? [p.data.note]
        : [],
    );
    expect(refusals.some((n) => /duplicate fact/.test(n))).toBe(true);
    // The saved set keeps slot order, whatever order the slots finished in.
    const set = parts.find((p) => p.type === "data-set")!.data as { setId: string };
    const saved = await env.db.query<{ id: string }>(
      "select id from questions where set_id = $1 order by position",
      [set.setId],
    );
    const finalIds = ids.filter((id) => slotParts(parts, id).at(-1)!.status === "final");
    expect(saved.map((r) => r.id)).toEqual(finalIds);
  });
});

describe("cancelling a generation", () => {
  it("stops the model calls on the server and saves nothing", async () => {
    const model = use(streamingModel(stroma(), { firstTokenMs: 50, tokenMs: 30 }), 5_000);
    const [{ n: before }] = (await env.db.query<{ n: number }>(
      "select count(*)::int as n from question_sets",
    )) as [{ n: number }];
    const client = new AbortController();
    let draft: IQuestionDraft | undefined;
    const parts = await readParts(await post(oneMcq(3), client.signal), (p) => {
      if (p.type !== "data-question" || p.data?.status !== "draft") return false;
      draft = p.data.draft as IQuestionDraft;
      client.abort();
      return true;
    });
    expect(draft?.promptText.length).toBeGreaterThan(0);
    expect(parts.some((p) => p.type === "data-question" && p.data?.status === "final")).toBe(false);
    const calls = model.calls.length;
    expect(calls).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 300));
    for (const call of model.calls) expect(call.signal?.aborted).toBe(true);
    // No further slot was started, and no half set was saved.
    expect(model.calls).toHaveLength(calls);
    const [{ n: after }] = (await env.db.query<{ n: number }>(
      "select count(*)::int as n from question_sets",
    )) as [{ n: number }];
    expect(after).toBe(before);
  });
});

describe("a reload during generation is not a Stop (a request with a runId)", () => {
  it("a dropped connection lets the set finish and saves it, with the model calls left running", async () => {
    const model = use(streamingModel(stroma(), { firstTokenMs: 50, tokenMs: 5 }), 5_000);
    const before = await setCount();
    const runId = randomUUID();
    const client = new AbortController();
    // The reader goes away at the first draft, as a reload does; the read returns once the
    // server has finished the set it kept going.
    const parts = await readParts(await post({ ...oneMcq(), runId }, client.signal), (p) => {
      if (p.type !== "data-question" || p.data?.status !== "draft") return false;
      client.abort();
      return true;
    });
    expect(parts.some((p) => p.type === "data-set")).toBe(false);
    expect(model.calls.length).toBeGreaterThan(0);
    expect(model.calls.every((c) => c.signal?.aborted !== true)).toBe(true);
    expect(await setCount()).toBe(before + 1);
    const [saved] = await env.db.query<{ request: Record<string, unknown>; n: number }>(
      `select s.request, (select count(*)::int from questions q where q.set_id = s.id) as n
       from question_sets s where s.user_id = $1 order by s.created_at desc limit 1`,
      [env.teacher.id],
    );
    expect(saved?.n).toBe(1);
    // The run id is the client's handle, not part of what the set was made from.
    expect(saved?.request.runId).toBeUndefined();
    // The run is over: a late Stop finds nothing to stop.
    expect((await stopRun(runId)).body).toEqual({ ok: true, stopped: false });
  });

  it("Stop (the stop endpoint, then the fetch aborted) stops the model calls and saves nothing", async () => {
    const model = use(streamingModel(stroma(), { firstTokenMs: 50, tokenMs: 30 }), 5_000);
    const before = await setCount();
    const runId = randomUUID();
    const client = new AbortController();
    let stopped: Promise<unknown> | undefined;
    // Stop pressed at the first draft: the client tells the server, then aborts its fetch.
    const parts = await readParts(await post({ ...oneMcq(3), runId }, client.signal), (p) => {
      if (p.type !== "data-question" || p.data?.status !== "draft") return false;
      stopped = stopRun(runId);
      client.abort();
      return true;
    });
    expect(await stopped).toEqual({ status: 200, body: { ok: true, stopped: true } });
    expect(parts.some((p) => p.type === "data-set")).toBe(false);
    const calls = model.calls.length;
    await new Promise((r) => setTimeout(r, 300));
    for (const call of model.calls) expect(call.signal?.aborted).toBe(true);
    expect(model.calls).toHaveLength(calls);
    expect(await setCount()).toBe(before);
  });

  it("a Stop that arrives before its run starts still stops it; another user's Stop stops nothing", async () => {
    use(streamingModel(stroma(), { tokenChars: 8, tokenMs: 1 }), 5_000);
    const before = await setCount();
    const early = randomUUID();
    expect((await stopRun(early)).body).toEqual({ ok: true, stopped: false });
    const stoppedParts = await readParts(await post({ ...oneMcq(), runId: early }));
    expect(stoppedParts.some((p) => p.type === "data-set")).toBe(false);
    expect(await setCount()).toBe(before);

    const mine = randomUUID();
    expect((await stopRun(mine, env.otherTeacher.token)).body).toEqual({ ok: true, stopped: false });
    const parts = await readParts(await post({ ...oneMcq(), runId: mine }));
    expect(parts.some((p) => p.type === "data-set")).toBe(true);
    expect(await setCount()).toBe(before + 1);
  });

  it("a run finishing after its reader left still holds one of the user's generation slots", async () => {
    use(streamingModel(stroma(), { firstTokenMs: 50, tokenMs: 20 }), 5_000);
    const first = await post({ ...oneMcq(), runId: randomUUID() });
    expect(first.status).toBe(200);
    const reader = first.body!.getReader();
    await reader.read();
    // The reload: the reader goes away; the run goes on (the cancel settles when it is saved).
    const gone = reader.cancel();
    const second = await post({ ...oneMcq(), runId: randomUUID() });
    expect(second.status).toBe(200);
    // Two running (the default cap): a third is refused until one has finished.
    const third = await post({ ...oneMcq(), runId: randomUUID() });
    expect(third.status).toBe(429);
    await readParts(second);
    await gone;
    const fourth = await post(oneMcq());
    expect(fourth.status).toBe(200);
    expect((await readParts(fourth)).some((p) => p.type === "data-set")).toBe(true);
  });

  it("refuses a run id that is not a UUID, naming the field", async () => {
    const res = await stopRun("not-a-run");
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain("runId");
    const gen = await post({ ...oneMcq(), runId: 42 });
    expect(gen.status).toBe(400);
  });
});
