import { randomUUID } from "node:crypto";
import { createUIMessageStream, createUIMessageStreamResponse } from "ai";
import { generationContract } from "@/contracts/generation.contract";
import { getEmbedder } from "@/lib/ai/embedder";
import { getLanguageModel, getLlmTimeoutMs, getQuestionModel } from "@/lib/ai/providers";
import { getConfig } from "@/lib/config/env";
import { getDb } from "@/lib/db";
import { runInBackground } from "@/lib/db/background";
import { ensureEvidence } from "@/lib/generation/evidence";
import { registerRun } from "@/lib/generation/runs";
import { loadContext, loadExemplars, loadScope, saveQuestionSet } from "@/lib/generation/store";
import { withConcurrencySlot } from "@/lib/http/rate-limit";
import { handle, type IHandlerInput } from "@/lib/http/route";
import { describeError, log } from "@/lib/log";
import { plural } from "@/lib/text/plural";
import { runGenerationIsolated } from "@/lib/workers/generation";
import type { TGenerationMessage } from "@/types/generation.types";

/**
 * The stream, telling `onCancel` when its reader goes away (a runtime without request signals).
 * With `finishWhenDropped` (a run the client can stop by its `runId`) a reader going away does not
 * cancel: the set is read to its end here and saved; the returned promise settles when it is, so
 * the user's generation slot stays held until then.
 */
function cancellable<T>(
  source: ReadableStream<T>,
  onCancel: () => void,
  finishWhenDropped: boolean,
): ReadableStream<T> {
  const reader = source.getReader();
  return new ReadableStream<T>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      if (finishWhenDropped) {
        log.info("generation.reader_gone", { finishing: true });
        return drain(reader);
      }
      onCancel();
      return reader.cancel(reason);
    },
  });
}

async function drain<T>(reader: ReadableStreamDefaultReader<T>): Promise<void> {
  try {
    while (!(await reader.read()).done) {
      // Nobody reads the parts any more; the set is still saved at the end of the stream.
    }
  } catch (err) {
    log.error("generation.drain_failed", { error: describeError(err) });
  }
}

/**
 * Streams a question set as an AI SDK UI message stream: one `data-question` part per slot
 * (stable id; generating → draft while a language model writes it → final | failed, rewritten in
 * place), `data-progress`, structured `data-error` parts, and a last `data-set` part with the id
 * of the persisted set. Bad input, auth and evidence problems are answered as JSON errors before
 * the stream starts. A request with a `runId` is stopped only by `POST /api/generation/stop`
 * (the teacher's Stop: the model calls stop and nothing is saved); when its reader just goes away
 * (a reload, a closed tab) the set is finished and saved, so the builder can offer it after the
 * reload. Without a `runId` the reader going away is the Stop, as before.
 */
export const POST = handle(generationContract, (input) =>
  // One of this user's concurrent generations (429 past the cap), held until the stream ends.
  withConcurrencySlot(input.principal, "generation", () => generate(input)),
);

async function generate({
  request,
  principal,
  body,
  rateHeaders,
}: IHandlerInput<typeof generationContract>): Promise<Response> {
  // Registered first, so a Stop while the passages are checked is not lost.
  const cancel = new AbortController();
  const stop = () => cancel.abort(request.signal.reason ?? new DOMException("cancelled", "AbortError"));
  const runId = body.runId;
  const unregister = runId ? registerRun(principal.userId, runId, stop) : () => {};
  try {
    return await start({ request, principal, body, rateHeaders }, cancel, stop, unregister);
  } catch (err) {
    unregister();
    throw err;
  }
}

async function start(
  {
    request,
    principal,
    body,
    rateHeaders,
  }: Omit<IHandlerInput<typeof generationContract>, "params" | "query">,
  cancel: AbortController,
  stop: () => void,
  unregister: () => void,
): Promise<Response> {
  const db = await getDb();
  const model = getLanguageModel();
  const timeoutMs = getLlmTimeoutMs();
  // This request's statements give way to other requests' (embedded mode: PGlite runs one
  // statement at a time for the whole process): each step waits for a quiet moment first, and its
  // statements do not count as the app's own, so a flood of sets cannot keep another teacher's
  // retrieval queued behind it (issue 26). On Postgres both are no-ops.
  const step = <T>(fn: () => Promise<T>): Promise<T> =>
    runInBackground(async () => {
      await db.yieldToForeground();
      return fn();
    });
  const selected = await step(() => loadContext(db, principal.userId, body.context));
  const evidence = await step(() =>
    ensureEvidence(
      { db, embedder: getEmbedder(), model: null, llmTimeoutMs: timeoutMs },
      principal.userId,
      body,
      selected,
      { model, timeoutMs },
    ),
  );

  // One past-paper read: the few-shot exemplars are its first five (what loadExemplars' default gives).
  const pastQuestions = await step(() => loadExemplars(db, principal.userId, body.filters, 40));
  const exemplars = body.strategy === "few-shot" ? pastQuestions.slice(0, 5) : [];
  const scope = await step(() =>
    loadScope(
      db,
      principal.userId,
      evidence.chunks.map((c) => c.documentId),
    ),
  );

  // Without a runId, Stop is the client aborting its fetch: the request's signal stops every model
  // call. With one, only the stop endpoint does (see `cancellable`).
  const finishWhenDropped = body.runId !== undefined;
  if (!finishWhenDropped) {
    request.signal.addEventListener("abort", stop, { once: true });
    // Gone already while the evidence was checked: nothing to generate for.
    if (request.signal.aborted) stop();
  }
  const stream = createUIMessageStream<TGenerationMessage>({
    execute: async ({ writer }) => {
      for (const message of evidence.warnings)
        writer.write({ type: "data-notice", data: { message }, transient: true });
      writer.write({
        type: "data-progress",
        id: "progress",
        data: { stage: "generating", done: 0, total: 0, message: "Planning questions" },
      });
      // Offline runs go to the worker pool (lib/workers/generation.ts).
      const result = await runGenerationIsolated(
        {
          model: await getQuestionModel(request),
          timeoutMs,
          exemplars,
          scope,
          pastQuestions,
          concurrency: getConfig().generationConcurrency,
          signal: cancel.signal,
          providerDown: evidence.providerDown,
        },
        evidence.chunks,
        body,
        {
          question: (slot, update) =>
            writer.write({ type: "data-question", id: slot.id, data: { slot, ...update } }),
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
      request.signal.removeEventListener("abort", stop);
      unregister();
      if (result.cancelled) {
        // Nobody reads the stream any more; a half set saved unseen would only clutter "earlier sets".
        log.info("generation.cancelled", { accepted: result.questions.length, slots: result.slots.length });
        return;
      }
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
      // The run id is the client's handle on this request, not part of what the set was made from.
      const { runId: _runId, ...stored } = body;
      const setId = await step(() =>
        saveQuestionSet(db, {
          userId: principal.userId,
          request: stored,
          questions: result.questions,
          generator: result.generator,
          warnings,
          title: `${body.filters.subject}: ${plural(result.questions.length, "question")}`,
        }),
      );
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
      unregister();
      log.error("generation.stream_failed", { error: describeError(err) });
      return "Generation stopped because of an internal error; nothing was saved.";
    },
  });
  const response = createUIMessageStreamResponse({ stream, headers: rateHeaders });
  // The encoded body itself is wrapped, so a drained run's cancel settles only when the set is saved.
  if (!response.body) return response;
  return new Response(cancellable(response.body, stop, finishWhenDropped), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
