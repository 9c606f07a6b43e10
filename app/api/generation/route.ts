import { randomUUID } from "node:crypto";
import { createUIMessageStream, createUIMessageStreamResponse, type UIMessage } from "ai";
import { getEmbedder } from "@/lib/ai/embedder";
import { getLanguageModel, getLlmTimeoutMs } from "@/lib/ai/providers";
import { authorize } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { ensureEvidence } from "@/lib/generation/evidence";
import { runGeneration } from "@/lib/generation/run";
import { loadContext, loadExemplars, loadScope, saveQuestionSet } from "@/lib/generation/store";
import { handle, parseJson } from "@/lib/http/handler";
import { enforceRateLimit } from "@/lib/http/rate-limit";
import { describeError, log } from "@/lib/log";
import { GenerationRequestSchema } from "@/schema/generation.schema";
import type { TGenerationDataParts } from "@/types/generation.types";

export type TGenerationMessage = UIMessage<never, TGenerationDataParts>;

/**
 * Streams a question set as an AI SDK UI message stream: one `data-question` part per slot
 * (stable id, updated until final), `data-progress`, structured `data-error` parts, and a last
 * `data-set` part with the id of the persisted set. Bad input, auth and evidence problems are
 * answered as JSON errors before the stream starts.
 */
export const POST = handle("generation", async (request) => {
  const principal = await authorize(request, { roles: ["teacher", "admin"], scope: "generation:write" });
  const body = await parseJson(request, GenerationRequestSchema);
  const rate = await enforceRateLimit(principal, "generation");
  const db = await getDb();
  const model = getLanguageModel();
  const timeoutMs = getLlmTimeoutMs();
  const selected = await loadContext(db, principal.userId, body.context);
  const evidence = await ensureEvidence(
    { db, embedder: getEmbedder(), model: null, llmTimeoutMs: timeoutMs },
    principal.userId,
    body,
    selected,
    { model, timeoutMs },
  );

  const exemplars =
    body.strategy === "few-shot" ? await loadExemplars(db, principal.userId, body.filters) : [];
  const pastQuestions = await loadExemplars(db, principal.userId, body.filters, 40);
  const scope = await loadScope(
    db,
    principal.userId,
    evidence.chunks.map((c) => c.documentId),
  );

  const stream = createUIMessageStream<TGenerationMessage>({
    execute: async ({ writer }) => {
      for (const message of evidence.warnings)
        writer.write({ type: "data-notice", data: { message }, transient: true });
      writer.write({
        type: "data-progress",
        id: "progress",
        data: { stage: "generating", done: 0, total: 0, message: "Planning questions" },
      });
      const result = await runGeneration(
        { model, timeoutMs, exemplars, scope, pastQuestions },
        evidence.chunks,
        body,
        {
          question: (slot, status, question, reason) =>
            writer.write({
              type: "data-question",
              id: slot.id,
              data: { slot, status, ...(question ? { question } : {}), ...(reason ? { reason } : {}) },
            }),
          progress: (done, total, message) =>
            writer.write({
              type: "data-progress",
              id: "progress",
              data: { stage: "generating", done, total, message },
            }),
          error: (code, message, slotId) =>
            writer.write({ type: "data-error", data: { code, message, ...(slotId ? { slotId } : {}) } }),
        },
        () => randomUUID(),
      );
      writer.write({
        type: "data-progress",
        id: "progress",
        data: {
          stage: "persisting",
          done: result.questions.length,
          total: result.slots.length,
          message: "Saving the set",
        },
      });
      const warnings = [...evidence.warnings, ...result.warnings];
      const setId = await saveQuestionSet(db, {
        userId: principal.userId,
        request: body,
        questions: result.questions,
        generator: result.generator,
        warnings,
        title: `${body.filters.subject}: ${result.questions.length} questions`,
      });
      writer.write({
        type: "data-progress",
        id: "progress",
        data: { stage: "done", done: result.questions.length, total: result.slots.length, message: "Done" },
      });
      writer.write({
        type: "data-set",
        data: { setId, generated: result.questions.length, requested: result.slots.length, warnings },
      });
    },
    onError: (err) => {
      log.error("generation.stream_failed", { error: describeError(err) });
      return "Generation stopped because of an internal error; nothing was saved.";
    },
  });
  return createUIMessageStreamResponse({ stream, headers: rate.headers });
});
