import { describe, expect, it } from "vitest";
import { getEmbedder, getEmbedderById, OFFLINE_MODEL_ID } from "@/lib/ai/embedder";
import { createOpenAIEmbedder, OPENAI_EMBEDDING_BATCH } from "@/lib/ai/embedder/openai";
import { AppError } from "@/lib/errors";

interface IEmbeddingRequest {
  model: string;
  input: string[];
  dimensions?: number;
  encoding_format?: string;
}

/** A stand-in for POST /v1/embeddings: records each request and answers in OpenAI's shape. */
function fakeOpenAI(dims = 1536) {
  const requests: { url: string; body: IEmbeddingRequest; auth: string | null }[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const body = JSON.parse(String(init?.body)) as IEmbeddingRequest;
    requests.push({ url: String(input), body, auth: new Headers(init?.headers).get("authorization") });
    const data = body.input.map((text, index) => {
      const embedding = new Array<number>(dims).fill(0);
      // Encode the input's length so the test can check that order is preserved across batches.
      embedding[0] = text.length;
      embedding[1] = 0.5;
      return { object: "embedding", index, embedding };
    });
    return Response.json({
      object: "list",
      data,
      model: body.model,
      usage: { prompt_tokens: body.input.length, total_tokens: body.input.length },
    });
  };
  return { fetch, requests };
}

describe("OpenAI embedder", () => {
  it("sends 1536 dimensions and the model, and returns Float32Arrays", async () => {
    const fake = fakeOpenAI();
    const embedder = createOpenAIEmbedder({
      apiKey: "sk-test",
      baseURL: "http://llm.local/v1",
      model: "text-embedding-3-small",
      fetch: fake.fetch,
    });
    expect(embedder.modelId).toBe("text-embedding-3-small");
    expect(embedder.dimensions).toBe(1536);
    const v = await embedder.embedQuery("osmosis");
    expect(v).toBeInstanceOf(Float32Array);
    expect(v.length).toBe(1536);
    expect(v[0]).toBe("osmosis".length);
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request!.url).toBe("http://llm.local/v1/embeddings");
    expect(request!.auth).toBe("Bearer sk-test");
    expect(request!.body.model).toBe("text-embedding-3-small");
    expect(request!.body.dimensions).toBe(1536);
    expect(request!.body.input).toEqual(["osmosis"]);
  });

  it("splits documents into batches of at most 512 and keeps their order", async () => {
    const fake = fakeOpenAI();
    const embedder = createOpenAIEmbedder({
      apiKey: "k",
      model: "text-embedding-3-small",
      fetch: fake.fetch,
    });
    const texts = Array.from({ length: 1200 }, (_, i) => "x".repeat((i % 50) + 1));
    const vectors = await embedder.embedDocuments(texts);
    expect(fake.requests.map((r) => r.body.input.length)).toEqual([512, 512, 176]);
    expect(Math.max(...fake.requests.map((r) => r.body.input.length))).toBeLessThanOrEqual(
      OPENAI_EMBEDDING_BATCH,
    );
    expect(fake.requests.every((r) => r.body.dimensions === 1536)).toBe(true);
    expect(vectors).toHaveLength(1200);
    expect(vectors.map((v) => v[0])).toEqual(texts.map((t) => t.length));
  });

  it("makes no request for an empty document list and never sends an empty input", async () => {
    const fake = fakeOpenAI();
    const embedder = createOpenAIEmbedder({ apiKey: "k", model: "m", fetch: fake.fetch });
    expect(await embedder.embedDocuments([])).toEqual([]);
    expect(fake.requests).toHaveLength(0);
    await embedder.embedDocuments(["", "text"]);
    expect(fake.requests[0]!.body.input.every((s) => s.length > 0)).toBe(true);
  });

  it("rejects a server that ignores the dimensions parameter", async () => {
    const fake = fakeOpenAI(768);
    const embedder = createOpenAIEmbedder({ apiKey: "k", model: "nomic-embed-text", fetch: fake.fetch });
    await expect(embedder.embedQuery("q")).rejects.toSatisfy(
      (e: unknown) => e instanceof AppError && e.code === "unavailable",
    );
  });

  it("retries a failed request at most twice", async () => {
    let calls = 0;
    const fetch: typeof globalThis.fetch = async () => {
      calls++;
      // retry-after-ms keeps the SDK's backoff (2 s, 4 s) out of the test's run time.
      return Response.json(
        { error: { message: "overloaded", type: "server_error" } },
        { status: 503, headers: { "retry-after-ms": "1" } },
      );
    };
    const embedder = createOpenAIEmbedder({ apiKey: "k", model: "m", fetch });
    await expect(embedder.embedQuery("q")).rejects.toThrow();
    expect(calls).toBe(3);
  });
});

describe("embedder selection", () => {
  const openai = {
    kind: "openai",
    apiKey: "sk-test",
    model: "text-embedding-3-small",
    timeoutMs: 5000,
  } as const;

  it("chooses by configuration and memoises per provider setup", () => {
    const offline = getEmbedder({ kind: "offline" });
    expect(offline.modelId).toBe(OFFLINE_MODEL_ID);
    expect(getEmbedder({ kind: "offline" })).toBe(offline);
    const remote = getEmbedder(openai);
    expect(remote.modelId).toBe("text-embedding-3-small");
    expect(remote.dimensions).toBe(1536);
    expect(getEmbedder({ ...openai })).toBe(remote);
  });

  it("finds the embedder that indexed stored vectors", () => {
    expect(getEmbedderById(OFFLINE_MODEL_ID, openai).modelId).toBe(OFFLINE_MODEL_ID);
    expect(getEmbedderById("text-embedding-3-large", openai).modelId).toBe("text-embedding-3-large");
    expect(() => getEmbedderById("text-embedding-3-large", { kind: "offline" })).toThrow(
      expect.objectContaining({ code: "unavailable" }),
    );
  });
});
