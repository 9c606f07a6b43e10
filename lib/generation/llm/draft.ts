import { type DeepPartial, type LanguageModel, Output, type OutputInterface, streamText } from "ai";
import { questionPrompt, questionSystemPrompt } from "@/lib/ai/prompts/generation";
import { isProviderOutage } from "@/lib/ai/provider-guard";
import { LlmQuestionSchema, type TGenerationRequest, type TLlmQuestion } from "@/schema/generation.schema";
import type {
  EDraftField,
  IContextChunk,
  IContextRef,
  IQuestionDraft,
  ISlot,
  TQuestion,
} from "@/types/generation.types";
import { coverage, stemSet } from "../gate/text";
import { contextRef, passageSentences } from "../offline/knowledge/sentences";

/**
 * One language-model question per slot, streamed: `streamText` with `Output.object` gives the
 * question as it grows (`partialOutputStream`) and, at the end, the whole object checked against
 * the schema (`output`). The partial objects become drafts the teacher watches being written; only
 * the complete object goes to the quality gate.
 */

// Typed explicitly: letting TypeScript infer `Output.object`'s generics from the zod schema inside
// the `streamText` call is what produced "Expression produces a union type that is too complex
// to represent"; with the interface spelled out the call checks in one step.
const QUESTION_OUTPUT: OutputInterface<
  TLlmQuestion,
  DeepPartial<TLlmQuestion>,
  never
> = Output.object<TLlmQuestion>({ schema: LlmQuestionSchema });

/**
 * The passages with near-identical text held once (the same section ingested in two documents,
 * a passage repeated in a summary): the first of each keeps its place. Two passages are the same
 * text when each holds at least 90 % of the other's content words.
 */
export function distinctPassages<T extends { content: string }>(chunks: readonly T[]): T[] {
  const kept: { chunk: T; stems: Set<string> }[] = [];
  for (const chunk of chunks) {
    const stems = stemSet(chunk.content);
    if (kept.some((k) => coverage(stems, k.stems) >= 0.9 && coverage(k.stems, stems) >= 0.9)) continue;
    kept.push({ chunk, stems });
  }
  return kept.map((k) => k.chunk);
}

/** Best supporting sentence of a passage for an answer (the citation's quote). */
function quoteFor(chunk: IContextChunk, answer: string): string {
  let best = "";
  let score = -1;
  for (const s of passageSentences(chunk.content)) {
    const o = coverage(answer, s);
    if (o > score) {
      score = o;
      best = s;
    }
  }
  return best;
}

/** The model's object as a question of the slot, not yet validated (the gate does that). */
export function fromLlm(
  slot: ISlot,
  out: TLlmQuestion,
  byKey: ReadonlyMap<string, IContextChunk>,
): TQuestion {
  const answer =
    slot.type === "mcq"
      ? (out.options?.[out.correctIndex ?? 0] ?? "")
      : `${out.suggestedAnswer ?? ""} ${(out.evaluatorKeywords ?? []).join(" ")}`;
  // Citations to passages that were not given stay visible to the gate, which refuses them.
  const refs: IContextRef[] = out.citations.flatMap((id) => {
    const c = byKey.get(id.trim());
    if (!c) return [{ documentId: id.split(":")[0] ?? id, chunkIndex: -1, title: "", quote: "" }];
    return [contextRef(c, quoteFor(c, `${out.promptText} ${answer}`))];
  });
  const base = {
    id: slot.id,
    bloomLevel: slot.bloomLevel,
    promptText: out.promptText,
    marks: slot.marks,
    difficulty: slot.difficulty,
    contextRefs: refs,
    validation: { citationsOk: false, supported: false, bloomAgreed: false, regenerated: false, flags: [] },
    source: "llm" as const,
  };
  if (slot.type === "mcq") {
    return {
      ...base,
      type: "mcq",
      options: out.options ?? [],
      correctIndex: out.correctIndex ?? -1,
      explanation: out.explanation ?? "",
      distractorRationales: out.distractorRationales ?? [],
    };
  }
  const scheme = out.markingScheme ?? [];
  if (slot.type === "short") {
    return {
      ...base,
      type: "short",
      suggestedAnswer: out.suggestedAnswer ?? "",
      evaluatorKeywords: out.evaluatorKeywords ?? [],
      ...(scheme.length ? { markingScheme: scheme } : {}),
    };
  }
  return {
    ...base,
    type: "long",
    suggestedAnswer: out.suggestedAnswer ?? "",
    evaluatorKeywords: out.evaluatorKeywords ?? [],
    markingScheme: scheme,
  };
}

const FIELD: Record<keyof TLlmQuestion, EDraftField> = {
  promptText: "stem",
  options: "options",
  correctIndex: "answer",
  explanation: "explanation",
  distractorRationales: "rationales",
  suggestedAnswer: "answer",
  evaluatorKeywords: "keywords",
  markingScheme: "scheme",
  citations: "citations",
};

const isString = (v: unknown): v is string => typeof v === "string";

/**
 * The visible part of a partial object: the stem (and other running text) as it grows, list
 * items only once complete. The partial is parsed from the text so far, so its keys come in the
 * order the model wrote them: the last key is the one still being written, and only its last list
 * item can be unfinished.
 */
export function draftOf(
  partial: DeepPartial<TLlmQuestion>,
  attempt: number,
  given: ReadonlyMap<string, unknown>,
): IQuestionDraft {
  const keys = Object.keys(partial) as (keyof TLlmQuestion)[];
  const open = keys.at(-1);
  const done = <T>(key: keyof TLlmQuestion, list: readonly (T | undefined)[] | null | undefined) =>
    Array.isArray(list) ? (key === open ? list.slice(0, -1) : list) : undefined;
  const strings = (key: keyof TLlmQuestion, list: readonly (string | undefined)[] | null | undefined) =>
    done(key, list)?.filter(isString);
  const text = (v: unknown) => (isString(v) ? v : undefined);
  const draft: IQuestionDraft = {
    attempt,
    writing: open ? FIELD[open] : "stem",
    promptText: text(partial.promptText) ?? "",
  };
  const options = strings("options", partial.options);
  if (options?.length) draft.options = options;
  if (typeof partial.correctIndex === "number" && open !== "correctIndex")
    draft.correctIndex = partial.correctIndex;
  const explanation = text(partial.explanation);
  if (explanation) draft.explanation = explanation;
  const rationales = strings("distractorRationales", partial.distractorRationales);
  if (rationales?.length) draft.distractorRationales = rationales;
  const answer = text(partial.suggestedAnswer);
  if (answer) draft.suggestedAnswer = answer;
  const keywords = strings("evaluatorKeywords", partial.evaluatorKeywords);
  if (keywords?.length) draft.evaluatorKeywords = keywords;
  const scheme = done("markingScheme", partial.markingScheme)?.filter(
    (m): m is { point: string; marks: number } => isString(m?.point) && typeof m?.marks === "number",
  );
  if (scheme?.length) draft.markingScheme = scheme.map(({ point, marks }) => ({ point, marks }));
  // Only ids of passages that were given: a half-written or invented id is not shown as a citation.
  const citations = strings("citations", partial.citations)?.filter((id) => given.has(id.trim()));
  if (citations?.length) draft.citations = citations.map((id) => id.trim());
  return draft;
}

export interface ILlmCall {
  model: LanguageModel;
  timeoutMs: number;
  slot: ISlot;
  chunks: readonly IContextChunk[];
  request: TGenerationRequest;
  byKey: ReadonlyMap<string, IContextChunk>;
  exemplars: readonly string[];
  temperature: number;
  /** Why the previous draft was refused, for a regeneration. */
  feedback?: readonly string[];
  /** 1 for the first draft, 2 for the rewrite. */
  attempt: number;
  /** Stops the call: the teacher cancelled, or the request went offline. */
  signal?: AbortSignal;
  /** Receives the draft each time more of it is complete. */
  onDraft?: (draft: IQuestionDraft) => void;
}

/** The model wrote nothing for too long, or did not finish in time: treated like a provider timeout. */
export function isModelTimeout(err: unknown): boolean {
  return (err as { name?: string } | null)?.name === "TimeoutError";
}

const timeoutError = (message: string) => new DOMException(message, "TimeoutError");

/**
 * Streams one question from the model. Time limits: the model must write something within
 * `timeoutMs` of the call and of its last output (a provider that stops mid-question is not
 * waited for), and finish within three times that. A timeout, the caller's abort, a provider
 * outage or output that does not parse into the schema rejects; the caller decides what replaces
 * the draft.
 */
export async function streamLlmQuestion(c: ILlmCall): Promise<TQuestion> {
  const deadline = new AbortController();
  const signal = c.signal ? AbortSignal.any([c.signal, deadline.signal]) : deadline.signal;
  const silence = () => deadline.abort(timeoutError(`The model wrote nothing for ${c.timeoutMs} ms`));
  let idle = setTimeout(silence, c.timeoutMs);
  const total = setTimeout(
    () => deadline.abort(timeoutError(`The model did not finish the question within ${3 * c.timeoutMs} ms`)),
    3 * c.timeoutMs,
  );
  // A stream whose source ignores the abort (a stalled connection, a mock) must not hold the slot:
  // every wait below races this promise.
  const aborted = new Promise<never>((_, reject) => {
    const fail = () => reject(signal.reason);
    if (signal.aborted) fail();
    else signal.addEventListener("abort", fail, { once: true });
  });
  aborted.catch(() => undefined);
  let streamError: unknown;
  const sources = distinctPassages(
    c.slot.sourceKeys.map((k) => c.byKey.get(k)).filter((x): x is IContextChunk => !!x),
  ).slice(0, 4);
  const result = streamText({
    model: c.model,
    output: QUESTION_OUTPUT,
    system: questionSystemPrompt(c.request.strategy, c.request.language),
    prompt: questionPrompt(
      c.slot,
      sources.length ? sources : distinctPassages(c.chunks).slice(0, 4),
      c.exemplars,
      c.feedback,
    ),
    temperature: c.temperature,
    maxRetries: 0,
    abortSignal: signal,
    // Errors arrive as stream parts; kept to be rethrown (the SDK would otherwise log them).
    onError: ({ error }) => {
      streamError ??= error;
    },
  });
  const partials = result.partialOutputStream[Symbol.asyncIterator]();
  let finished = false;
  let shown = "";
  try {
    for (;;) {
      const next = await Promise.race([partials.next(), aborted]);
      if (next.done) break;
      clearTimeout(idle);
      idle = setTimeout(silence, c.timeoutMs);
      const draft = draftOf(next.value, c.attempt, c.byKey);
      // Only news: a partial whose visible part did not change (a half-written option, an open
      // quote) or that shows nothing yet is not sent.
      const seen = JSON.stringify(draft);
      if (seen !== shown && (draft.promptText !== "" || Object.keys(draft).length > 3)) {
        shown = seen;
        c.onDraft?.(draft);
      }
    }
    if (streamError) throw streamError;
    const output = await Promise.race([result.output, aborted]);
    finished = true;
    return fromLlm(c.slot, output, c.byKey);
  } catch (err) {
    // The breaker's verdict (an outage) says more than the abort it caused.
    if (isProviderOutage(streamError)) throw streamError;
    throw signal.aborted ? signal.reason : (streamError ?? err);
  } finally {
    clearTimeout(idle);
    clearTimeout(total);
    // Stops the provider's response when the draft is abandoned (refused output, timeout).
    if (!finished && !deadline.signal.aborted)
      deadline.abort(new DOMException("draft abandoned", "AbortError"));
    partials.return?.().catch(() => undefined);
  }
}

/**
 * Draft updates for one slot at most every `intervalMs`: the first at once (the teacher sees the
 * first words as soon as they exist), later ones coalesced, so a fast model does not send a full
 * snapshot per token. `cancel` drops a pending update: nothing stale may follow the gate's decision.
 */
export function throttleDrafts(emit: (draft: IQuestionDraft) => void, intervalMs = 50) {
  let last = -Infinity;
  let pending: IQuestionDraft | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let shown = false;
  const flush = () => {
    timer = null;
    if (!pending) return;
    last = performance.now();
    shown = true;
    emit(pending);
    pending = null;
  };
  return {
    push(draft: IQuestionDraft) {
      pending = draft;
      const wait = last + intervalMs - performance.now();
      if (wait <= 0) flush();
      else timer ??= setTimeout(flush, wait);
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
      pending = null;
    },
    /** Whether any draft reached the teacher (it must then be replaced). */
    get shown() {
      return shown;
    },
  };
}
