import { type DeepPartial, generateText, type LanguageModel, Output, type OutputInterface } from "ai";
import { questionPrompt, questionSystemPrompt } from "@/lib/ai/prompts/generation";
import { describeError } from "@/lib/log";
import { LlmQuestionSchema, type TGenerationRequest, type TLlmQuestion } from "@/schema/generation.schema";
import type { IContextChunk, IContextRef, ISlot, TQuestion } from "@/types/generation.types";
import { chunkKey, contextRef, overlap, passageSentences } from "./facts";
import { createOfflineGenerator } from "./offline-generator";
import { planSlots } from "./plan";
import { answerText, isAcceptable, stemKey, validateQuestion } from "./validate";

export interface IGenerationEvents {
  question(slot: ISlot, status: "generating" | "final" | "failed", question?: Partial<TQuestion>): void;
  progress(done: number, total: number, message: string): void;
  error(code: string, message: string, slotId?: string): void;
}

export interface IGenerationDeps {
  model: LanguageModel | null;
  timeoutMs: number;
  /** Past-paper questions of the subject, for the few-shot strategy (style only). */
  exemplars?: string[];
}

export interface IGenerationResult {
  questions: TQuestion[];
  slots: ISlot[];
  warnings: string[];
  generator: "llm" | "offline" | "mixed";
}

// One structured call per slot; the UI stream already delivers the set question by question.
const QUESTION_OUTPUT: OutputInterface<
  TLlmQuestion,
  DeepPartial<TLlmQuestion>,
  never
> = Output.object<TLlmQuestion>({
  schema: LlmQuestionSchema,
});

/** Best supporting sentence of a passage for an answer (the citation's quote). */
function quoteFor(chunk: IContextChunk, answer: string): string {
  let best = "";
  let score = -1;
  for (const s of passageSentences(chunk.content)) {
    const o = overlap(answer, s);
    if (o > score) {
      score = o;
      best = s;
    }
  }
  return best;
}

function fromLlm(slot: ISlot, out: TLlmQuestion, byKey: Map<string, IContextChunk>): TQuestion {
  const answer =
    slot.type === "mcq"
      ? (out.options?.[out.correctIndex ?? 0] ?? "")
      : `${out.suggestedAnswer ?? ""} ${(out.evaluatorKeywords ?? []).join(" ")}`;
  // Citations to passages that were not given are dropped here and flagged by validation.
  const refs: IContextRef[] = out.citations.flatMap((id) => {
    const c = byKey.get(id.trim());
    if (!c) return [{ documentId: id.split(":")[0] ?? id, chunkIndex: -1, title: "", quote: "" }];
    return [contextRef(c, quoteFor(c, answer))];
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
  if (slot.type === "short") {
    return {
      ...base,
      type: "short",
      suggestedAnswer: out.suggestedAnswer ?? "",
      evaluatorKeywords: out.evaluatorKeywords ?? [],
    };
  }
  return {
    ...base,
    type: "long",
    suggestedAnswer: out.suggestedAnswer ?? "",
    evaluatorKeywords: out.evaluatorKeywords ?? [],
    markingScheme: out.markingScheme ?? [],
  };
}

async function generateWithLlm(
  model: LanguageModel,
  timeoutMs: number,
  slot: ISlot,
  chunks: readonly IContextChunk[],
  request: TGenerationRequest,
  byKey: Map<string, IContextChunk>,
  exemplars: readonly string[],
  temperature: number,
): Promise<TQuestion> {
  const sources = slot.sourceKeys
    .slice(0, 4)
    .map((k) => byKey.get(k))
    .filter((c): c is IContextChunk => !!c);
  const { output } = await generateText({
    model,
    output: QUESTION_OUTPUT,
    system: questionSystemPrompt(request.strategy, request.language),
    prompt: questionPrompt(slot, sources.length ? sources : chunks.slice(0, 4), exemplars),
    temperature,
    maxRetries: 0,
    abortSignal: AbortSignal.timeout(timeoutMs * 3),
  });
  return fromLlm(slot, output, byKey);
}

/**
 * Plan → generate → validate each slot (regenerate once on failure) → report. With a language
 * model, each slot goes to the LLM with a timeout; any failure falls back to the offline
 * generator for that slot and says so. Questions that cannot be built from the evidence are
 * reported as failed slots, never invented.
 */
export async function runGeneration(
  deps: IGenerationDeps,
  chunks: readonly IContextChunk[],
  request: TGenerationRequest,
  events: IGenerationEvents,
  makeId: (index: number) => string,
): Promise<IGenerationResult> {
  const byKey = new Map(chunks.map((c) => [chunkKey(c), c]));
  const slots = planSlots(request.blueprint, chunks.map(chunkKey), makeId);
  const offline = createOfflineGenerator(chunks, request.seed ?? 1);
  const ctx = {
    givenKeys: new Set(byKey.keys()),
    chunkText: new Map([...byKey].map(([k, c]) => [k, c.content])),
    seenStems: new Set<string>(),
  };
  for (const prompt of request.avoidPrompts ?? []) ctx.seenStems.add(stemKey(prompt));
  const questions: TQuestion[] = [];
  const warnings: string[] = [];
  const sources = new Set<"llm" | "offline">();
  let llmFailures = 0;
  const exemplars = request.strategy === "few-shot" ? (deps.exemplars ?? []).slice(0, 5) : [];
  if (request.strategy === "few-shot" && exemplars.length === 0 && deps.model) {
    warnings.push("Few-shot: no past-paper (PYQ) questions for this subject yet; generated zero-shot.");
  }

  /**
   * One LLM question, or for self-consistency 2–3 samples: keep the valid sample whose answer
   * most samples agree on (the answer most often produced is the most reliable).
   */
  async function llmCandidate(model: LanguageModel, slot: ISlot): Promise<TQuestion> {
    const base = request.temperature ?? 0.4;
    if (request.strategy !== "self-consistency") {
      return generateWithLlm(model, deps.timeoutMs, slot, chunks, request, byKey, exemplars, base);
    }
    const n = request.samples ?? 3;
    const settled = await Promise.allSettled(
      Array.from({ length: n }, () =>
        generateWithLlm(model, deps.timeoutMs, slot, chunks, request, byKey, exemplars, Math.max(0.7, base)),
      ),
    );
    const samples = settled.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    if (samples.length === 0) throw (settled[0] as PromiseRejectedResult).reason;
    const key = (q: TQuestion) => stemKey(answerText(q));
    const votes = new Map<string, number>();
    for (const q of samples) votes.set(key(q), (votes.get(key(q)) ?? 0) + 1);
    const valid = samples.filter((q) =>
      isAcceptable(validateQuestion(q, { ...ctx, expectedLevel: slot.bloomLevel })),
    );
    const pool = valid.length ? valid : samples;
    return pool.sort((a, b) => (votes.get(key(b)) ?? 0) - (votes.get(key(a)) ?? 0))[0]!;
  }

  for (const slot of slots) {
    events.question(slot, "generating");
    let q: TQuestion | null = null;
    for (let attempt = 0; attempt < 2 && !q; attempt++) {
      let candidate: TQuestion | null = null;
      if (deps.model && llmFailures < 3) {
        try {
          candidate = await llmCandidate(deps.model, slot);
        } catch (err) {
          llmFailures++;
          events.error(
            "llm_failed",
            `The language model failed on this question (${describeError(err).slice(0, 100)}); using the offline generator.`,
            slot.id,
          );
        }
      }
      // The offline generator also stands in when the model's question fails validation twice.
      if (
        !candidate ||
        (attempt === 1 &&
          candidate.source === "llm" &&
          !isAcceptable(validateQuestion(candidate, { ...ctx, expectedLevel: slot.bloomLevel })))
      ) {
        candidate = offline.generate(slot, attempt);
      }
      if (!candidate) break;
      const validation = validateQuestion(candidate, { ...ctx, expectedLevel: slot.bloomLevel }, attempt > 0);
      candidate = { ...candidate, validation };
      const lastTry = attempt === 1;
      if (isAcceptable(validation) && (validation.bloomAgreed || lastTry)) q = candidate;
      else if (lastTry && isAcceptable(validation)) q = candidate;
    }
    if (!q) {
      events.question(slot, "failed");
      events.error(
        "insufficient_evidence",
        "Not enough distinct evidence in the selected passages for this question; it was not generated.",
        slot.id,
      );
      warnings.push(
        `Slot ${slot.index + 1} (${slot.type}, ${slot.bloomLevel}) was skipped: not enough distinct evidence.`,
      );
      continue;
    }
    ctx.seenStems.add(stemKey(q.promptText));
    sources.add(q.source);
    questions.push(q);
    events.question(slot, "final", q);
    events.progress(questions.length, slots.length, `${questions.length} of ${slots.length} questions ready`);
  }
  if (llmFailures > 0)
    warnings.push(`The language model failed ${llmFailures} time(s); the offline generator filled in.`);
  const generator = sources.size === 2 ? "mixed" : sources.has("llm") ? "llm" : "offline";
  return { questions, slots, warnings, generator };
}
