import "server-only";
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import { getConfig } from "@/lib/config/env";

/**
 * The chat model for every LLM step, or null in offline mode (the offline algorithms run).
 * Uses the Chat Completions API so any OpenAI-compatible server (vLLM, Ollama, LM Studio) works.
 */
const globalForModel = globalThis as unknown as {
  __paperwiseModel?: LanguageModel | null;
  __paperwiseTimeout?: number;
};

export function getLanguageModel(): LanguageModel | null {
  if (globalForModel.__paperwiseModel !== undefined) return globalForModel.__paperwiseModel;
  const llm = getConfig().llm;
  globalForModel.__paperwiseModel =
    llm.kind === "openai" ? createOpenAI({ apiKey: llm.apiKey, baseURL: llm.baseURL }).chat(llm.model) : null;
  return globalForModel.__paperwiseModel;
}

/**
 * The model that writes this request's questions: the configured one, except under the e2e server
 * (`PAPERWISE_E2E_SLOW_MODEL=true`, set by scripts/e2e-server.mjs alone), where a request asking
 * for it gets the slow test model of `./e2e-slow-model.ts`. That module is loaded only then: this
 * is the one place a test model can enter the production generation route.
 */
export async function getQuestionModel(request: Request): Promise<LanguageModel | null> {
  if (getConfig().e2eSlowModel) {
    const { e2eQuestionModel } = await import("./e2e-slow-model");
    const slow = e2eQuestionModel(request);
    if (slow) return slow;
  }
  return getLanguageModel();
}

/** Hard timeout for one LLM step; past it the offline algorithm (or fused order) answers. */
export function getLlmTimeoutMs(): number {
  if (globalForModel.__paperwiseTimeout !== undefined) return globalForModel.__paperwiseTimeout;
  const llm = getConfig().llm;
  return llm.kind === "openai" ? llm.timeoutMs : 3000;
}

/** Tests inject `ai/test` models (or null for offline) and a short timeout. */
export function setLanguageModelForProcess(
  model: LanguageModel | null | undefined,
  timeoutMs?: number,
): void {
  globalForModel.__paperwiseModel = model;
  globalForModel.__paperwiseTimeout = timeoutMs;
}
