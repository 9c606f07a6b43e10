import "server-only";
import { getEmbedderById, OFFLINE_MODEL_ID } from "@/lib/ai/embedder";
import type { IEmbedder } from "@/types/chunk.types";
import { runInPool } from "./pool";

/**
 * Whether `embedder` is the process's offline embedder, whose batches run in the worker pool
 * (`embedPassages`). Any other embedder (a provider's, which waits on the network; a test's
 * wrapper) is called where it is.
 */
export function embedsInPool(embedder: IEmbedder): boolean {
  return embedder.modelId === OFFLINE_MODEL_ID && embedder === getEmbedderById(OFFLINE_MODEL_ID);
}

/**
 * One batch of passages embedded for storage. The offline embedder's CPU (a few milliseconds per
 * passage: WordNet expansion and feature hashing) is spent in the worker pool, off the thread that
 * serves requests; its vectors are the same as inline (`embedOffline` is deterministic). When the
 * pool cannot load, the pool itself runs the task inline (the old behaviour).
 */
export function embedPassages(embedder: IEmbedder, texts: string[]): Promise<Float32Array[]> {
  if (texts.length === 0) return Promise.resolve([]);
  if (embedsInPool(embedder)) return runInPool("embed", { texts });
  return embedder.embedDocuments(texts);
}
