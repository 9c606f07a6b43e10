import type { LanguageModel } from "ai";
import { guardModel, isProviderOutage } from "@/lib/ai/provider-guard";
import { describeError } from "@/lib/log";
import type { TGenerationRequest } from "@/schema/generation.schema";
import { BLOOM_LEVELS, type EBloomLevel } from "@/types/bloom.types";
import {
  type IContextChunk,
  type IQuestionDraft,
  type ISlot,
  passageKey,
  type TQuestion,
  type TQuestionUpdate,
} from "@/types/generation.types";
import { classifyBloom } from "./bloom-classifier";
import {
  createGateContext,
  type EGateProfile,
  gateQuestion,
  type IGateContext,
  type IGateFinding,
  type IGateResult,
} from "./gate";
import { stemSet } from "./gate/text";
import { isModelTimeout, streamLlmQuestion, throttleDrafts } from "./llm/draft";
import { LEVEL_NEEDS } from "./offline/forms";
import { formUseKey, mulberry32, shuffle } from "./offline/forms/common";
import { createOfflineGenerator } from "./offline/generator";
import { chunkKey, mainSections, sectionKeyOf } from "./offline/knowledge/sentences";
import { planSlots } from "./plan";

export interface IGenerationEvents {
  /** Every slot's card, in slot order, then its updates: generating → draft… → final | failed. */
  question(slot: ISlot, update: TQuestionUpdate): void;
  progress(done: number, total: number, message: string): void;
  error(code: string, message: string, slotId?: string): void;
}

/**
 * Language-model slots written at once unless the caller says otherwise
 * (`PAPERWISE_GENERATION_CONCURRENCY`): 6, so that a 6-question set is one round of drafts (and
 * rewrites), not two — with 3, a set took about twice its first decided question (issue 26).
 */
export const DEFAULT_CONCURRENCY = 6;

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
  /** Slots the language model writes at once (default 6); the offline generator takes one at a time. */
  concurrency?: number;
  /** The teacher cancelled: model calls stop, no further slot starts, the result says so. */
  signal?: AbortSignal;
  /** The provider already failed in this request (the answerability check, `IEvidence`): start offline. */
  providerDown?: boolean;
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
  /** Accepted questions in slot order. */
  questions: TQuestion[];
  slots: ISlot[];
  warnings: string[];
  generator: "llm" | "offline" | "mixed";
  gaps: ISlotGap[];
  /** Every candidate the gate refused, by flag (the eval reports them). */
  rejections: Partial<Record<IGateFinding["flag"], number>>;
  /** The passages questions could cite: the selection, then the rest of its section. */
  passages: IContextChunk[];
  /** The caller's signal aborted before every slot was decided (the set is incomplete). */
  cancelled: boolean;
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

/** Findings the strict rules would refuse, shown as warnings on a model draft: worth one rewrite. */
const downgradedOf = (verdict: IGateResult) => verdict.findings.filter((f) => f.downgraded);

type TCounts = Partial<Record<IGateFinding["flag"], number>>;
type TOfflineGenerator = ReturnType<typeof createOfflineGenerator>;

/** What the slots of one request share. */
interface IRun {
  deps: IGenerationDeps;
  request: TGenerationRequest;
  events: IGenerationEvents;
  chunks: readonly IContextChunk[];
  byKey: ReadonlyMap<string, IContextChunk>;
  offline: TOfflineGenerator;
  /** The selection plus the rest of its section, built on first need. */
  widened: () => TOfflineGenerator | null;
  reserveKeys: ReadonlySet<string>;
  gateCtx: IGateContext;
  exemplars: readonly string[];
  total: number;
  /** Accepted questions by slot id, in the order the gate accepted them. */
  accepted: Map<string, TQuestion>;
  warnings: string[];
  gaps: ISlotGap[];
  rejections: TCounts;
  sources: Set<"llm" | "offline">;
  /** Passage sentences offline questions already stand on. */
  used: Set<string>;
  llmFailures: number;
  providerDown: boolean;
  /** Aborted when the teacher cancels or the provider goes down: stops every model call in flight. */
  modelCalls: AbortController;
}

const cancelled = (run: IRun) => run.deps.signal?.aborted === true;

/**
 * The set as it is at this moment: slots written in parallel see each other's accepted questions.
 * A model draft is read under the `model` profile (only a wrong, unsupported, planted, broken or
 * out-of-scope question is refused; the rest are warnings on the card); the offline generator's
 * candidates under `strict`, as it proposes many and relies on the gate to drop its junk.
 */
function gate(run: IRun, q: TQuestion, level: EBloomLevel, profile: EGateProfile = "strict"): IGateResult {
  return gateQuestion(
    q,
    level,
    run.gateCtx,
    { accepted: [...run.accepted.values()], avoidPrompts: run.request.avoidPrompts ?? [] },
    { profile },
  );
}

/**
 * The first provider outage (timeout, 5xx, open breaker) sends every remaining slot of the
 * request offline without another wait, stops the calls other slots still have in flight (they
 * wait on the same provider), and is reported once.
 */
function switchToOffline(run: IRun): void {
  if (run.providerDown) return;
  run.providerDown = true;
  run.modelCalls.abort(new DOMException("the request went offline", "AbortError"));
  run.events.error("llm_unavailable", PROVIDER_DOWN_MESSAGE);
  run.warnings.push(PROVIDER_DOWN_MESSAGE);
}

/**
 * Past-paper questions shown to the model for one slot: those whose wording reads at the slot's
 * level (a few-shot exemplar of that level, whatever the strategy), then, for the few-shot
 * strategy, the subject's other exemplars; at most five.
 */
function slotExemplars(run: IRun, slot: ISlot): string[] {
  const atLevel = (run.deps.pastQuestions ?? [])
    .filter((q) => classifyBloom(q) === slot.bloomLevel)
    .slice(0, 3);
  return [...new Set([...atLevel, ...run.exemplars])].slice(0, 5);
}

/**
 * One LLM draft, or for self-consistency 2–3 samples: keep the sample the gate passes whose
 * answer most samples agree on (the answer most often produced is the most reliable). Only the
 * first sample's draft is shown while they are written.
 */
async function llmDraft(
  run: IRun,
  model: LanguageModel,
  slot: ISlot,
  attempt: number,
  feedback: readonly string[] | undefined,
  onDraft: (draft: IQuestionDraft) => void,
): Promise<TQuestion> {
  const base = run.request.temperature ?? 0.4;
  const call = {
    model,
    timeoutMs: run.deps.timeoutMs,
    slot,
    chunks: run.chunks,
    request: run.request,
    byKey: run.byKey,
    exemplars: slotExemplars(run, slot),
    temperature: base,
    feedback,
    attempt,
    signal: run.modelCalls.signal,
  };
  if (run.request.strategy !== "self-consistency") return streamLlmQuestion({ ...call, onDraft });
  const n = run.request.samples ?? 3;
  const settled = await Promise.allSettled(
    Array.from({ length: n }, (_, i) =>
      streamLlmQuestion({ ...call, temperature: Math.max(0.7, base), ...(i === 0 ? { onDraft } : {}) }),
    ),
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
  const passing = samples.filter((q) => gate(run, q, slot.bloomLevel, "model").passed);
  const pool = passing.length ? passing : samples;
  return pool.sort((a, b) => (votes.get(key(b)) ?? 0) - (votes.get(key(a)) ?? 0))[0]!;
}

const rejectFlags = (verdict: IGateResult) =>
  verdict.findings
    .filter((f) => f.severity === "reject")
    .map((f) => f.flag.replace(/_/g, " "))
    .join(", ");

/** What the model path gave a slot: a question, or why the offline generator must write it. */
interface IModelOutcome {
  chosen: TQuestion | null;
  regenerated: boolean;
  /** Why no model question was kept (for the card of the offline question that replaces it). */
  why?: string;
}

/**
 * The model's draft, streamed to the slot's card, then read by the gate (`model` profile). A
 * refused draft is rewritten once with the gate's reasons. A draft that passes with warnings the
 * strict rules would refuse (a Bloom doubt, wording) is also rewritten once with them, and the
 * better of the two is kept (the rewrite only when it passes with fewer such warnings): a good
 * draft is never traded for a worse one. Whatever happens, a draft on screen is replaced: by the
 * accepted question (the caller sends it), by a "generating" note while the rewrite or the
 * offline generator works, or by the slot's reason.
 */
async function draftWithModel(
  run: IRun,
  model: LanguageModel,
  slot: ISlot,
  refused: TCounts,
): Promise<IModelOutcome> {
  let feedback: string[] | undefined;
  let kept: { question: TQuestion; verdict: IGateResult; attempt: number } | null = null;
  let why: string | undefined;
  for (let attempt = 1; attempt <= 2 && !run.providerDown && !cancelled(run); attempt++) {
    const drafts = throttleDrafts((draft) => run.events.question(slot, { status: "draft", draft }));
    try {
      const draft = await llmDraft(run, model, slot, attempt, feedback, (d) => drafts.push(d));
      drafts.cancel();
      if (cancelled(run)) break;
      const verdict = gate(run, draft, slot.bloomLevel, "model");
      if (verdict.passed) {
        const warnings = downgradedOf(verdict);
        const better = !kept || warnings.length < downgradedOf(kept.verdict).length;
        if (better) kept = { question: draft, verdict, attempt };
        if (warnings.length === 0 || attempt === 2) break;
        feedback = warnings.map((f) => f.message);
        run.events.question(slot, {
          status: "generating",
          note: `The quality gate noted ${warnings.map((f) => f.flag.replace(/_/g, " ")).join(", ")}; trying one rewrite (the better draft is kept).`,
        });
        continue;
      }
      count(refused, verdict.findings);
      const reasons = verdict.findings.filter((f) => f.severity === "reject").map((f) => f.message);
      why = `the model's draft was refused by the quality gate (${reasons.join(" ")})`;
      if (kept) break;
      feedback = reasons;
      run.events.question(slot, {
        status: "generating",
        note:
          attempt === 1
            ? `The quality gate refused the draft (${rejectFlags(verdict)}); rewriting it.`
            : `The quality gate refused the rewrite too (${rejectFlags(verdict)}).`,
      });
    } catch (err) {
      drafts.cancel();
      // Cancelled by the teacher, or stopped because another slot found the provider down.
      if (cancelled(run) || run.providerDown) {
        if (drafts.shown && !cancelled(run))
          run.events.question(slot, { status: "generating", note: PROVIDER_DOWN_MESSAGE });
        why ??= "the model provider was not responding";
        break;
      }
      if (isProviderOutage(err) || isModelTimeout(err)) {
        switchToOffline(run);
        why = "the model provider was not responding";
      } else {
        run.llmFailures++;
        why = "the model failed on this question";
        run.events.error(
          "llm_failed",
          `The language model failed on this question (${describeError(err).slice(0, 100)}); using the offline generator.`,
          slot.id,
        );
      }
      if (drafts.shown)
        run.events.question(slot, {
          status: "generating",
          note: "The model did not finish this question; the offline generator is writing it.",
        });
      break;
    }
  }
  if (kept) {
    const regenerated = kept.attempt > 1;
    return { chosen: accepted(kept.question, kept.verdict, slot.bloomLevel, regenerated), regenerated };
  }
  return { chosen: null, regenerated: feedback !== undefined, ...(why ? { why } : {}) };
}

/** The first offline candidate the gate passes: the selection's passages, then the section's. */
function searchOffline(
  run: IRun,
  slot: ISlot,
  keyAt: number,
  refused: TCounts,
  regenerated: boolean,
): TQuestion | null {
  const pools = function* () {
    yield { generator: run.offline, onlyReserve: false };
    const more = run.widened();
    if (more) yield { generator: more, onlyReserve: true };
  };
  for (const { generator, onlyReserve } of pools()) {
    let read = 0;
    for (const { form, question } of generator.candidates(slot, { used: run.used, keyAt })) {
      // The widened pool re-proposes the selection's own candidates: skip those.
      if (onlyReserve && !question.contextRefs.some((r) => run.reserveKeys.has(passageKey(r)))) continue;
      if (read++ >= (run.deps.maxCandidates ?? 40)) break;
      const verdict = gate(run, question, slot.bloomLevel);
      if (verdict.passed) {
        // Which form asked which passage text: a form may decline to ask the same text twice.
        for (const r of question.contextRefs) run.used.add(formUseKey(form, r.quote));
        if (onlyReserve)
          run.warnings.push(
            `Slot ${slot.index + 1} (${slot.type}, ${slot.bloomLevel}) drew on another passage of the same section, as the selected ones could not carry it.`,
          );
        return accepted(question, verdict, slot.bloomLevel, read > 1 || regenerated);
      }
      count(refused, verdict.findings);
    }
  }
  return null;
}

/**
 * Nothing acceptable at the asked level: the nearest level the passages do support, labelled as
 * what it is, rather than an empty slot or a question that only pretends to the level.
 */
function substitute(run: IRun, slot: ISlot, keyAt: number): TQuestion | null {
  const availableAt = (l: EBloomLevel) =>
    run.offline.available(slot.type, l) || (run.widened()?.available(slot.type, l) ?? 0);
  for (const level of nearestLevels(slot.bloomLevel)) {
    if (availableAt(level) === 0) continue;
    const alt = searchOffline(run, { ...slot, bloomLevel: level }, keyAt, {}, true);
    if (!alt) continue;
    const lacks =
      run.offline.available(slot.type, slot.bloomLevel) > 0
        ? `no ${slot.bloomLevel} draft passed the quality gate`
        : `the passages hold no ${LEVEL_NEEDS[slot.bloomLevel]}`;
    run.warnings.push(
      `Slot ${slot.index + 1} asked for ${slot.bloomLevel} (${slot.type}); ${lacks}, so it holds a ${level} question instead.`,
    );
    return { ...alt, validation: { ...alt.validation, substitutedFor: slot.bloomLevel } };
  }
  return null;
}

/** The slot's reason, with past-paper questions at its level when there are any. */
function leaveEmpty(run: IRun, slot: ISlot, refused: TCounts): void {
  const material = run.offline.available(slot.type, slot.bloomLevel) > 0;
  const why = Object.keys(refused).length
    ? `every draft was refused by the quality gate (${describeCounts(refused)})`
    : material
      ? "no draft could be completed from the passages"
      : `the passages hold no ${LEVEL_NEEDS[slot.bloomLevel]}`;
  const offers = pastAt(slot.bloomLevel, run.deps.pastQuestions ?? []);
  const reason = `No acceptable ${slot.type === "mcq" ? "MCQ" : `${slot.type}-answer question`} at ${slot.bloomLevel} from these passages: ${why}.${
    offers.length
      ? ` From your past papers at this level: ${offers.map((o) => `“${o}”`).join(" ")}`
      : run.request.useSection
        ? " Add passages that carry it, or change this slot's level."
        : " Add passages that carry it, tick “Also use the rest of the section”, or change this slot's level."
  }`;
  run.events.question(slot, { status: "failed", reason });
  run.events.error("slot_empty", reason, slot.id);
  run.warnings.push(`Slot ${slot.index + 1} (${slot.type}, ${slot.bloomLevel}) left empty: ${why}.`);
  run.gaps.push({ slotId: slot.id, type: slot.type, level: slot.bloomLevel, reason, rejections: refused });
}

/**
 * Model draft (when usable) → offline candidates → a nearer level → the slot's reason. In a set
 * the model writes, an offline question fills a slot only when the model is down or failed, or
 * its draft was refused for a refusal reason; its card says which.
 */
async function fillSlot(run: IRun, model: LanguageModel | null, slot: ISlot, keyAt: number): Promise<void> {
  const refused: TCounts = {};
  let chosen: TQuestion | null = null;
  let regenerated = false;
  let why: string | undefined;
  if (model) {
    if (run.providerDown) why = "the model provider was not responding";
    else if (run.llmFailures >= 3) why = "the model failed on several questions of this set";
    else ({ chosen, regenerated, why } = await draftWithModel(run, model, slot, refused));
  }
  if (cancelled(run)) return;
  chosen ??= searchOffline(run, slot, keyAt, refused, regenerated);
  if (!chosen && !run.request.blueprint.strictLevels) chosen = substitute(run, slot, keyAt);
  if (chosen && model && chosen.source === "offline")
    chosen = {
      ...chosen,
      validation: {
        ...chosen.validation,
        offlineReason: `Written offline because ${why ?? "the model wrote no draft"}.`,
      },
    };
  for (const [flag, n] of Object.entries(refused) as [IGateFinding["flag"], number][])
    run.rejections[flag] = (run.rejections[flag] ?? 0) + n;
  if (!chosen) return leaveEmpty(run, slot, refused);
  for (const r of chosen.contextRefs) run.used.add(r.quote);
  run.sources.add(chosen.source);
  run.accepted.set(slot.id, chosen);
  run.events.question(slot, { status: "final", question: chosen });
  const done = run.accepted.size;
  run.events.progress(done, run.total, `${done} of ${run.total} questions ready`);
}

const OUTPUT_WEIGHT: Record<ISlot["type"], number> = { long: 2, short: 1, mcq: 0 };

/**
 * The order parallel slots start in (their cards keep slot order): the first card first, as the
 * teacher reads from the top, then the slots the model writes longest (long answers, then short
 * ones), so the set is not left waiting on one long answer started last.
 */
function startOrder(slots: readonly ISlot[]): ISlot[] {
  const [first, ...rest] = slots;
  if (!first) return [];
  const byLength = rest
    .map((slot, i) => ({ slot, i }))
    .sort((a, b) => OUTPUT_WEIGHT[b.slot.type] - OUTPUT_WEIGHT[a.slot.type] || a.i - b.i);
  return [first, ...byLength.map(({ slot }) => slot)];
}

/** Runs `work` over `items` with at most `width` at once, each worker taking the next in order. */
async function eachLimited<T>(
  items: readonly T[],
  width: number,
  work: (item: T) => Promise<void>,
  stop: () => boolean,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !stop()) {
      await work(items[next++]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}

/**
 * Plan → draft → gate → accept, per slot. A language model (when configured) drafts first,
 * streamed to the slot's card as it writes, up to `concurrency` slots at once; a draft the gate
 * refuses is regenerated once with the gate's reasons, then the offline generator proposes
 * candidates, which pass through the same gate. A slot nothing acceptable can fill is left empty
 * with its reason (and past-paper questions at that level, when there are any) — never filled
 * with a question the gate refused. The gate reads each draft when it is complete, against the
 * questions accepted by then, so parallel slots cannot ask the same fact twice. Without a model
 * (or once the provider is down) slots are filled one after another, as the offline generator
 * answers in milliseconds.
 */
export async function runGeneration(
  deps: IGenerationDeps,
  chunks: readonly IContextChunk[],
  request: TGenerationRequest,
  events: IGenerationEvents,
  makeId: (index: number) => string,
): Promise<IGenerationResult> {
  const model = deps.model ? guardModel(deps.model, "question") : null;
  const seed = request.seed ?? 1;
  const scope = deps.scope ?? [];
  const topic = mainSections(chunks, request.topic);
  const offline = createOfflineGenerator(chunks, seed, scope, topic);
  // The rest of the selected passages' own section(s), when the teacher asks for it: drawn on only
  // for a slot the selection cannot fill, and said so. By default questions cite the selection only.
  const reserve = request.useSection ? sectionReserve(chunks, scope, topic) : [];
  // Built on first need: most sets never draw on the reserve.
  let widenedGenerator: TOfflineGenerator | null | undefined;
  const widened = () => {
    if (widenedGenerator === undefined)
      widenedGenerator =
        reserve.length > 0 ? createOfflineGenerator([...chunks, ...reserve], seed, scope, topic) : null;
    return widenedGenerator;
  };
  // Planned on the selection's own material; the section's reserve is built only when a slot needs it.
  const slots = planSlots(request.blueprint, chunks.map(chunkKey), makeId, (t, l) => offline.available(t, l));
  const exemplars = request.strategy === "few-shot" ? (deps.exemplars ?? []).slice(0, 5) : [];
  const run: IRun = {
    deps,
    request,
    events,
    chunks,
    byKey: new Map(chunks.map((c) => [chunkKey(c), c])),
    offline,
    widened,
    reserveKeys: new Set(reserve.map(chunkKey)),
    gateCtx: createGateContext([...chunks, ...reserve], {
      selected: chunks.map(chunkKey),
      scopeDocuments: mainDocuments(chunks),
      scopeSections: [...topic],
      knownPhrase: phraseIndex([...chunks, ...scope]),
    }),
    exemplars,
    total: slots.length,
    accepted: new Map(),
    warnings: [],
    gaps: [],
    rejections: {},
    sources: new Set(),
    used: new Set(),
    llmFailures: 0,
    providerDown: false,
    modelCalls: new AbortController(),
  };
  if (request.strategy === "few-shot" && exemplars.length === 0 && model) {
    run.warnings.push("Few-shot: no past-paper (PYQ) questions for this subject yet; generated zero-shot.");
  }
  const stopCalls = () => run.modelCalls.abort(deps.signal?.reason);
  deps.signal?.addEventListener("abort", stopCalls, { once: true });
  // The answerability check of this same request may already have met the outage.
  if (model && deps.providerDown) switchToOffline(run);
  // Every card first, in slot order: parallel slots then update their own card in place.
  for (const slot of slots) events.question(slot, { status: "generating" });
  const positions = keyPositions(slots.filter((s) => s.type === "mcq").length, seed);
  let mcqIndex = 0;
  const keyAt = new Map(slots.map((s) => [s.id, s.type === "mcq" ? (positions[mcqIndex++] ?? 0) : 0]));
  const width = model && !run.providerDown ? Math.max(1, deps.concurrency ?? DEFAULT_CONCURRENCY) : 1;
  try {
    await eachLimited(
      width > 1 ? startOrder(slots) : slots,
      width,
      (slot) => fillSlot(run, model, slot, keyAt.get(slot.id) ?? 0),
      () => cancelled(run),
    );
  } finally {
    deps.signal?.removeEventListener("abort", stopCalls);
  }
  if (run.llmFailures > 0)
    run.warnings.push(
      `The language model failed ${run.llmFailures} time(s); the offline generator filled in.`,
    );
  const generator = run.sources.size === 2 ? "mixed" : run.sources.has("llm") ? "llm" : "offline";
  return {
    questions: slots.flatMap((s) => run.accepted.get(s.id) ?? []),
    slots,
    warnings: run.warnings,
    generator,
    gaps: run.gaps,
    rejections: run.rejections,
    passages: [...chunks, ...reserve],
    cancelled: cancelled(run),
  };
}
