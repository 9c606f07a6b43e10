import type { IKnowledge } from "@/lib/generation/offline/knowledge";
import {
  extractHeadedProcesses,
  extractProcesses,
  type IProcess,
  type IStep,
} from "@/lib/generation/offline/knowledge/processes";
import { chunkKey, FEATURE_BOX } from "@/lib/generation/offline/knowledge/sentences";
import { clip, formUseKey, type IForm, type IFormEnv, keywords, mcq, stripEnd, written } from "./common";

/**
 * Sequence questions from processes the passages state as ordered steps (`knowledge/processes.ts`):
 * put jumbled steps in order (Understand: the steps are shown in the book's words, without their
 * order words, so the order must be understood, not matched), and what would not follow if a step
 * failed (Analyze: each step starts from what the one before it produced).
 */

const cache = new WeakMap<IKnowledge, IProcess[]>();
/** The processes of the selected passages (computed once per knowledge base). */
export function processesOf(kb: IKnowledge): IProcess[] {
  let hit = cache.get(kb);
  if (!hit) {
    const own = new Set(kb.sentences.map((s) => s.chunkKey));
    const chunks = kb.chunks
      .map((c) => ({ content: c.content, key: chunkKey(c) }))
      .filter((c) => own.has(c.key));
    hit = [...extractProcesses(kb.sentences), ...extractHeadedProcesses(chunks, kb.sentences, FEATURE_BOX)];
    cache.set(kb, hit);
  }
  return hit;
}

/** --why: why the passages hold no process at all. */
function traceProcesses(env: IFormEnv): void {
  if (!env.trace || processesOf(env.kb).length > 0) return;
  env.trace(
    env.kb.sentences.some((s) =>
      /^(?:first(?:ly)?|to begin|initially)\b|\bthe first (?:step|stage|phase)\b/i.test(s.text),
    )
      ? "ordered run of < 3 event steps in one block"
      : "no step stated with an order word (first, then, finally)",
  );
}

const LETTERS = ["P", "Q", "R", "S"] as const;
const sources = (steps: readonly IStep[]) => steps.map((s) => ({ chunkKey: s.chunkKey, quote: s.sentence }));
const fresh = (env: IFormEnv, id: string, p: IProcess) => !env.used.has(formUseKey(id, p.steps[0]!.sentence));

/** Four steps in order: the first four, or the first three and the last when the run is longer. */
const fourSteps = (p: IProcess): IStep[] =>
  p.steps.length <= 4 ? p.steps : [...p.steps.slice(0, 3), p.steps.at(-1)!];

/** Wrong orders a student would give: two neighbours swapped, the ends swapped, the list reversed. */
export function wrongOrders(n: number): number[][] {
  const id = Array.from({ length: n }, (_, i) => i);
  const swap = (a: number, b: number) => {
    const o = [...id];
    [o[a], o[b]] = [o[b]!, o[a]!];
    return o;
  };
  const candidates = [swap(1, 2), swap(0, 1), swap(n - 2, n - 1), [...id].reverse(), swap(0, n - 1)];
  const seen = new Set([id.join()]);
  return candidates.filter((o) => {
    const k = o.join();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Understand, MCQ: the steps shown jumbled under letters; which order is right? */
export const sequenceOrder: IForm = {
  id: "sequence-order",
  fits: (type, level) => type === "mcq" && level === "Understand",
  available: (kb) => processesOf(kb).filter((p) => p.steps.length >= 4).length,
  *build(env) {
    traceProcesses(env);
    for (const p of processesOf(env.kb)) {
      if (p.steps.length < 4 || !fresh(env, "sequence-order", p)) {
        env.trace?.(p.steps.length < 4 ? "process of < 4 steps" : "process already used in the set");
        continue;
      }
      const steps = fourSteps(p);
      // Letters shown in a jumbled order that is not the right one.
      const shown = [2, 0, 3, 1].map((i) => steps[i]!);
      const letterOf = (s: IStep) => LETTERS[shown.indexOf(s)]!;
      const orderText = (o: number[]) => o.map((i) => letterOf(steps[i]!)).join(" → ");
      const wrong = wrongOrders(4).slice(0, 3);
      const why = (o: number[]) => {
        const moved = o.findIndex((v, i) => v !== i);
        const early = steps[o[moved]!]!;
        const late = steps[moved]!;
        return `Puts ${letterOf(early)} before ${letterOf(late)}: in ${p.name}, “${clip(stripEnd(early.text), 70)}” comes after “${clip(stripEnd(late.text), 70)}”.`;
      };
      const q = mcq(env, {
        prompt: `The statements below describe steps of ${p.name}, in a jumbled order.\n${shown
          .map((s, i) => `${LETTERS[i]}: ${stripEnd(s.text)}.`)
          .join("\n")}\nWhich order is correct?`,
        key: { text: orderText([0, 1, 2, 3]) },
        distractors: wrong.map((o) => ({ text: orderText(o), rationale: why(o) })),
        explanation: `In ${p.name}, ${steps.map((s) => `${letterOf(s)} (${clip(stripEnd(s.text), 60)})`).join(", then ")}: each step starts from what the one before it produced.`,
        sources: sources(steps),
      });
      if (q) yield q;
    }
  },
};

/** Analyze, MCQ: if a step did not take place, which is the first step that could not follow? */
export const sequenceBreak: IForm = {
  id: "sequence-break",
  fits: (type, level) => type === "mcq" && level === "Analyze",
  available: (kb) => processesOf(kb).filter((p) => p.steps.length >= 4).length,
  *build(env) {
    traceProcesses(env);
    for (const p of processesOf(env.kb)) {
      if (p.steps.length < 4 || !fresh(env, "sequence-break", p)) {
        env.trace?.(p.steps.length < 4 ? "process of < 4 steps" : "process already used in the set");
        continue;
      }
      // The failed step has a step before it and two after it when there are five; with four, the
      // options are the step before, the next one (key) and the one after that.
      const k = p.steps.length >= 5 ? 2 : 1;
      const failed = p.steps[k]!;
      const next = p.steps[k + 1]!;
      const before = p.steps.slice(0, k);
      const later = p.steps.slice(k + 2);
      const others = [
        ...before.map((s) => ({
          text: stripEnd(s.text),
          rationale: "This step comes before the failed one, so it still takes place.",
        })),
        ...later.map((s) => ({
          text: stripEnd(s.text),
          rationale: `This step could not take place either, but only because “${clip(stripEnd(next.text), 60)}” comes first.`,
        })),
        {
          text: stripEnd(failed.text),
          rationale: "This is the step that failed, not one that follows it.",
        },
      ].slice(0, 3);
      const q = mcq(env, {
        prompt: `In ${p.name}, suppose this step did not take place: “${stripEnd(failed.text)}.” Which step would be the first that could not follow?`,
        key: { text: stripEnd(next.text) },
        distractors: others,
        explanation: `The steps run in order: ${p.steps.map((s) => clip(stripEnd(s.text), 50)).join(" → ")}. The step right after the failed one starts from what it produced, so it is the first that cannot follow; the earlier steps still happen.`,
        sources: sources(p.steps),
      });
      if (q) yield q;
    }
  },
};

/** Analyze, written: what would stop if one step failed (long: first put the jumbled steps in order). */
export const sequenceWritten: IForm = {
  id: "sequence-written",
  fits: (type, level) => type !== "mcq" && level === "Analyze",
  available: (kb) => processesOf(kb).length,
  *build(env) {
    for (const p of processesOf(env.kb)) {
      if (!fresh(env, "sequence-written", p)) continue;
      const long = env.slot.type === "long" && p.steps.length >= 4;
      const steps = long ? fourSteps(p) : p.steps;
      const k = 1;
      const failed = steps[k]!;
      const after = steps.slice(k + 1);
      const shown = long ? [2, 0, 3, 1].map((i) => steps[i]!) : steps;
      const name = (s: IStep) => (long ? LETTERS[shown.indexOf(s)]! : String(steps.indexOf(s) + 1));
      const listed = shown.map((s) => `(${name(s)}) ${stripEnd(s.text)}`).join("; ");
      const points = [
        ...(long ? [{ point: `The order: ${steps.map(name).join(" → ")}`, weight: 2 }] : []),
        { point: `Step ${name(steps[0]!)} still takes place: it comes before the failed step`, weight: 1 },
        {
          point: `Step ${name(after[0]!)} cannot follow (${clip(stripEnd(after[0]!.text), 80)}): it starts from what step ${name(failed)} produces`,
          weight: 2,
        },
        {
          point: `So ${p.name} stops there${after.length > 1 ? `: step ${name(after.at(-1)!)} (${clip(stripEnd(after.at(-1)!.text), 60)}) is not reached either` : ""}`,
          weight: 1,
        },
      ];
      const q = written(env, {
        prompt: long
          ? `These steps of ${p.name} are given in a jumbled order: ${listed}. Put them in the right order. Then explain what would happen to the process if step ${name(failed)} did not take place.`
          : `These are the steps of ${p.name}, in order: ${listed}. Explain what would happen to the process if step ${name(failed)} did not take place.`,
        answer: `${long ? `The order is ${steps.map(name).join(" → ")}. ` : ""}If step ${name(failed)} did not take place, step ${name(steps[0]!)} would still happen, but step ${name(after[0]!)} could not follow, because it starts from what step ${name(failed)} produces; ${p.name} would stop there${after.length > 1 ? `, so step ${name(after.at(-1)!)} would not happen either` : ""}.`,
        points,
        keywords: keywords(p.steps.map((s) => s.text)),
        sources: sources(steps),
      });
      if (q) yield q;
    }
  },
};
