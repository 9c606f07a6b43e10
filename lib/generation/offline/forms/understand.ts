import type { ICausal, ISentence } from "@/lib/generation/offline/knowledge";
import { contentWords, stem } from "@/lib/text/tokenize";
import type { TQuestion } from "@/types/generation.types";
import { capital, clip, type IForm, type IFormEnv, keywords, lower, mcq, stripEnd, written } from "./common";
import { LEANS_ON_CONTEXT } from "./recall";
import { usableCauses } from "./relations";
import { reverseClause } from "./statements";
import { thinCause } from "./written-explain";

/**
 * Understand: explain why something happens from the cause the text states. The question names
 * the effect; the marks go to the cause and to linking it to the effect, so the answer is not the
 * stem's own words.
 */

const stems = (s: string) => new Set(contentWords(s).map(stem));
const shared = (a: string, b: string) => {
  const sb = stems(b);
  return [...stems(a)].filter((x) => sb.has(x)).length;
};

/** An effect whose cause is not already in its own words (else the answer is in the stem). */
function explainable(c: ICausal): boolean {
  const cause = stems(c.cause);
  if (cause.size === 0) return false;
  return shared(c.cause, c.effect) / cause.size < 0.5;
}

/** A further sentence of the same block that develops the cause (for a long answer's extra marks). */
function elaboration(env: IFormEnv, c: ICausal): ISentence | undefined {
  return env.kb.sentences.find(
    (s) =>
      s.chunkKey === c.chunkKey &&
      s.standalone &&
      !s.sideBox &&
      !c.sentence.includes(s.text) &&
      !env.used.has(s.text) &&
      !LEANS_ON_CONTEXT.test(s.text) &&
      shared(s.text, `${c.cause} ${c.effect}`) >= 2,
  );
}

/** Understand, written: "Explain why <effect>." marked on the cause and the link. */
export const explainWhy: IForm = {
  id: "explain-why",
  fits: (type, level) => type !== "mcq" && level === "Understand",
  available: (kb) => kb.causal.filter(explainable).length,
  *build(env) {
    const long = env.slot.type === "long";
    for (const c of usableCauses(env)) {
      if (!explainable(c)) continue;
      // As explain-mechanism: a bare cause or one with nothing more said about it is recall.
      const thin = thinCause(c.cause, c.effect);
      if (thin) {
        env.trace?.(thin);
        continue;
      }
      const extra = elaboration(env, c);
      if (!extra) {
        env.trace?.("no further sentence on the same idea");
        continue;
      }
      const effect = lower(stripEnd(c.effect));
      const cause = lower(stripEnd(c.cause));
      const q = written(env, {
        prompt: `Explain why ${effect}.${long ? " Develop your explanation with what the text says about it." : ""}`,
        answer: `Because ${cause}. That is why ${effect}. ${capital(stripEnd(extra.text))}.`,
        points: [
          { point: `States the cause: ${clip(cause, 160)}`, weight: long ? 2 : 1 },
          { point: `Develops it: ${clip(lower(stripEnd(extra.text)), 150)}`, weight: long ? 2 : 1 },
          {
            point: `Links the cause to the effect (it is because ${clip(cause, 80)} that ${clip(effect, 80)})`,
          },
        ],
        keywords: keywords([c.cause, extra.text]),
        sources: [
          { chunkKey: c.chunkKey, quote: c.sentence },
          { chunkKey: extra.chunkKey, quote: extra.text },
        ],
      });
      if (q) yield q;
    }
  },
};

/**
 * Understand, MCQ: "Which statement best explains why <effect>?" The key is the stated cause; the
 * wrong options are the cause reversed (a plausible slip) and causes the text gives for other
 * effects (true, but they explain something else).
 */
export const explainWhyMcq: IForm = {
  id: "explain-why-mcq",
  fits: (type, level) => type === "mcq" && level === "Understand",
  available: (kb) => (kb.causal.length >= 3 ? kb.causal.filter(explainable).length : 0),
  *build(env) {
    const all = usableCauses(env);
    for (const c of all) {
      if (!explainable(c)) continue;
      const key = `${capital(stripEnd(c.cause))}.`;
      const distractors: { text: string; rationale: string }[] = [];
      const flipped = reverseClause(`${capital(stripEnd(c.cause))}.`, c.chunkKey);
      if (flipped)
        distractors.push({
          text: flipped.text,
          rationale: `Reverses the cause (“${flipped.to}” for “${flipped.from}”): the text states that ${clip(lower(stripEnd(c.cause)), 120)}.`,
        });
      for (const o of all) {
        if (distractors.length >= 3) break;
        if (o === c || o.sentence === c.sentence || shared(o.cause, c.cause) > 1) continue;
        const len = o.cause.length / c.cause.length;
        if (len < 0.5 || len > 2) continue;
        distractors.push({
          text: `${capital(stripEnd(o.cause))}.`,
          rationale: `True, but the text gives it as the reason that ${clip(lower(stripEnd(o.effect)), 120)}, not this effect.`,
        });
      }
      if (distractors.length < 3) continue;
      const q: TQuestion | null = mcq(env, {
        prompt: `Which statement best explains why ${lower(stripEnd(c.effect))}?`,
        key: { text: key },
        distractors,
        explanation: `The text gives the reason: “${clip(c.sentence, 220)}”`,
        sources: [{ chunkKey: c.chunkKey, quote: c.sentence }],
      });
      if (q) yield q;
    }
  },
};
