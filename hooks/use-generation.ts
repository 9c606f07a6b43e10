"use client";

import { useQueryClient } from "@tanstack/react-query";
import { DefaultChatTransport, readUIMessageStream, type UIMessageChunk } from "ai";
import { useCallback, useRef, useState } from "react";
import { AppError } from "@/lib/errors";
import type { TGenerationRequestInput } from "@/schema/generation.schema";
import { stopGeneration } from "@/services/generation.services";
import { apiFetch } from "@/services/http";
import type {
  IGenerationErrorData,
  IGenerationSetData,
  TGenerationMessage,
  TQuestion,
  TQuestionPartData,
} from "@/types/generation.types";

/** Every generation query key. */
export const generationKeys = {
  all: ["generation"] as const,
  set: (setId: string) => [...generationKeys.all, "set", setId] as const,
};

/**
 * POST /api/generation as an AI SDK UI message stream. The request body is the generation request
 * itself (no chat messages); an error answered before the stream starts (bad input, auth,
 * evidence) is thrown as the server's `AppError`.
 */
const transport = new DefaultChatTransport<TGenerationMessage>({
  api: "/api/generation",
  prepareSendMessagesRequest: ({ body }) => ({ body: body ?? {} }),
  fetch: async (input, init) => {
    const res = await fetch(input, init);
    if (!res.ok) throw AppError.fromBody(res.status, await res.json().catch(() => null));
    return res;
  },
});

/**
 * The one stream reader for generation: yields the assistant message each time a part arrives
 * (question parts keep their slot's id, so a slot's card is rewritten in place). Transient
 * `data-notice` parts are not kept in the message; they go to `onNotice`.
 */
export async function* readGeneration(
  request: TGenerationRequestInput,
  options: { signal?: AbortSignal; onNotice?: (message: string) => void } = {},
): AsyncGenerator<TGenerationMessage> {
  const chunks = await transport.sendMessages({
    trigger: "submit-message",
    chatId: "generation",
    messageId: undefined,
    messages: [],
    abortSignal: options.signal,
    body: request,
  });
  const notices = new TransformStream<UIMessageChunk, UIMessageChunk>({
    transform(chunk, controller) {
      if (chunk.type === "data-notice") options.onNotice?.((chunk.data as { message: string }).message);
      controller.enqueue(chunk);
    },
  });
  yield* readUIMessageStream<TGenerationMessage>({
    stream: chunks.pipeThrough(notices),
    terminateOnError: true,
  });
}

/** The parts of a streamed generation message, by kind. */
export function generationParts(message: TGenerationMessage | null) {
  const parts = message?.parts ?? [];
  return {
    questions: parts.flatMap((p) => (p.type === "data-question" ? [p.data as TQuestionPartData] : [])),
    errors: parts.flatMap((p) => (p.type === "data-error" ? [p.data as IGenerationErrorData] : [])),
    set: parts.find((p) => p.type === "data-set")?.data as IGenerationSetData | undefined,
  };
}

/** Readable text of a failed generation: the server's message and its field messages. */
function readableError(err: unknown): string {
  if (err instanceof AppError) return [err.message, ...(err.details ?? []).map((d) => d.message)].join(" ");
  return err instanceof Error && err.message ? err.message : "Generation failed";
}

/** A run id for the server (none where `crypto.randomUUID` is missing: then a reload stops the set). */
const newRunId = (): string | null =>
  typeof crypto !== "undefined" && typeof crypto.randomUUID === "function" ? crypto.randomUUID() : null;

const isAbort = (err: unknown) => err instanceof DOMException && err.name === "AbortError";

export type TGenerationStatus = "ready" | "submitted" | "streaming" | "error";

/**
 * Streams a question set: each card updates in place from "generating" through the model's
 * "draft" (rewritten as it grows, or replaced when the quality gate refuses it) to "final" or
 * "failed". `stop` tells the server to stop the run (its model calls stop, nothing is saved) and
 * aborts the request; what arrived stays on screen. A reload is not a stop: the server finishes
 * and saves the set, and the builder offers it afterwards.
 */
export function useGeneration() {
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<TGenerationMessage | null>(null);
  const [status, setStatus] = useState<TGenerationStatus>("ready");
  const [error, setError] = useState<string | null>(null);
  const [notices, setNotices] = useState<string[]>([]);
  // Not aborted on unmount: going back to the results lets a started set finish and be saved.
  const abort = useRef<AbortController | null>(null);
  // The running set's id: Stop tells the server by it, so a reload (the reader only going away)
  // is not taken for a Stop and the server finishes and saves the set.
  const runId = useRef<string | null>(null);

  /** The teacher's Stop (or a new set replacing the running one): cancels on the server too. */
  const stop = useCallback(() => {
    if (runId.current) void stopGeneration(runId.current).catch(() => undefined);
    runId.current = null;
    abort.current?.abort();
  }, []);

  const generate = useCallback(
    async (request: TGenerationRequestInput) => {
      stop();
      const controller = new AbortController();
      abort.current = controller;
      const id = newRunId();
      runId.current = id;
      setNotices([]);
      setMessage(null);
      setError(null);
      setStatus("submitted");
      let prefetched = false;
      try {
        const stream = readGeneration(id ? { ...request, runId: id } : request, {
          signal: controller.signal,
          onNotice: (n) => setNotices((cur) => [...cur, n]),
        });
        for await (const snapshot of stream) {
          if (controller.signal.aborted) break;
          setStatus("streaming");
          setMessage(snapshot);
          const set = generationParts(snapshot).set;
          // The saved set becomes part of the query cache, so later views read it without refetching.
          if (set && !prefetched) {
            prefetched = true;
            void queryClient.prefetchQuery({
              queryKey: generationKeys.set(set.setId),
              queryFn: () => apiFetch(`/api/question-sets/${set.setId}`),
            });
          }
        }
        if (abort.current === controller) setStatus("ready");
        if (runId.current === id) runId.current = null;
      } catch (err) {
        if (runId.current === id) runId.current = null;
        if (abort.current !== controller) return;
        if (isAbort(err) || controller.signal.aborted) setStatus("ready");
        else {
          setError(readableError(err));
          setStatus("error");
        }
      }
    },
    [queryClient, stop],
  );

  return {
    generate,
    stop,
    status,
    error,
    ...generationParts(message),
    notices,
  };
}

/**
 * "Regenerate": a one-slot generation read with the same stream reader; resolves with the final
 * question, or fails with the server's error or when none could be written from the context.
 */
export async function regenerateOne(request: TGenerationRequestInput): Promise<TQuestion> {
  let final: TQuestion | null = null;
  for await (const snapshot of readGeneration(request)) {
    for (const q of generationParts(snapshot).questions)
      if (q.status === "final" && q.question) final = q.question as TQuestion;
  }
  if (!final) throw new AppError("unprocessable", "No new question could be generated from this context.");
  return final;
}
