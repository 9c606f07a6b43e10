import "server-only";
import { getConfig, type IAppConfig } from "@/lib/config/env";
import { AppError } from "@/lib/errors";
import type { IEmbedder } from "@/types/chunk.types";
import { breakerFor, guardedCall, isProviderOutage, OUTAGE_DETAIL } from "../provider-guard";
import { createOfflineEmbedder, OFFLINE_MODEL_ID } from "./offline";
import { createOpenAIEmbedder } from "./openai";

export { OFFLINE_MODEL_ID } from "./offline";

type TEmbeddingsConfig = IAppConfig["embeddings"];

/** One embedder per distinct provider setup: the offline one keeps its word cache warm. */
const embedders = new Map<string, IEmbedder>();

function memoised(key: string, create: () => IEmbedder): IEmbedder {
  let embedder = embedders.get(key);
  if (embedder === undefined) {
    embedder = create();
    embedders.set(key, embedder);
  }
  return embedder;
}

/**
 * Embeddings have no offline stand-in (a query must be embedded by the model that indexed the
 * chunks), so behind an open breaker a search or an ingestion fails at once with a 503 and
 * Retry-After instead of waiting for the provider's timeout; the trial after the cool-down is a
 * real call its caller waits for.
 */
function guardEmbedder(embedder: IEmbedder): IEmbedder {
  const run = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await guardedCall(breakerFor("openai.embedding", embedder.modelId, "embed"), "embed", call, {
        trial: "inline",
      });
    } catch (err) {
      if (!isProviderOutage(err)) throw err;
      const retryAfter = Math.max(1, Math.ceil((err.retryInMs ?? 1000) / 1000));
      throw new AppError(
        "unavailable",
        `The embedding provider ${OUTAGE_DETAIL[err.kind]}; try again in ${retryAfter} s`,
        { headers: { "Retry-After": String(retryAfter) }, cause: err },
      );
    }
  };
  return {
    modelId: embedder.modelId,
    dimensions: embedder.dimensions,
    embedDocuments: (texts) => run(() => embedder.embedDocuments(texts)),
    embedQuery: (text) => run(() => embedder.embedQuery(text)),
  };
}

function openAIEmbedder(config: Extract<TEmbeddingsConfig, { kind: "openai" }>, model: string): IEmbedder {
  return memoised(`openai|${config.baseURL ?? ""}|${model}`, () =>
    guardEmbedder(
      createOpenAIEmbedder({
        apiKey: config.apiKey,
        baseURL: config.baseURL,
        model,
        timeoutMs: config.timeoutMs,
      }),
    ),
  );
}

/** The embedder that indexes new documents and embeds queries, as the environment chose it. */
export function getEmbedder(config: TEmbeddingsConfig = getConfig().embeddings): IEmbedder {
  if (config.kind === "openai") return openAIEmbedder(config, config.model);
  return memoised("offline", createOfflineEmbedder);
}

/**
 * The embedder for vectors already stored under `modelId`: a query must be embedded by the model
 * that indexed the chunks it is compared with, even after the configuration changed.
 */
export function getEmbedderById(
  modelId: string,
  config: TEmbeddingsConfig = getConfig().embeddings,
): IEmbedder {
  if (modelId === OFFLINE_MODEL_ID) return memoised("offline", createOfflineEmbedder);
  if (config.kind === "openai") return openAIEmbedder(config, modelId);
  throw new AppError(
    "unavailable",
    `Documents were embedded with "${modelId}", but no OpenAI-compatible embedding provider is configured`,
  );
}
