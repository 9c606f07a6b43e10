import { type DeepPartial, generateText, type LanguageModel, Output, type OutputInterface } from "ai";
import { questionPrompt, questionSystemPrompt } from "@/lib/ai/prompts/generation";
import { guardModel, isProviderOutage, isRequestOffline, markRequestOffline } from "@/lib/ai/provider-guard";
import { describeError } from "@/lib/log";
import { LlmQuestionSchema, type TGenerationRequest, type TLlmQuestion } from "@/schema/generation.schema";
import { BLOOM_LEVELS, type EBloomLevel } from "@/types/bloom.types";
import type { IContextChunk, IContextRef, ISlot, TQuestion } from "@/types/generation.types";
import { classifyBloom } from "./bloom-classifier";
import { LEVEL_NEEDS } from "./forms";
import { mulberry32, shuffle } from "./forms/common";
import {
  createGateContext,
  gateQuestion,
  type IGateContext,
  type IGateFinding,
  type IGateResult,
} from "./gate";
import { coverage, stemSet } from "./gate/text";
import { chunkKey, contextRef, mainSections, passageSentences, sectionKeyOf } from "./knowledge/sentences";
import { createOfflineGenerator } from "./offline-generator";
import { planSlots } from "./plan";

export interface IGenerationEvents {
  question(
    slot: ISlot,
    status: "generating" | "final" | "failed",
    question?: Partial<TQuestion>,
    reason?: string,
  ): void;
  progress(done: number, total: number, message: string): void;
  error(code: string, message: string, slotId?: string): void;
}

export interface IGenerationDeps {
  model: LanguageModel | null;
  timeoutMs: number;
  /** Past-paper questions of the subject, for the few-shot strategy (style only). */
  exemplars?: string[];
  /** The chapter(s) the passages belong to: wrong options for the offline generator, never cited. */
  scope?: readonly IContextChunk[];
  /** Past-paper (PYQ) questions of the subject, offered where a slot stays empty. */
  pastQuestions?: readonly string[];
  /** Offline candidates the gate may read per slot before the slot is given up (default 40). */
  maxCandidates?: number;
}

/** Why a slot was left empty: counted gate findings, or the material the passages lack. */
export interface ISlotGap {
  slotId: string;
  type: ISlot["type"];
  level: EBloomLevel;
  reason: string;
  rejections: Partial<Record<IGateFinding["flag"], number>>;
}

export interface IGenerationResult {
  questions: TQuestion[];
  slots: ISlot[];
  warnings: string[];
  generator: "llm" | "offline" | "mixed";
  gaps: ISlotGap[];
  /** Every candidate the gate refused, by flag (the eval reports them). */
  rejections: Partial<Record<IGateFinding["flag"], number>>;
  /** The passages questions could cite: the selection, then the rest of its section. */
  passages: IContextChunk[];
}

// One structured call per slot; the UI stream delivers the set question by question.
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
    const o = coverage(answer, s);
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

interface ILlmCall {
  model: LanguageModel;
  timeoutMs: number;
  slot: ISlot;
  chunks: readonly IContextChunk[];
  request: TGenerationRequest;
  byKey: Map<string, IContextChunk>;
  exemplars: readonly string[];
  temperature: number;
  /** Why the previous draft was refused, for a regeneration. */
  feedback?: readonly string[];
}

async function generateWithLlm(c: ILlmCall): Promise<TQuestion> {
  const sources = c.slot.sourceKeys
    .slice(0, 4)
    .map((k) => c.byKey.get(k))
    .filter((x): x is IContextChunk => !!x);
  const { output } = await generateText({
    model: c.model,
    output: QUESTION_OUTPUT,
    system: questionSystemPrompt(c.request.strategy, c.request.language),
    prompt: questionPrompt(c.slot, sources.length ? sources : c.chunks.slice(0, 4), c.exemplars, c.feedback),
    temperature: c.temperature,
    maxRetries: 0,
    abortSignal: AbortSignal.timeout(c.timeoutMs * 3),
  });
  return fromLlm(c.slot, output, c.byKey);
}

export const PROVIDER_DOWN_MESSAGE =
  "The model provider is not responding, so the offline generator is answering for this set.";

/** Key positions for the set's MCQs: each of A–D equally often, in a seeded order. */
function keyPositions(count: number, seed: number): number[] {
  const base = Array.from({ length: Math.ceil(count / 4) * 4 }, (_, i) => i % 4);
  return shuffle(base, mulberry32(seed ^ 0x9e3779b9)).slice(0, count);
}

/** Documents of the top passage and of any holding a quarter of the selection: the request's topic. */
function mainDocuments(chunks: readonly IContextChunk[]): string[] {
  const counts = new Map<string, number>();
  for (const c of chunks) counts.set(c.documentId, (counts.get(c.documentId) ?? 0) + 1);
  return [
    ...new Set([
      ...(chunks[0] ? [chunks[0].documentId] : []),
      ...[...counts].filter(([, n]) => n >= chunks.length / 4).map(([d]) => d),
    ]),
  ];
}

/** Passages of the scope in the selection's main section(s), not yet selected. */
function sectionReserve(
  chunks: readonly IContextChunk[],
  scope: readonly IContextChunk[],
  sections: ReadonlySet<string>,
): IContextChunk[] {
  if (chunks.length === 0 || scope.length === 0) return [];
  const have = new Set(chunks.map(chunkKey));
  return scope
    .filter((c) => sections.has(sectionKeyOf(c)) && sectionKeyOf(c).includes(" > ") && !have.has(chunkKey(c)))
    .slice(0, 40);
}

/** "Phrases the subject's text uses": a lowercase, punctuation-free haystack of the scope. */
function phraseIndex(chunks: readonly IContextChunk[]): (phrase: string) => boolean | undefined {
  const norm = (t: string) =>
    t
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
  const text = ` ${chunks.map((c) => norm(c.content)).join(" ")} `;
  return (phrase) => {
    const n = norm(phrase);
    const words = n.split(" ").length;
    if (words < 2 || words > 4) return undefined;
    return text.includes(` ${n} `);
  };
}

function count(into: Partial<Record<IGateFinding["flag"], number>>, findings: readonly IGateFinding[]) {
  for (const f of findings) if (f.severity === "reject") into[f.flag] = (into[f.flag] ?? 0) + 1;
}

const describeCounts = (c: Partial<Record<IGateFinding["flag"], number>>) =>
  Object.entries(c)
    .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0))
    .slice(0, 3)
    .map(([flag, n]) => `${flag.replace(/_/g, " ")} ×${n}`)
    .join(", ");

/** The other levels, nearest first; at equal distance the higher one (keep the demand up). */
function nearestLevels(level: EBloomLevel): EBloomLevel[] {
  const at = BLOOM_LEVELS.indexOf(level);
  return BLOOM_LEVELS.filter((l) => l !== level).sort((a, b) => {
    const da = Math.abs(BLOOM_LEVELS.indexOf(a) - at);
    const db = Math.abs(BLOOM_LEVELS.indexOf(b) - at);
    return da - db || BLOOM_LEVELS.indexOf(b) - BLOOM_LEVELS.indexOf(a);
  });
}

/** Past-paper questions whose wording reads at the slot's level, to offer in an empty slot. */
function pastAt(level: EBloomLevel, past: readonly string[]): string[] {
  return past.filter((q) => classifyBloom(q) === level).slice(0, 2);
}

function accepted(q: TQuestion, result: IGateResult, level: EBloomLevel, regenerated: boolean): TQuestion {
  return {
    ...q,
    validation: {
      citationsOk: true,
      supported: true,
      bloomAgreed: result.demand === level,
      regenerated,
      flags: result.findings.filter((f) => f.severity === "warn").map((f) => `${f.flag}: ${f.message}`),
      demand: result.demand,
    },
  };
}

/**
 * Plan → draft → gate → accept, per slot. A language model (when configured) drafts first; a
 * draft the gate refuses is regenerated once with the gate's reasons, then the offline generator
 * proposes candidates, which pass through the same gate. A slot nothing acceptable can fill is
 * left empty with its reason (and past-paper questions at that level, when there are any) —
 * never filled with a question the gate refused.
 */
export async function runGeneration(
  deps: IGenerationDeps,
  chunks: readonly IContextChunk[],
  request: TGenerationRequest,
  events: IGenerationEvents,
  makeId: (index: number) => string,
): Promise<IGenerationResult> {
  const model = deps.model ? guardModel(deps.model, "question") : null;
  const byKey = new Map(chunks.map((c) => [chunkKey(c), c]));
  const seed = request.seed ?? 1;
  const scope = deps.scope ?? [];
  const topic = mainSections(chunks, request.topic);
  const offline = createOfflineGenerator(chunks, seed, scope, topic);
  // The rest of the selected passages' own section(s): drawn on only for a slot the selection
  // cannot fill, and said so.
  const reserve = sectionReserve(chunks, scope, topic);
  // Built on first need: most sets never draw on the reserve.
  let widenedGenerator: ReturnType<typeof createOfflineGenerator> | null | undefined;
  const widened = () => {
    if (widenedGenerator === undefined)
      widenedGenerator =
        reserve.length > 0 ? createOfflineGenerator([...chunks, ...reserve], seed, scope, topic) : null;
    return widenedGenerator;
  };
  const availableAt = (t: ISlot["type"], l: EBloomLevel) =>
    offline.available(t, l) || (widened()?.available(t, l) ?? 0);
  const reserveKeys = new Set(reserve.map(chunkKey));
  // Planned on the selection's own material; the section's reserve is built only when a slot needs it.
  const slots = planSlots(request.blueprint, chunks.map(chunkKey), makeId, (t, l) => offline.available(t, l));
  const gateCtx: IGateContext = createGateContext([...chunks, ...reserve], {
    scopeDocuments: mainDocuments(chunks),
    scopeSections: [...topic],
    knownPhrase: phraseIndex([...chunks, ...scope]),
  });
  const questions: TQuestion[] = [];
  const warnings: string[] = [];
  const gaps: ISlotGap[] = [];
  const rejections: IGenerationResult["rejections"] = {};
  const sources = new Set<"llm" | "offline">();
  const used = new Set<string>();
  const positions = keyPositions(slots.filter((s) => s.type === "mcq").length, seed);
  let mcqIndex = 0;
  let llmFailures = 0;
  const exemplars = request.strategy === "few-shot" ? (deps.exemplars ?? []).slice(0, 5) : [];
  if (request.strategy === "few-shot" && exemplars.length === 0 && model) {
    warnings.push("Few-shot: no past-paper (PYQ) questions for this subject yet; generated zero-shot.");
  }
  // The first provider outage (timeout, 5xx, open breaker) sends every remaining slot of the
  // request offline without another wait, and is reported once.
  let providerDown = false;
  const switchToOffline = () => {
    if (providerDown) return;
    providerDown = true;
    markRequestOffline(request);
    events.error("llm_unavailable", PROVIDER_DOWN_MESSAGE);
    warnings.push(PROVIDER_DOWN_MESSAGE);
  };
  // The answerability check of this same request may already have met the outage.
  if (model && isRequestOffline(request)) switchToOffline();
  const avoidPrompts = request.avoidPrompts ?? [];
  const gate = (q: TQuestion, level: EBloomLevel) =>
    gateQuestion(q, level, gateCtx, { accepted: questions, avoidPrompts });

  /**
   * One LLM draft, or for self-consistency 2–3 samples: keep the sample the gate passes whose
   * answer most samples agree on (the answer most often produced is the most reliable).
   */
  async function llmDraft(
    model: LanguageModel,
    slot: ISlot,
    feedback?: readonly string[],
  ): Promise<TQuestion> {
    const base = request.temperature ?? 0.4;
    const call = {
      model,
      timeoutMs: deps.timeoutMs,
      slot,
      chunks,
      request,
      byKey,
      exemplars,
      temperature: base,
      feedback,
    };
    if (request.strategy !== "self-consistency") return generateWithLlm(call);
    const n = request.samples ?? 3;
    const settled = await Promise.allSettled(
      Array.from({ length: n }, () => generateWithLlm({ ...call, temperature: Math.max(0.7, base) })),
    );
    const samples = settled.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    if (samples.length === 0) throw (settled[0] as PromiseRejectedResult).reason;
    // Samples agree when their answers use the same content words.
    const key = (q: TQuestion) =>
      [...stemSet(q.type === "mcq" ? (q.options[q.correctIndex] ?? "") : q.evaluatorKeywords.join(" "))]
        .sort()
        .join(" ");
    const votes = new Map<string, number>();
    for (const q of samples) votes.set(key(q), (votes.get(key(q)) ?? 0) + 1);
    const passing = samples.filter((q) => gate(q, slot.bloomLevel).passed);
    const pool = passing.length ? passing : samples;
    return pool.sort((a, b) => (votes.get(key(b)) ?? 0) - (votes.get(key(a)) ?? 0))[0]!;
  }

  /** The first offline candidate the gate passes: the selection's passages, then the section's. */
  function searchOffline(
    slot: ISlot,
    keyAt: number,
    refused: IGenerationResult["rejections"],
    regenerated: boolean,
  ): TQuestion | null {
    const pools = function* () {
      yield { generator: offline, onlyReserve: false };
      const more = widened();
      if (more) yield { generator: more, onlyReserve: true };
    };
    for (const { generator, onlyReserve } of pools()) {
      let read = 0;
      for (const { question } of generator.candidates(slot, { used, keyAt })) {
        // The widened pool re-proposes the selection's own candidates: skip those.
        if (
          onlyReserve &&
          !question.contextRefs.some((r) => reserveKeys.has(`${r.documentId}:${r.chunkIndex}`))
        )
          continue;
        if (read++ >= (deps.maxCandidates ?? 40)) break;
        const verdict = gate(question, slot.bloomLevel);
        if (verdict.passed) {
          if (onlyReserve)
            warnings.push(
              `Slot ${slot.index + 1} (${slot.type}, ${slot.bloomLevel}) drew on another passage of the same section, as the selected ones could not carry it.`,
            );
          return accepted(question, verdict, slot.bloomLevel, read > 1 || regenerated);
        }
        count(refused, verdict.findings);
      }
    }
    return null;
  }

  for (const slot of slots) {
    events.question(slot, "generating");
    const keyAt = slot.type === "mcq" ? (positions[mcqIndex++] ?? 0) : 0;
    const refused: IGenerationResult["rejections"] = {};
    let chosen: TQuestion | null = null;
    let feedback: string[] | undefined;
    if (model && !providerDown && llmFailures < 3) {
      for (let attempt = 0; attempt < 2 && !chosen; attempt++) {
        try {
          const draft = await llmDraft(model, slot, feedback);
          const verdict = gate(draft, slot.bloomLevel);
          if (verdict.passed) chosen = accepted(draft, verdict, slot.bloomLevel, attempt > 0);
          else {
            count(refused, verdict.findings);
            feedback = verdict.findings.filter((f) => f.severity === "reject").map((f) => f.message);
          }
        } catch (err) {
          if (isProviderOutage(err)) switchToOffline();
          else {
            llmFailures++;
            events.error(
              "llm_failed",
              `The language model failed on this question (${describeError(err).slice(0, 100)}); using the offline generator.`,
              slot.id,
            );
          }
          break;
        }
      }
    }
    if (!chosen) chosen = searchOffline(slot, keyAt, refused, feedback !== undefined);
    if (!chosen && !request.blueprint.strictLevels) {
      // Nothing acceptable at the asked level: the nearest level the passages do support, labelled
      // as what it is, rather than an empty slot or a question that only pretends to the level.
      for (const level of nearestLevels(slot.bloomLevel)) {
        if (availableAt(slot.type, level) === 0) continue;
        const alt = searchOffline({ ...slot, bloomLevel: level }, keyAt, {}, true);
        if (!alt) continue;
        chosen = { ...alt, validation: { ...alt.validation, substitutedFor: slot.bloomLevel } };
        const lacks =
          offline.available(slot.type, slot.bloomLevel) > 0
            ? `no ${slot.bloomLevel} draft passed the quality gate`
            : `the passages hold no ${LEVEL_NEEDS[slot.bloomLevel]}`;
        warnings.push(
          `Slot ${slot.index + 1} asked for ${slot.bloomLevel} (${slot.type}); ${lacks}, so it holds a ${level} question instead.`,
        );
        break;
      }
    }
    for (const [flag, n] of Object.entries(refused) as [IGateFinding["flag"], number][])
      rejections[flag] = (rejections[flag] ?? 0) + n;
    if (!chosen) {
      const material = offline.available(slot.type, slot.bloomLevel) > 0;
      const why = Object.keys(refused).length
        ? `every draft was refused by the quality gate (${describeCounts(refused)})`
        : material
          ? "no draft could be completed from the passages"
          : `the passages hold no ${LEVEL_NEEDS[slot.bloomLevel]}`;
      const offers = pastAt(slot.bloomLevel, deps.pastQuestions ?? []);
      const reason = `No acceptable ${slot.type === "mcq" ? "MCQ" : `${slot.type}-answer question`} at ${slot.bloomLevel} from these passages: ${why}.${
        offers.length
          ? ` From your past papers at this level: ${offers.map((o) => `“${o}”`).join(" ")}`
          : " Add passages that carry it, or change this slot's level."
      }`;
      events.question(slot, "failed", undefined, reason);
      events.error("slot_empty", reason, slot.id);
      warnings.push(`Slot ${slot.index + 1} (${slot.type}, ${slot.bloomLevel}) left empty: ${why}.`);
      gaps.push({ slotId: slot.id, type: slot.type, level: slot.bloomLevel, reason, rejections: refused });
      continue;
    }
    for (const r of chosen.contextRefs) used.add(r.quote);
    sources.add(chosen.source);
    questions.push(chosen);
    events.question(slot, "final", chosen);
    events.progress(questions.length, slots.length, `${questions.length} of ${slots.length} questions ready`);
  }
  if (llmFailures > 0)
    warnings.push(`The language model failed ${llmFailures} time(s); the offline generator filled in.`);
  const generator = sources.size === 2 ? "mixed" : sources.has("llm") ? "llm" : "offline";
  return { questions, slots, warnings, generator, gaps, rejections, passages: [...chunks, ...reserve] };
}
