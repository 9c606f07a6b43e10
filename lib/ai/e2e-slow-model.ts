import "server-only";
import type { LanguageModelV3, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import type { LanguageModel } from "ai";
import { getConfig } from "@/lib/config/env";

/**
 * Test-only: a language model that writes a question slowly, token by token, so the end-to-end
 * tests can watch a card mid-question and press Stop while the model is writing. Only
 * `getQuestionModel` (lib/ai/providers.ts) loads this module, and only when the server runs with
 * `PAPERWISE_E2E_SLOW_MODEL=true` (set by scripts/e2e-server.mjs alone); then a request carrying
 * `x-paperwise-e2e-model: slow` gets it and every other request uses the configured model. Its draft leans on "the passage" and rests on "moonlight crystals" the passages
 * never mention: the quality gate refuses such an answer for a model draft too (unsupported), so
 * the test also sees a streamed draft replaced in place (by the rewrite, then the offline question).
 */
export const E2E_MODEL_HEADER = "x-paperwise-e2e-model";

const FIRST_TOKEN_MS = 300;
const TOKEN_MS = 40;
const TOKEN_CHARS = 6;

function draftFor(prompt: string): string {
  const cite = /<passage id=\\?"([^"\\]+)\\?"/.exec(prompt)?.[1] ?? "unknown:0";
  const mcq = prompt.includes("multiple-choice");
  return JSON.stringify({
    promptText: mcq
      ? "According to the passage, which of the following statements about the process described is correct?"
      : "According to the passage, explain in your own words the process the passage describes and why it matters.",
    options: mcq
      ? [
          "It releases energy stored in sugar",
          "It is powered by moonlight crystals",
          "It takes place only at night",
          "It needs no water at all",
        ]
      : null,
    correctIndex: mcq ? 1 : null,
    explanation: mcq ? "The passage says moonlight crystals power it." : null,
    distractorRationales: mcq
      ? ["Confuses it with respiration.", "Confuses light and dark.", "Forgets the role of water."]
      : null,
    suggestedAnswer: mcq ? null : "Moonlight crystals glow and power it, as the passage describes.",
    evaluatorKeywords: mcq ? null : ["moonlight", "crystals", "glow"],
    markingScheme: null,
    citations: [cite],
  });
}

const USAGE = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};

/** Emits `text` in small tokens at a fixed pace; the caller's abort stops it like a real connection. */
function slowStream(
  text: string,
  signal: AbortSignal | undefined,
): ReadableStream<LanguageModelV3StreamPart> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return new ReadableStream<LanguageModelV3StreamPart>({
    start(controller) {
      let at = 0;
      const stop = () => {
        if (timer) clearTimeout(timer);
        controller.error(signal?.reason ?? new DOMException("aborted", "AbortError"));
      };
      if (signal?.aborted) return stop();
      signal?.addEventListener("abort", stop, { once: true });
      controller.enqueue({ type: "stream-start", warnings: [] });
      const tick = () => {
        if (at === 0) controller.enqueue({ type: "text-start", id: "t" });
        if (at < text.length) {
          controller.enqueue({ type: "text-delta", id: "t", delta: text.slice(at, at + TOKEN_CHARS) });
          at += TOKEN_CHARS;
          timer = setTimeout(tick, TOKEN_MS);
          return;
        }
        signal?.removeEventListener("abort", stop);
        controller.enqueue({ type: "text-end", id: "t" });
        controller.enqueue({ type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: USAGE });
        controller.close();
      };
      timer = setTimeout(tick, FIRST_TOKEN_MS);
    },
    cancel() {
      if (timer) clearTimeout(timer);
    },
  });
}

function slowStreamingModel(): LanguageModelV3 {
  return {
    specificationVersion: "v3",
    provider: "paperwise-e2e",
    modelId: "slow-stream",
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error("The e2e model only streams questions")),
    doStream: async (options) => ({
      stream: slowStream(draftFor(JSON.stringify(options.prompt)), options.abortSignal),
    }),
  };
}

/** The slow test model when the e2e server allows it and the request asks for it, else null. */
export function e2eQuestionModel(request: Request): LanguageModel | null {
  if (!getConfig().e2eSlowModel || request.headers.get(E2E_MODEL_HEADER) !== "slow") return null;
  return slowStreamingModel();
}
