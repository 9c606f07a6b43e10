import nlp from "compromise";
import type { IEffect } from "@/lib/generation/offline/knowledge";
import { extractEffects } from "@/lib/generation/offline/knowledge/relations";
import { capital, type IForm, type IFormEnv, keywords, lower, mcq, stripEnd, written } from "./common";

/**
 * Apply from descriptive science: the passages state what a thing does to a quantity or a process
 * ("FSH stimulates the development of egg cells", "the cuticle reduces the rate of water loss",
 * "calcium is required for muscle contraction"); the question poses the situation the text does
 * not describe, the agent removed or blocked, and asks for the change. The answer runs against the
 * stated direction, so it is not found by matching the question's words in the passage.
 */

const bare = (np: string) => np.replace(/^the\s+/i, "");

/** "cytokinins are", "the cuticle is", "FSH is". */
function isAre(agent: string): "is" | "are" {
  const head = bare(agent).split(/\s+/).pop() ?? "";
  if (/^\p{Lu}{2,}$/u.test(head)) return "is";
  const plural = nlp(head).nouns().isPlural().found;
  return plural || (/[^s]s$/i.test(head) && !/(?:us|is|ss)$/i.test(head)) ? "are" : "is";
}

interface IPrediction {
  stem: string;
  key: string;
  wrong: { text: string; rationale: string }[];
  /** The stated effect, in a clause ("the cuticle reduces the rate of water loss"). */
  stated: string;
  /** Why the key follows. */
  because: string;
}

export function effectPrediction(e: IEffect): IPrediction {
  const T = capital(e.target);
  const agent = e.agent;
  const stem = `Suppose ${agent} ${isAre(agent)} removed or blocked while everything else stays the same. Predict what happens to ${e.target}.`;
  const stated = e.required
    ? `${agent} ${isAre(agent)} needed for ${e.target}`
    : `${agent} ${e.sign > 0 ? "raises or brings about" : "lowers or holds back"} ${e.target}`;
  if (e.required)
    return {
      stem,
      key: `${T} stops`,
      wrong: [
        {
          text: `${T} increases`,
          rationale: `Reverses the need: ${stated}, so without it ${bare(e.target)} cannot increase.`,
        },
        { text: `${T} is unaffected`, rationale: `Ignores the stated need: ${stated}.` },
        {
          text: `${T} increases at first, then returns to normal`,
          rationale: `Invents a recovery the text does not state; without ${bare(agent)}, ${bare(e.target)} stops.`,
        },
      ],
      stated,
      because: `without ${bare(agent)}, ${bare(e.target)} stops`,
    };
  const keyUp = e.sign < 0;
  const change = (up: boolean) => (up ? "increases" : "decreases");
  return {
    stem,
    key: `${T} ${change(keyUp)}`,
    wrong: [
      {
        text: `${T} ${change(!keyUp)}`,
        rationale: `Gives the agent's own effect, not the effect of taking it away: ${stated}, so removing it ${keyUp ? "raises" : "lowers"} ${bare(e.target)}.`,
      },
      {
        text: `${T} stays the same`,
        rationale: `Assumes ${bare(e.target)} does not depend on ${bare(agent)}, but ${stated}.`,
      },
      {
        text: `${T} first ${change(!keyUp)}, then ${change(keyUp)}`,
        rationale: `The text states a one-way effect: ${stated}; nothing makes the change reverse.`,
      },
    ],
    stated,
    // "with the hormone oxytocin gone … so the rate of protein synthesis decreases": the phrases keep their article.
    because: `with ${agent} gone, its ${e.sign > 0 ? "raising" : "lowering"} effect is lost, so ${e.target} ${change(keyUp)}`,
  };
}

/** Effects worth a question: not used in the set, selection passages in rank order. */
function usableEffects(env: IFormEnv): IEffect[] {
  return [...env.kb.effects]
    .filter((e) => !env.used.has(e.sentence))
    .sort((a, b) => (env.kb.rank.get(a.chunkKey) ?? 99) - (env.kb.rank.get(b.chunkKey) ?? 99));
}

export const predictEffect: IForm = {
  id: "predict-effect",
  fits: (type, level) => level === "Apply" && type !== "long",
  available: (kb) => kb.effects.length,
  *build(env) {
    const effects = usableEffects(env);
    if (effects.length === 0 && env.kb.effects.length > 0)
      env.trace?.("every stated effect already used in the set");
    // Where the effects reader gave up on the passages' effect-worded clauses (diagnostics only).
    if (env.trace && env.kb.effects.length === 0) extractEffects(env.kb.sentences, env.trace);
    for (const e of effects) {
      const p = effectPrediction(e);
      const sources = [{ chunkKey: e.chunkKey, quote: e.sentence }];
      const explanation = `The text states that ${lower(stripEnd(e.stated ?? e.sentence))}. So ${p.because}.`;
      if (env.slot.type === "mcq") {
        const q = mcq(env, {
          prompt: p.stem,
          key: { text: p.key },
          distractors: p.wrong,
          explanation,
          sources,
        });
        if (q) yield q;
        continue;
      }
      const q = written(env, {
        prompt: `${p.stem} Explain your prediction.`,
        answer: `${p.key}. The text states that ${lower(stripEnd(e.stated ?? e.sentence))}; ${p.because}.`,
        points: [
          { point: `Predicts that ${lower(p.key)}`, weight: 1 },
          { point: `Uses the stated effect: ${p.stated}`, weight: 1 },
          { point: `Reasons that ${p.because}`, weight: 1 },
        ],
        keywords: keywords([e.agent, e.target]),
        sources,
      });
      if (q) yield q;
    }
  },
};
