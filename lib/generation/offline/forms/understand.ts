import type { ICausal, IKnowledge } from "@/lib/generation/offline/knowledge";
import { extractCausal } from "@/lib/generation/offline/knowledge/relations";
import { contentWords, stem } from "@/lib/text/tokenize";
import type { TQuestion } from "@/types/generation.types";
import { capital, clip, type IForm, lower, mcq, stripEnd } from "./common";
import { ABOUT_NAMES, usableCauses } from "./relations";
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

const PRONOUN = /\b(?:it|its|they|them|their|this|these|those|he|she)\b/i;
const chapterCache = new WeakMap<IKnowledge, ICausal[]>();
/**
 * Causes the chapter states outside the selection, for wrong options only (never cited): each is
 * true but explains another effect. Same cleanliness as the selection's (no pronoun, no number).
 */
function chapterCauses(kb: IKnowledge): ICausal[] {
  let hit = chapterCache.get(kb);
  if (!hit) {
    const own = new Set(kb.sentences.map((s) => s.text));
    hit = extractCausal(
      kb.scopeSentences.filter((s) => !own.has(s.text) && s.standalone && !s.sideBox),
    ).filter(
      (c) =>
        !PRONOUN.test(c.cause) &&
        !PRONOUN.test(c.effect) &&
        !ABOUT_NAMES.test(c.effect) &&
        !/\d/.test(c.sentence),
    );
    chapterCache.set(kb, hit);
  }
  return hit;
}

/**
 * Understand, MCQ: "Which statement best explains why <effect>?" The key is the stated cause; the
 * wrong options are the cause reversed (a plausible slip) and causes the text gives for other
 * effects (true, but they explain something else).
 */
export const explainWhyMcq: IForm = {
  id: "explain-why-mcq",
  fits: (type, level) => type === "mcq" && level === "Understand",
  available: (kb) => kb.causal.filter(explainable).length,
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
      // Other stated causes of the selection, then of the chapter: true, but each the reason for
      // something else. None may share a word with this effect (it could explain it too).
      for (const o of [...all, ...chapterCauses(env.kb)]) {
        if (distractors.length >= 3) break;
        if (o === c || o.sentence === c.sentence || shared(o.cause, c.cause) > 1) continue;
        if (
          shared(o.cause, c.effect) > 0 ||
          distractors.some((d) => d.text === `${capital(stripEnd(o.cause))}.`)
        )
          continue;
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
