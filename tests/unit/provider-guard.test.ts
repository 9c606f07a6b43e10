import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { APICallError, generateText, RetryError } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { beforeEach, describe, expect, it } from "vitest";
import { getEmbedder } from "@/lib/ai/embedder";
import {
  classifyProviderError,
  guardModel,
  isProviderOutage,
  ProviderOutageError,
  providerStatus,
  resetBreakersForProcess,
} from "@/lib/ai/provider-guard";
import { buildConfig, setConfigForProcess } from "@/lib/config/env";
import { AppError } from "@/lib/errors";
import { generateResult } from "../support/mock-models";

const COOL_DOWN_MS = 150;

beforeEach(() => {
  setConfigForProcess(
    buildConfig({
      NODE_ENV: "test",
      PAPERWISE_LOG_LEVEL: "silent",
      PAPERWISE_BREAKER_FAILURES: "3",
      PAPERWISE_BREAKER_COOLDOWN_MS: String(COOL_DOWN_MS),
    }),
  );
  resetBreakersForProcess();
});

const serverError = (status: number) =>
  new APICallError({
    message: `status ${status}`,
    url: "http://127.0.0.1/v1",
    requestBodyValues: {},
    statusCode: status,
  });

/** A provider whose behaviour the test switches: hang until aborted, answer 503, or answer. */
function switchableModel() {
  const state = { mode: "hang" as "hang" | "503" | "400" | "ok", calls: 0 };
  const model = new MockLanguageModelV3({
    provider: "stand-in.chat",
    modelId: "m",
    doGenerate: async (options: LanguageModelV3CallOptions) => {
      state.calls++;
      if (state.mode === "503") throw serverError(503);
      if (state.mode === "400") throw serverError(400);
      if (state.mode === "ok") return generateResult('{"ok":true}');
      return new Promise<never>((_, reject) => {
        options.abortSignal?.addEventListener("abort", () => reject(options.abortSignal?.reason));
      });
    },
  });
  return { model, state };
}

const call = (model: ReturnType<typeof guardModel>, timeoutMs = 40) =>
  generateText({ model, prompt: "x", maxRetries: 0, abortSignal: AbortSignal.timeout(timeoutMs) });

async function settle(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (err: unknown) => err,
  );
}

describe("classifying provider errors", () => {
  it("counts timeouts, 5xx and unreachable servers, not answers the provider did give", async () => {
    const timedOut = AbortSignal.timeout(1);
    await new Promise((r) => setTimeout(r, 10));
    expect(classifyProviderError(new Error("aborted"), timedOut)).toBe("timeout");
    const cancelled = new AbortController();
    cancelled.abort();
    expect(classifyProviderError(new Error("aborted"), cancelled.signal)).toBe("aborted");
    expect(classifyProviderError(serverError(500))).toBe("server-error");
    expect(classifyProviderError(serverError(503))).toBe("server-error");
    expect(classifyProviderError(serverError(429))).toBeNull();
    expect(classifyProviderError(serverError(400))).toBeNull();
    const refused = new APICallError({
      message: "Cannot connect to API",
      url: "http://127.0.0.1:9/v1",
      requestBodyValues: {},
    });
    expect(classifyProviderError(refused)).toBe("unreachable");
    expect(
      classifyProviderError(
        new RetryError({ message: "x", reason: "maxRetriesExceeded", errors: [serverError(502)] }),
      ),
    ).toBe("server-error");
    expect(classifyProviderError(new DOMException("t", "TimeoutError"))).toBe("timeout");
    expect(classifyProviderError(new SyntaxError("Unexpected token"))).toBeNull();
  });
});

describe("a model behind a step's breaker", () => {
  it("stops calling a hanging provider after three timeouts and answers at once", async () => {
    const { model, state } = switchableModel();
    const guarded = guardModel(model, "rerank");
    for (let i = 0; i < 3; i++) {
      const err = await settle(call(guarded));
      expect(err).toBeInstanceOf(ProviderOutageError);
      expect((err as ProviderOutageError).kind).toBe("timeout");
    }
    expect(state.calls).toBe(3);
    // A 5 s budget, yet the provider is not called at all: nothing to wait for.
    const err = await settle(call(guarded, 5_000));
    expect(isProviderOutage(err) && err.kind).toBe("circuit-open");
    expect(state.calls).toBe(3);
    expect(providerStatus()).toEqual([
      expect.objectContaining({
        provider: "stand-in.chat",
        model: "m",
        step: "rerank",
        state: "open",
        opens: 1,
      }),
    ]);
    // Other steps of the same provider keep their own breakers.
    state.mode = "ok";
    await expect(call(guardModel(model, "enhance"))).resolves.toMatchObject({ text: '{"ok":true}' });
  });

  it("probes in the background after the cool-down and uses the model again once it answers", async () => {
    const { model, state } = switchableModel();
    const guarded = guardModel(model, "question");
    state.mode = "503";
    for (let i = 0; i < 3; i++) expect(await settle(call(guarded))).toMatchObject({ kind: "server-error" });
    state.mode = "ok";
    await new Promise((r) => setTimeout(r, COOL_DOWN_MS + 20));
    // The caller that triggers the trial is answered offline at once; the probe runs on.
    expect(await settle(call(guarded))).toMatchObject({ kind: "circuit-open" });
    await new Promise((r) => setTimeout(r, 10));
    expect(state.calls).toBe(4);
    expect(providerStatus()[0]).toMatchObject({ state: "closed", consecutiveFailures: 0 });
    await expect(call(guarded)).resolves.toMatchObject({ text: '{"ok":true}' });
    expect(state.calls).toBe(5);
  });

  it("a failed probe keeps it open for another cool-down", async () => {
    const { model, state } = switchableModel();
    const guarded = guardModel(model, "answerability");
    for (let i = 0; i < 3; i++) await settle(call(guarded));
    await new Promise((r) => setTimeout(r, COOL_DOWN_MS + 20));
    expect(await settle(call(guarded))).toMatchObject({ kind: "circuit-open" });
    await new Promise((r) => setTimeout(r, 80));
    expect(providerStatus()[0]).toMatchObject({ state: "open", opens: 2 });
    expect(await settle(call(guarded))).toMatchObject({ kind: "circuit-open" });
    expect(state.calls).toBe(4);
  });

  it("does not open on errors that are answers (400, malformed output)", async () => {
    const { model, state } = switchableModel();
    const guarded = guardModel(model, "enhance");
    state.mode = "400";
    for (let i = 0; i < 6; i++) {
      const err = await settle(call(guarded));
      expect(APICallError.isInstance(err)).toBe(true);
    }
    expect(providerStatus()[0]).toMatchObject({ state: "closed", consecutiveFailures: 0 });
    expect(state.calls).toBe(6);
  });

  it("returns the same wrapper for the same model and step", () => {
    const { model } = switchableModel();
    expect(guardModel(model, "rerank")).toBe(guardModel(model, "rerank"));
    expect(guardModel(model, "rerank")).not.toBe(guardModel(model, "enhance"));
    expect(guardModel("openai/gpt-4o-mini", "rerank")).toBe("openai/gpt-4o-mini");
  });
});

describe("embeddings behind the breaker", () => {
  it("time out, then answer 503 with Retry-After at once while open", async () => {
    let fetches = 0;
    const hang: typeof fetch = (_input, init) =>
      new Promise<Response>((_, reject) => {
        fetches++;
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason));
      });
    const original = globalThis.fetch;
    globalThis.fetch = hang;
    try {
      const embedder = getEmbedder({
        kind: "openai",
        apiKey: "k",
        baseURL: "http://127.0.0.1:9/v1",
        model: "embed-test",
        timeoutMs: 40,
      });
      for (let i = 0; i < 3; i++) {
        const err = await settle(embedder.embedQuery("osmosis"));
        expect(err).toBeInstanceOf(AppError);
        expect((err as AppError).status).toBe(503);
        expect((err as AppError).message).toMatch(/timed out/);
      }
      expect(fetches).toBe(3);
      const err = (await settle(embedder.embedQuery("osmosis"))) as AppError;
      expect(fetches).toBe(3);
      expect(err.message).toMatch(/embedding provider is not responding; try again in 1 s/);
      expect(err.headers?.["Retry-After"]).toBe("1");
      expect(providerStatus()).toEqual([
        expect.objectContaining({ provider: "openai.embedding", step: "embed", state: "open" }),
      ]);
    } finally {
      globalThis.fetch = original;
    }
  });
});
