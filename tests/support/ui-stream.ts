import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import type { TQuestion } from "@/types/generation.types";

/** Parses an AI SDK UI message stream response (SSE) with the SDK's own reader. */
export async function readGenerationStream(
  res: Response,
): Promise<{ chunks: UIMessageChunk[]; messages: UIMessage[] }> {
  const text = await res.text();
  const chunks: UIMessageChunk[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("data: ")) continue;
    const payload = line.slice(6).trim();
    if (payload === "[DONE]") continue;
    chunks.push(JSON.parse(payload) as UIMessageChunk);
  }
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      // The reader merges parts in place; give it copies so `chunks` stays the raw wire sequence.
      for (const c of chunks) controller.enqueue(structuredClone(c));
      controller.close();
    },
  });
  const messages: UIMessage[] = [];
  for await (const m of readUIMessageStream({ stream })) messages.push(m);
  return { chunks, messages };
}

/** The questions of the slots that ended `final`, in stream order (one per final part). */
export function finalQuestions(chunks: readonly UIMessageChunk[]): TQuestion[] {
  return chunks.flatMap((c) => {
    if (c.type !== "data-question") return [];
    const data = (c as { data?: { status?: string; question?: TQuestion } }).data;
    return data?.status === "final" && data.question ? [data.question] : [];
  });
}
