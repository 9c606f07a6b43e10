import "server-only";
import { createOpenAI } from "@ai-sdk/openai";
import { embedMany } from "ai";
import { AppError } from "@/lib/errors";
import type { IEmbedder } from "@/types/chunk.types";

export const OPENAI_EMBEDDING_DIMENSIONS = 1536;
/** Well under OpenAI's 2,048 inputs per request, so one request stays small enough to retry. */
export const OPENAI_EMBEDDING_BATCH = 512;

export interface IOpenAIEmbedderParams {
  apiKey: string;
  /** Any OpenAI-compatible server (Ollama, vLLM, LM Studio); defaults to api.openai.com. */
  baseURL?: string;
  model: string;
  /**
   * Hard limit per embedding request (one query, or one batch at ingestion), retries included:
   * a provider that accepts the request and never answers must not hold a search for ever.
   */
  timeoutMs?: number;
  /** Injected in tests; defaults to the global fetch. */
  fetch?: typeof globalThis.fetch;
}

/**
 * OpenAI (or compatible) embeddings at 1536 dimensions: `text-embedding-3-*` shorten natively
 * through the `dimensions` parameter, which keeps the pgvector column one size for every model.
 */
export function createOpenAIEmbedder(params: IOpenAIEmbedderParams): IEmbedder {
  const provider = createOpenAI({ apiKey: params.apiKey, baseURL: params.baseURL, fetch: params.fetch });
  const model = provider.embedding(params.model);

  async function embedBatch(values: string[]): Promise<Float32Array[]> {
    const { embeddings } = await embedMany({
      model,
      // The API rejects empty inputs; a blank chunk or query still gets a (meaningless) vector.
      values: values.map((v) => (v.trim() === "" ? " " : v)),
      maxRetries: 2,
      ...(params.timeoutMs ? { abortSignal: AbortSignal.timeout(params.timeoutMs) } : {}),
      providerOptions: { openai: { dimensions: OPENAI_EMBEDDING_DIMENSIONS } },
    });
    return embeddings.map((e) => {
      // Compatible servers may ignore `dimensions`; a wrong size would only fail later in pgvector.
      if (e.length !== OPENAI_EMBEDDING_DIMENSIONS) {
        throw new AppError(
          "unavailable",
          `Embedding model ${params.model} returned ${e.length} dimensions; ${OPENAI_EMBEDDING_DIMENSIONS} are required`,
        );
      }
      return Float32Array.from(e);
    });
  }

  return {
    modelId: params.model,
    dimensions: OPENAI_EMBEDDING_DIMENSIONS,
    async embedDocuments(texts: string[]): Promise<Float32Array[]> {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += OPENAI_EMBEDDING_BATCH) {
        out.push(...(await embedBatch(texts.slice(i, i + OPENAI_EMBEDDING_BATCH))));
      }
      return out;
    },
    async embedQuery(text: string): Promise<Float32Array> {
      const [vector] = await embedBatch([text]);
      return vector!;
    },
  };
}
