import type {
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 10, text: 10, reasoning: undefined },
};

export function generateResult(text: string): LanguageModelV3GenerateResult {
  return {
    content: [{ type: "text", text }],
    finishReason: { unified: "stop", raw: "stop" },
    usage: USAGE,
    warnings: [],
  };
}

/** Answers every call with the text `respond(options)` returns. */
export function textModel(respond: (options: LanguageModelV3CallOptions) => string): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async (options) => generateResult(respond(options)),
    doStream: async (options) => ({
      stream: simulateReadableStream<LanguageModelV3StreamPart>({
        chunks: [
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: respond(options) },
          { type: "text-end", id: "t" },
          { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: USAGE },
        ],
      }),
    }),
  });
}

/** Never answers; only the caller's abort signal ends the call (a provider that hangs). */
export function hangingModel(): MockLanguageModelV3 {
  const hang = (options: LanguageModelV3CallOptions) =>
    new Promise<never>((_, reject) => {
      options.abortSignal?.addEventListener("abort", () =>
        reject(options.abortSignal?.reason ?? new Error("aborted")),
      );
    });
  return new MockLanguageModelV3({ doGenerate: hang, doStream: hang });
}

/** Fails every call like a provider answering 500. */
export function failingModel(message = "provider exploded"): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async () => {
      throw new Error(message);
    },
    doStream: async () => {
      throw new Error(message);
    },
  });
}
