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

/** A model's text cut into tokens of about `size` characters (what a provider streams). */
export function tokens(text: string, size = 4): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

export interface IStreamingCall {
  prompt: string;
  signal: AbortSignal | undefined;
  startedAt: number;
  /** When its stream ended (finished, failed or cancelled); null while it runs. */
  endedAt: number | null;
}

export interface IStreamingOptions {
  /** Before the first token (default 0). */
  firstTokenMs?: number;
  /** Between tokens (default 0; 20 = 50 tokens/s). */
  tokenMs?: number;
  tokenChars?: number;
  /** Stop after this many tokens and never finish, ignoring the abort signal (a stalled connection). */
  stallAfter?: number;
}

/**
 * Streams `respond(options)` token by token at a fixed rate through `simulateReadableStream`,
 * recording every call (its prompt, abort signal, and when its stream ran) in `calls`.
 */
export function streamingModel(
  respond: (options: LanguageModelV3CallOptions) => string,
  { firstTokenMs = 0, tokenMs = 0, tokenChars = 4, stallAfter }: IStreamingOptions = {},
): MockLanguageModelV3 & { calls: IStreamingCall[] } {
  const calls: IStreamingCall[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => generateResult(respond(options)),
    doStream: async (options) => {
      const call: IStreamingCall = {
        prompt: JSON.stringify(options.prompt),
        signal: options.abortSignal,
        startedAt: performance.now(),
        endedAt: null,
      };
      calls.push(call);
      const pieces = tokens(respond(options), tokenChars);
      const parts: LanguageModelV3StreamPart[] = [
        { type: "text-start", id: "t" },
        ...pieces
          .slice(0, stallAfter ?? pieces.length)
          .map((delta): LanguageModelV3StreamPart => ({ type: "text-delta", id: "t", delta })),
      ];
      if (stallAfter === undefined)
        parts.push(
          { type: "text-end", id: "t" },
          { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: USAGE },
        );
      const source = simulateReadableStream<LanguageModelV3StreamPart>({
        chunks: parts,
        initialDelayInMs: firstTokenMs,
        chunkDelayInMs: tokenMs,
      });
      const reader = source.getReader();
      const end = () => {
        call.endedAt ??= performance.now();
      };
      return {
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          async pull(controller) {
            const { done, value } = await reader.read();
            if (value) controller.enqueue(value);
            if (!done) return;
            if (stallAfter !== undefined) return new Promise<void>(() => undefined);
            end();
            controller.close();
          },
          cancel: end,
        }),
      };
    },
  });
  return Object.assign(model, { calls });
}

/** The id of the first passage a prompt shows the model (`<passage id="…">`), or "". */
export const firstPassageId = (options: { prompt: unknown }) =>
  /passage id=\\+"([0-9a-f-]{36}:\d+)/.exec(JSON.stringify(options.prompt))?.[1] ?? "";

/**
 * A model's MCQ whose key the passages do not support (a quasar as the membrane's source): the
 * gate refuses it and every rewrite, so each slot goes to the offline fallback.
 */
export const unsupportedMcqReply = (options: { prompt: unknown }) =>
  JSON.stringify({
    promptText: "Which celestial body does the passage name as the source of the cell's membrane?",
    options: ["a quasar", "a nebula", "a comet", "a pulsar"],
    correctIndex: 0,
    explanation: "The passage says the membrane comes from a quasar.",
    distractorRationales: ["Not a quasar.", "Not a quasar either.", "Still not a quasar."],
    suggestedAnswer: null,
    evaluatorKeywords: null,
    markingScheme: null,
    citations: [firstPassageId(options)],
  });

/**
 * A model's MCQ on the chloroplast's stroma that the gate accepts from the photosynthesis notes
 * (the draft the gate tests keep), with `over` changing any field of it.
 */
export const stromaMcqReply =
  (over: Record<string, unknown> = {}) =>
  (options: { prompt: unknown }) =>
    JSON.stringify({
      promptText:
        "The fluid-filled space of the chloroplast that surrounds the thylakoid membranes is called ________.",
      options: ["stroma", "stomata", "photosystem", "carbon fixation"],
      correctIndex: 0,
      explanation: "The stroma is the fluid-filled space of the chloroplast around the thylakoids.",
      distractorRationales: [
        "Confuses the stroma with stomata, the pores in the leaf surface.",
        "Confuses the stroma with a photosystem, the pigment–protein complex in the membrane.",
        "Confuses a place with a process: carbon fixation happens in the stroma.",
      ],
      suggestedAnswer: null,
      evaluatorKeywords: null,
      markingScheme: null,
      citations: [firstPassageId(options)],
      ...over,
    });
