import { afterEach, describe, expect, it, vi } from "vitest";
import { buildConfig } from "@/lib/config/env";
import { draftOf, streamLlmQuestion, throttleDrafts } from "@/lib/generation/llm/draft";
import { GenerationRequestSchema } from "@/schema/generation.schema";
import type { IContextChunk, IQuestionDraft, ISlot } from "@/types/generation.types";
import { streamingModel } from "../support/mock-models";

const CHUNK: IContextChunk = {
  documentId: "11111111-2222-4333-8444-555555555555",
  chunkIndex: 0,
  title: "Photosynthesis",
  content: "The stroma is the fluid-filled space of the chloroplast that surrounds the thylakoid membranes.",
};
const KEY = `${CHUNK.documentId}:0`;
const byKey = new Map([[KEY, CHUNK]]);
const SLOT: ISlot = {
  id: "slot-1",
  index: 0,
  type: "mcq",
  bloomLevel: "Remember",
  marks: 1,
  difficulty: "easy",
  sourceKeys: [KEY],
};
const REQUEST = GenerationRequestSchema.parse({
  filters: { board: "OpenStax", grade: "11", subject: "Biology" },
  context: [{ documentId: CHUNK.documentId, chunkIndex: 0 }],
  blueprint: { items: [{ type: "mcq", count: 1 }] },
});
const QUESTION = {
  promptText: "Which part of the chloroplast is the fluid-filled space around the thylakoids?",
  options: ["stroma", "stomata", "photosystem", "carbon fixation"],
  correctIndex: 0,
  explanation: "The stroma surrounds the thylakoid membranes.",
  distractorRationales: ["Confuses pores with a space.", "Confuses a complex with a space.", "A process."],
  suggestedAnswer: null,
  evaluatorKeywords: null,
  markingScheme: null,
  citations: [KEY],
};

afterEach(() => vi.useRealTimers());

describe("draftOf: only complete pieces of a partial object", () => {
  it("shows the stem as it grows and an option only once the next one has begun", () => {
    expect(draftOf({ promptText: "Which part" }, 1, byKey)).toEqual({
      attempt: 1,
      writing: "stem",
      promptText: "Which part",
    });
    const writingOptions = draftOf({ promptText: "Which part?", options: ["stroma", "stom"] }, 1, byKey);
    expect(writingOptions).toMatchObject({ writing: "options", options: ["stroma"] });
    const later = draftOf(
      { promptText: "Which part?", options: ["stroma", "stom"], correctIndex: 0, explanation: "The str" },
      2,
      byKey,
    );
    // A later key proves the list closed: every option is complete.
    expect(later).toMatchObject({
      attempt: 2,
      writing: "explanation",
      options: ["stroma", "stom"],
      correctIndex: 0,
      explanation: "The str",
    });
  });

  it("holds back a number still being written, half-written marking points and unknown citations", () => {
    const d = draftOf(
      {
        promptText: "Explain",
        suggestedAnswer: "Because",
        markingScheme: [{ point: "Names the stroma", marks: 1 }, { point: "Says wh" }],
      },
      1,
      byKey,
    );
    expect(d.markingScheme).toEqual([{ point: "Names the stroma", marks: 1 }]);
    expect(draftOf({ promptText: "Q", correctIndex: 1 }, 1, byKey).correctIndex).toBeUndefined();
    const cited = draftOf(
      { promptText: "Q", citations: [KEY, "99999999-0000-4000-8000-000000000000:1", ""] },
      1,
      byKey,
    );
    // The last id may be unfinished; of the complete ones only the passages that were given count.
    expect(cited.citations).toEqual([KEY]);
  });
});

describe("throttleDrafts", () => {
  it("sends the first draft at once, coalesces the rest, and drops what is pending on cancel", () => {
    vi.useFakeTimers();
    const sent: string[] = [];
    const t = throttleDrafts((d) => sent.push(d.promptText), 50);
    const d = (promptText: string): IQuestionDraft => ({ attempt: 1, writing: "stem", promptText });
    t.push(d("W"));
    expect(sent).toEqual(["W"]);
    t.push(d("Wh"));
    t.push(d("Whi"));
    expect(sent).toEqual(["W"]);
    vi.advanceTimersByTime(50);
    expect(sent).toEqual(["W", "Whi"]);
    t.push(d("Whic"));
    t.cancel();
    vi.advanceTimersByTime(200);
    expect(sent).toEqual(["W", "Whi"]);
    expect(t.shown).toBe(true);
  });
});

describe("streamLlmQuestion", () => {
  const call = (
    model: ReturnType<typeof streamingModel>,
    more: Partial<Parameters<typeof streamLlmQuestion>[0]>,
  ) =>
    streamLlmQuestion({
      model,
      timeoutMs: 500,
      slot: SLOT,
      chunks: [CHUNK],
      request: REQUEST,
      byKey,
      exemplars: [],
      temperature: 0.4,
      attempt: 1,
      ...more,
    });

  it("passes every partial on as a draft and returns the whole question", async () => {
    const model = streamingModel(() => JSON.stringify(QUESTION), { tokenChars: 5 });
    const drafts: IQuestionDraft[] = [];
    const q = await call(model, { onDraft: (d) => drafts.push(d) });
    expect(q).toMatchObject({ type: "mcq", promptText: QUESTION.promptText, source: "llm", correctIndex: 0 });
    expect(drafts.length).toBeGreaterThan(10);
    // The stem only grows; options appear complete and in order.
    for (let i = 1; i < drafts.length; i++)
      expect(drafts[i]!.promptText.startsWith(drafts[i - 1]!.promptText)).toBe(true);
    for (const d of drafts)
      for (const [i, o] of (d.options ?? []).entries()) expect(o).toBe(QUESTION.options[i]);
    // The pieces come in the order the model writes them: stem, options, …, citations.
    const order = drafts.map((d) => d.writing).filter((w, i, all) => w !== all[i - 1]);
    const at = (w: string) => order.indexOf(w as IQuestionDraft["writing"]);
    expect(order[0]).toBe("stem");
    expect(order.at(-1)).toBe("citations");
    expect(at("options")).toBeGreaterThan(at("stem"));
    expect(at("explanation")).toBeGreaterThan(at("options"));
    expect(at("rationales")).toBeGreaterThan(at("explanation"));
    // The last draft holds every piece, complete.
    expect(drafts.at(-1)).toMatchObject({
      options: QUESTION.options,
      correctIndex: 0,
      explanation: QUESTION.explanation,
      distractorRationales: QUESTION.distractorRationales,
    });
  });

  it("gives up on a stream that stalls mid-question, even one that ignores the abort", async () => {
    const model = streamingModel(() => JSON.stringify(QUESTION), { stallAfter: 12 });
    const started = performance.now();
    const drafts: IQuestionDraft[] = [];
    const failed = await call(model, { timeoutMs: 150, onDraft: (d) => drafts.push(d) }).catch(
      (e: Error) => e,
    );
    expect(performance.now() - started).toBeLessThan(2_000);
    expect((failed as Error).name).toBe("TimeoutError");
    expect(drafts.length).toBeGreaterThan(0);
    expect(model.calls[0]!.signal?.aborted).toBe(true);
  });

  it("rejects malformed JSON mid-stream after showing what parsed", async () => {
    const broken = `{"promptText":"Which part of the chloroplast is fluid-filled?","options":["stroma",}}} oops`;
    const model = streamingModel(() => broken);
    const failed = await call(model, {}).catch((e: Error) => e);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).name).not.toBe("TimeoutError");
  });

  it("stops at once when the caller aborts (the teacher pressed Stop)", async () => {
    const model = streamingModel(() => JSON.stringify(QUESTION), { firstTokenMs: 50, tokenMs: 50 });
    const stop = new AbortController();
    setTimeout(() => stop.abort(new DOMException("cancelled", "AbortError")), 120);
    const started = performance.now();
    const failed = await call(model, { timeoutMs: 5_000, signal: stop.signal }).catch((e: Error) => e);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect((failed as Error).name).toBe("AbortError");
    expect(model.calls[0]!.signal?.aborted).toBe(true);
  });
});

describe("PAPERWISE_GENERATION_CONCURRENCY", () => {
  it("defaults to 6 and accepts 1–8", () => {
    expect(buildConfig({}).generationConcurrency).toBe(6);
    expect(buildConfig({ PAPERWISE_GENERATION_CONCURRENCY: "1" }).generationConcurrency).toBe(1);
    expect(() => buildConfig({ PAPERWISE_GENERATION_CONCURRENCY: "0" })).toThrow();
    expect(() => buildConfig({ PAPERWISE_GENERATION_CONCURRENCY: "9" })).toThrow();
  });
});
