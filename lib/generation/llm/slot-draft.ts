import type { LanguageModel } from "ai";
import { isProviderOutage } from "@/lib/ai/provider-guard";
import { describeError } from "@/lib/log";
import type { IQuestionDraft, ISlot, TQuestion } from "@/types/generation.types";
import { classifyBloom } from "../bloom-classifier";
import type { IGateResult } from "../gate";
import { stemSet } from "../gate/text";
import {
  accepted,
  cancelled,
  countRejections,
  gateDraft,
  type IRun,
  PROVIDER_DOWN_MESSAGE,
  switchToOffline,
  type TCounts,
} from "../slot/request";
import { isModelTimeout, streamLlmQuestion, throttleDrafts } from "./draft";

/**
 * A slot on the model road: the model's draft (or, for self-consistency, the best of a few
 * samples), read by the gate, rewritten once with the gate's reasons when it is refused or noted.
 * What the model could not give, the slot's filler (`slot/fill.ts`) takes from the offline road.
 */

/** Findings the strict rules would refuse, shown as warnings on a model draft: worth one rewrite. */
const downgradedOf = (verdict: IGateResult) => verdict.findings.filter((f) => f.downgraded);

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
  const verdicts = await Promise.all(samples.map((q) => gateDraft(run, q, slot.bloomLevel, "model")));
  const passing = samples.filter((_, i) => verdicts[i]!.passed);
  const pool = passing.length ? passing : samples;
  return pool.sort((a, b) => (votes.get(key(b)) ?? 0) - (votes.get(key(a)) ?? 0))[0]!;
}

const rejectFlags = (verdict: IGateResult) =>
  verdict.findings
    .filter((f) => f.severity === "reject")
    .map((f) => f.flag.replace(/_/g, " "))
    .join(", ");

/** What the model path gave a slot: a question, or why the offline generator must write it. */
export interface IModelOutcome {
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
export async function draftWithModel(
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
      const verdict = await gateDraft(run, draft, slot.bloomLevel, "model");
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
      countRejections(refused, verdict.findings);
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
