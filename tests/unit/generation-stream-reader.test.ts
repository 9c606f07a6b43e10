// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook, waitFor } from "@testing-library/react";
import { createUIMessageStream, createUIMessageStreamResponse } from "ai";
import { createElement, type ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readGeneration, regenerateOne, useGeneration } from "@/hooks/use-generation";
import type { ISlot, TGenerationMessage } from "@/types/generation.types";

const REQUEST = {
  filters: { board: "OpenStax", grade: "11", subject: "Biology" },
  context: [{ documentId: "00000000-0000-4000-8000-000000000001", chunkIndex: 0 }],
  blueprint: { items: [{ type: "mcq" as const, count: 1 }] },
};
const SLOT: ISlot = {
  id: "slot-1",
  index: 0,
  type: "mcq",
  bloomLevel: "Remember",
  marks: 1,
  difficulty: "easy",
  sourceKeys: [],
};
const QUESTION = { id: "q-1", type: "mcq", promptText: "Which organelle makes ATP?", bloomLevel: "Remember" };

let bodies: unknown[] = [];

/** Answers POST /api/generation with a real AI SDK UI message stream made of these parts. */
function serve(write: (writer: { write: (part: never) => void }) => void) {
  bodies = [];
  vi.stubGlobal("fetch", async (_url: string, init: RequestInit) => {
    bodies.push(JSON.parse(String(init.body)));
    const stream = createUIMessageStream<TGenerationMessage>({
      execute: ({ writer }) => write(writer as unknown as { write: (part: never) => void }),
    });
    return createUIMessageStreamResponse({ stream });
  });
}

function part(p: unknown): never {
  return p as never;
}

afterEach(() => vi.unstubAllGlobals());

describe("readGeneration (the one generation stream reader)", () => {
  it("posts the request itself as the body and yields the message as question parts are rewritten", async () => {
    const notices: string[] = [];
    serve((w) => {
      w.write(part({ type: "data-notice", data: { message: "Passages widened" }, transient: true }));
      w.write(part({ type: "data-question", id: SLOT.id, data: { slot: SLOT, status: "generating" } }));
      w.write(
        part({
          type: "data-question",
          id: SLOT.id,
          data: { slot: SLOT, status: "final", question: QUESTION },
        }),
      );
      w.write(part({ type: "data-set", data: { setId: "set-1", generated: 1, requested: 1, warnings: [] } }));
    });
    const snapshots: TGenerationMessage[] = [];
    for await (const m of readGeneration(REQUEST, { onNotice: (n) => notices.push(n) })) snapshots.push(m);
    expect(bodies).toEqual([REQUEST]);
    expect(notices).toEqual(["Passages widened"]);
    const last = snapshots.at(-1)!;
    const questions = last.parts.filter((p) => p.type === "data-question");
    // One card per slot id: the final part replaced the "generating" one.
    expect(questions).toHaveLength(1);
    expect(questions[0]!.data).toMatchObject({ status: "final", question: { id: "q-1" } });
    expect(last.parts.some((p) => p.type === "data-notice")).toBe(false);
  });

  it("throws the server's error answered before the stream", async () => {
    vi.stubGlobal(
      "fetch",
      async () =>
        new Response(
          JSON.stringify({
            ok: false,
            error: { code: "unprocessable", message: "Not enough evidence", details: [{ message: "x" }] },
          }),
          { status: 422, headers: { "content-type": "application/json" } },
        ),
    );
    await expect(readGeneration(REQUEST).next()).rejects.toMatchObject({
      code: "unprocessable",
      message: "Not enough evidence",
    });
  });
});

describe("regenerateOne", () => {
  it("resolves with the final question of a one-slot stream", async () => {
    serve((w) => {
      w.write(
        part({
          type: "data-question",
          id: SLOT.id,
          data: { slot: SLOT, status: "final", question: QUESTION },
        }),
      );
    });
    await expect(regenerateOne(REQUEST)).resolves.toMatchObject({ id: "q-1" });
  });

  it("fails when no question became final", async () => {
    serve((w) => {
      w.write(
        part({ type: "data-question", id: SLOT.id, data: { slot: SLOT, status: "failed", reason: "thin" } }),
      );
    });
    await expect(regenerateOne(REQUEST)).rejects.toThrow("No new question could be generated");
  });
});

describe("useGeneration", () => {
  function wrapper() {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    return ({ children }: { children: ReactNode }) =>
      createElement(QueryClientProvider, { client }, children);
  }

  it("exposes the cards, the saved set and the notices, and ends ready", async () => {
    serve((w) => {
      w.write(part({ type: "data-notice", data: { message: "Decomposed" }, transient: true }));
      w.write(
        part({
          type: "data-question",
          id: SLOT.id,
          data: { slot: SLOT, status: "final", question: QUESTION },
        }),
      );
      w.write(part({ type: "data-set", data: { setId: "set-1", generated: 1, requested: 1, warnings: [] } }));
    });
    const { result } = renderHook(() => useGeneration(), { wrapper: wrapper() });
    await act(async () => {
      await result.current.generate(REQUEST);
    });
    await waitFor(() => expect(result.current.status).toBe("ready"));
    expect(result.current.questions.map((q) => q.status)).toEqual(["final"]);
    expect(result.current.set?.setId).toBe("set-1");
    expect(result.current.notices).toEqual(["Decomposed"]);
    expect(result.current.error).toBeNull();
  });

  it("shows the server's message and its field messages when the request is refused", async () => {
    vi.stubGlobal(
      "fetch",
      async () =>
        new Response(
          JSON.stringify({
            ok: false,
            error: {
              code: "bad_request",
              message: "Invalid request",
              details: [{ path: "context", message: "Pick a passage" }],
            },
          }),
          { status: 400, headers: { "content-type": "application/json" } },
        ),
    );
    const { result } = renderHook(() => useGeneration(), { wrapper: wrapper() });
    await act(async () => {
      await result.current.generate(REQUEST);
    });
    expect(result.current.status).toBe("error");
    expect(result.current.error).toBe("Invalid request Pick a passage");
  });

  it("sends a run id, and Stop posts it to the stop endpoint before aborting (a reload sends no stop)", async () => {
    const calls: { url: string; body: Record<string, unknown> }[] = [];
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      calls.push({ url: String(url), body: JSON.parse(String(init.body)) });
      if (String(url).endsWith("/api/generation/stop")) return Response.json({ ok: true, stopped: true });
      const stream = createUIMessageStream<TGenerationMessage>({
        // A set still being written: the stream stays open until the client aborts.
        execute: ({ writer }) =>
          new Promise<void>((resolve) => {
            writer.write(
              part({ type: "data-question", id: SLOT.id, data: { slot: SLOT, status: "generating" } }),
            );
            init.signal?.addEventListener("abort", () => resolve());
          }),
      });
      return createUIMessageStreamResponse({ stream });
    });
    const { result } = renderHook(() => useGeneration(), { wrapper: wrapper() });
    let running: Promise<void> | undefined;
    act(() => {
      running = result.current.generate(REQUEST);
    });
    await waitFor(() => expect(result.current.status).toBe("streaming"));
    const runId = calls[0]?.body.runId;
    expect(runId).toMatch(/^[0-9a-f-]{36}$/);
    await act(async () => {
      result.current.stop();
      await running;
    });
    expect(calls.map((c) => c.url)).toEqual(["/api/generation", "/api/generation/stop"]);
    expect(calls[1]?.body).toEqual({ runId });
    expect(result.current.status).toBe("ready");
  });
});
