import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * An OpenAI-compatible chat-completions server on 127.0.0.1 that stands in for the model
 * provider and misbehaves on cue: it hangs (accepts the request, never answers), fails (500),
 * answers, or answers slowly (streamed when the request asks for a stream), or streams like a real
 * model ("stream": `firstTokenMs` to the first token, then `tokensPerSecond`, 4 characters a token). It tells Paperwise's steps apart by the JSON schema each one asks
 * for (not by prompt wording), answers each with well-formed JSON, and counts calls per step.
 */
export type TStandInMode = "hang" | "500" | "ok" | "slow" | "stream";
export type TStandInStep = "rerank" | "enhance" | "answerability" | "question" | "other";

export interface IStandIn {
  baseURL: string;
  mode: TStandInMode;
  /** Answer delay in "slow" mode. */
  slowMs: number;
  /** "stream" mode: time to the first token, and tokens a second after it (4 characters a token). */
  firstTokenMs: number;
  tokensPerSecond: number;
  calls: Record<TStandInStep, number>;
  /**
   * Prepared answers (eval/scripts/support/standin-model.ts): called with each request's step and user
   * prompt; `undefined` falls back to the canned answer of the step.
   */
  answer?: (step: TStandInStep, prompt: string) => unknown;
  close(): Promise<void>;
}

interface IChatBody {
  stream?: boolean;
  messages?: { role: string; content: string | { type: string; text?: string }[] }[];
  response_format?: { json_schema?: { schema?: { properties?: Record<string, unknown> } } };
}

function stepOf(body: IChatBody): TStandInStep {
  const props = Object.keys(body.response_format?.json_schema?.schema?.properties ?? {});
  if (props.includes("scores")) return "rerank";
  if (props.includes("enhancedQuery")) return "enhance";
  if (props.includes("enough")) return "answerability";
  if (props.includes("promptText")) return "question";
  return "other";
}

function userText(body: IChatBody): string {
  return (body.messages ?? [])
    .filter((m) => m.role === "user")
    .map((m) => (typeof m.content === "string" ? m.content : m.content.map((p) => p.text ?? "").join("\n")))
    .join("\n");
}

function answerFor(step: TStandInStep, prompt: string): unknown {
  if (step === "rerank") {
    const ids = [...prompt.matchAll(/<passage id="(\d+)">/g)].map((m) => Number(m[1]));
    // The reverse of the fused order, so a test can see that the model's order was used.
    return { scores: ids.map((id, i) => ({ id, score: Math.min(10, 1 + i) })) };
  }
  if (step === "enhance") {
    const query = /Query: (.*)$/m.exec(prompt)?.[1] ?? "";
    return {
      enhancedQuery: `${query} chloroplast`,
      addedTerms: [{ term: "chloroplast", reason: "where photosynthesis happens" }],
      variants: [],
    };
  }
  if (step === "answerability")
    return { enough: true, rationale: "The passages hold enough distinct facts." };
  if (step === "question") {
    const id = /<passage id="([^"]+)"/.exec(prompt)?.[1] ?? "unknown:0";
    return {
      promptText: "Which organelle carries out photosynthesis in plant cells?",
      options: ["Chloroplast", "Mitochondrion", "Ribosome", "Nucleus"],
      correctIndex: 0,
      explanation: "Photosynthesis takes place in the chloroplast.",
      distractorRationales: ["Respiration", "Protein synthesis", "Genetic material"],
      suggestedAnswer: null,
      evaluatorKeywords: null,
      markingScheme: null,
      citations: [id],
    };
  }
  return {};
}

function completion(content: unknown): string {
  return JSON.stringify({
    id: "stand-in",
    object: "chat.completion",
    created: 0,
    model: "gpt-4o-mini",
    choices: [
      { index: 0, message: { role: "assistant", content: JSON.stringify(content) }, finish_reason: "stop" },
    ],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
}

/**
 * The same answer as a chat-completions event stream (what `streamText` asks for): the JSON in
 * small pieces, then the finish chunk and `[DONE]`.
 */
function completionStream(
  res: ServerResponse,
  content: unknown,
  pace?: { firstTokenMs: number; tokensPerSecond: number },
): void {
  const text = JSON.stringify(content);
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    `data: ${JSON.stringify({
      id: "stand-in",
      object: "chat.completion.chunk",
      created: 0,
      model: "gpt-4o-mini",
      choices: [{ index: 0, delta, finish_reason: finish }],
    })}\n\n`;
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.write(chunk({ role: "assistant", content: "" }, null));
  const end = () => {
    res.write(chunk({}, "stop"));
    res.end("data: [DONE]\n\n");
  };
  if (!pace) {
    for (let at = 0; at < text.length; at += 16) res.write(chunk({ content: text.slice(at, at + 16) }, null));
    end();
    return;
  }
  // Four tokens (16 characters) per chunk at the given pace.
  let at = 0;
  const next = () => {
    if (res.destroyed) return;
    if (at >= text.length) {
      end();
      return;
    }
    res.write(chunk({ content: text.slice(at, at + 16) }, null));
    at += 16;
    setTimeout(next, (4 / pace.tokensPerSecond) * 1000);
  };
  setTimeout(next, pace.firstTokenMs);
}

export async function startOpenAIStandIn(mode: TStandInMode = "ok"): Promise<IStandIn> {
  const calls: Record<TStandInStep, number> = {
    rerank: 0,
    enhance: 0,
    answerability: 0,
    question: 0,
    other: 0,
  };
  const state: IStandIn = {
    baseURL: "",
    mode,
    slowMs: 150,
    firstTokenMs: 400,
    tokensPerSecond: 50,
    calls,
    close: async () => undefined,
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (d: string) => {
      raw += d;
    });
    req.on("end", () => {
      let body: IChatBody = {};
      try {
        body = JSON.parse(raw) as IChatBody;
      } catch {
        // Not JSON: answered as an unknown step.
      }
      const step = stepOf(body);
      calls[step]++;
      if (state.mode === "hang") return; // Accepted, never answered: only the client's timeout ends it.
      if (state.mode === "500") {
        res.writeHead(500, { "content-type": "application/json" }).end('{"error":{"message":"boom"}}');
        return;
      }
      const send = () => {
        const prompt = userText(body);
        const answer = state.answer?.(step, prompt) ?? answerFor(step, prompt);
        if (body.stream) completionStream(res, answer, state.mode === "stream" ? state : undefined);
        else res.writeHead(200, { "content-type": "application/json" }).end(completion(answer));
      };
      if (state.mode === "slow") setTimeout(send, state.slowMs);
      else if (state.mode === "stream" && !body.stream) {
        // A whole answer at once: the first token's wait plus the time to write it all.
        const text = JSON.stringify(state.answer?.(step, userText(body)) ?? answerFor(step, userText(body)));
        setTimeout(send, state.firstTokenMs + (text.length / 4 / state.tokensPerSecond) * 1000);
      } else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
