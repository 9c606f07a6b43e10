"use client";

import { useChat } from "@ai-sdk/react";
import { useQueryClient } from "@tanstack/react-query";
import { DefaultChatTransport } from "ai";
import { useMemo, useState } from "react";
import type { TGenerationMessage } from "@/app/api/generation/route";
import type { TGenerationRequestInput } from "@/schema/generation.schema";
import { apiFetch } from "@/services/http";
import type { IGenerationErrorData, IGenerationSetData, TQuestionPartData } from "@/types/generation.types";

/** Readable text from a failed stream request (the server answers JSON errors before streaming). */
function readableError(err: Error | undefined): string | null {
  if (!err) return null;
  try {
    const body = JSON.parse(err.message) as { error?: { message?: string; details?: { message: string }[] } };
    if (body.error?.message)
      return [body.error.message, ...(body.error.details ?? []).map((d) => d.message)].join(" ");
  } catch {
    // not JSON: fall through
  }
  return err.message || "Generation failed";
}

/**
 * Streams a question set with the AI SDK's useChat over /api/generation: question parts keep
 * their slot's id, so each card updates in place from "generating" through the model's "draft"
 * (rewritten as it grows, or replaced when the quality gate refuses it) to "final" or "failed".
 * `stop` aborts the request, which stops the model calls on the server.
 */
export function useGeneration() {
  const [notices, setNotices] = useState<string[]>([]);
  const transport = useMemo(
    () =>
      new DefaultChatTransport<TGenerationMessage>({
        api: "/api/generation",
        prepareSendMessagesRequest: ({ body }) => ({ body: body ?? {} }),
      }),
    [],
  );
  const queryClient = useQueryClient();
  const chat = useChat<TGenerationMessage>({
    transport,
    onData: (part) => {
      if (part.type === "data-notice") setNotices((n) => [...n, part.data.message]);
      // The saved set becomes part of the query cache, so later views read it without refetching.
      if (part.type === "data-set") {
        void queryClient.prefetchQuery({
          queryKey: ["question-set", part.data.setId],
          queryFn: () => apiFetch(`/api/question-sets/${part.data.setId}`),
        });
      }
    },
  });
  const last = chat.messages.filter((m) => m.role === "assistant").at(-1);
  const parts = last?.parts ?? [];
  const questions = parts.filter((p) => p.type === "data-question").map((p) => p.data as TQuestionPartData);
  const errors = parts.filter((p) => p.type === "data-error").map((p) => p.data as IGenerationErrorData);
  const set = parts.find((p) => p.type === "data-set")?.data as IGenerationSetData | undefined;
  return {
    generate: (request: TGenerationRequestInput) => {
      setNotices([]);
      chat.setMessages([]);
      return chat.sendMessage({ text: "generate" }, { body: request });
    },
    stop: chat.stop,
    status: chat.status,
    error: readableError(chat.error),
    questions,
    errors,
    set,
    notices,
  };
}
