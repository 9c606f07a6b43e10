import type { ICausal } from "@/lib/generation/offline/knowledge";
import { contentWords, stem } from "@/lib/text/tokenize";
import type { TQuestion } from "@/types/generation.types";
import { capital, clip, type IForm, lower, mcq, stripEnd } from "./common";
import { usableCauses } from "./relations";
import { reverseClause } from "./statements";

/**
 * Understand: explain why something happens from the cause the text states (MCQ). The written
 * "Explain why …" form was dropped after rounds 9–11: blind readers rejected every one (the model
 * answer restated the passage's sentence).
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
    if (all.length === 0)
      env.trace?.(
        env.kb.causal.length === 0
          ? "no stated cause"
          : "every stated cause has a pronoun, a number, or is about names",
      );
    for (const c of all) {
      if (!explainable(c)) {
        env.trace?.("the cause is already in the effect's words");
        continue;
      }
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
      if (distractors.length < 3) {
        env.trace?.("< 3 other stated causes of similar length (or a reversal) for the options");
        continue;
      }
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
