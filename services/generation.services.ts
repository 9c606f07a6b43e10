import {
  generationSupportContract,
  getQuestionSetContract,
  listQuestionSetsContract,
  patchQuestionContract,
  stopGenerationContract,
} from "@/contracts/generation.contract";
import { AppError } from "@/lib/errors";
import type { TGenerationRequestInput } from "@/schema/generation.schema";
import type { TQuestion, TQuestionPartData } from "@/types/generation.types";
import { apiFetch } from "./http";

/**
 * One-question generation for "Regenerate": posts a single-slot blueprint and returns the final
 * question from the UI message stream (Server-Sent Events of JSON chunks).
 */
export async function regenerateQuestion(request: TGenerationRequestInput): Promise<TQuestion> {
  const res = await fetch("/api/generation", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(request),
  });
  if (!res.ok) throw AppError.fromBody(res.status, await res.json().catch(() => null));
  const text = await res.text();
  let final: TQuestion | null = null;
  for (const line of text.split("\n")) {
    if (!line.startsWith("data: ") || line.includes("[DONE]")) continue;
    const chunk = JSON.parse(line.slice(6)) as { type: string; data?: TQuestionPartData };
    if (chunk.type === "data-question" && chunk.data?.status === "final" && chunk.data.question) {
      final = chunk.data.question as TQuestion;
    }
  }
  if (!final) throw new AppError("unprocessable", "No new question could be generated from this context.");
  return final;
}

export const patchQuestion = (
  id: string,
  body: { status?: "draft" | "approved" | "rejected"; promptText?: string },
) => apiFetch(patchQuestionContract, { params: { id }, body });

/** A saved question set with its questions. */
export const getQuestionSet = (id: string) => apiFetch(getQuestionSetContract, { params: { id } });

/** What the selected passages can support per question type and Bloom level, before generating. */
export const getGenerationSupport = (context: { documentId: string; chunkIndex: number }[]) =>
  apiFetch(generationSupportContract, { body: { context } });

/** The caller's recent sets, newest first. */
export const listQuestionSets = (limit = 10) =>
  apiFetch(listQuestionSetsContract, { query: { limit: String(limit) } });

/** The teacher's Stop for the run started with `runId`: nothing of it is saved. */
export const stopGeneration = (runId: string) => apiFetch(stopGenerationContract, { body: { runId } });
