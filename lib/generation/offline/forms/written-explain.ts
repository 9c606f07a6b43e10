import type { IKnowledge, ISentence } from "@/lib/generation/offline/knowledge";
import { extractMechanisms, type IMechanism } from "@/lib/generation/offline/knowledge/relations";
import { needsContext } from "@/lib/generation/offline/knowledge/sentences";
import { contentWords, stem } from "@/lib/text/tokenize";
import { capital, clip, type IForm, type IFormEnv, keywords, lower, stripEnd, written } from "./common";
import { LEANS_ON_CONTEXT } from "./recall";
import { ABOUT_NAMES } from "./relations";

/**
 * Understand, written: explain how or why from a mechanism, purpose or consequence the passages
 * state in one sentence beyond "because" — "… by inducing …" (how), "… is due to …" (what causes
 * it), "… so that …" / "in order to …" (what for), "X causes / prevents Y". The stem names only
 * the effect; the marks go to the stated cause, the link, and the effect, so the model answer
 * explains rather than repeats the sentence.
 */

const mechanismsOf = new WeakMap<IKnowledge, IMechanism[]>();
/** The selection's mechanisms, once per knowledge base (read from its sentences). */
export function mechanisms(kb: IKnowledge): IMechanism[] {
  let hit = mechanismsOf.get(kb);
  if (!hit) {
    hit = extractMechanisms(kb.sentences).filter(
      (m) =>
        !LEANS_ON_CONTEXT.test(m.sentence) &&
        !needsContext(m.sentence) &&
        !ABOUT_NAMES.test(m.effect) &&
        // The cause must not already be in the effect's words (else the answer is in the stem).
        newWords(m.cause, m.effect) >= 0.5,
    );
    mechanismsOf.set(kb, hit);
  }
  return hit;
}

/** Share of the cause's content stems that the effect does not already contain. */
function newWords(cause: string, effect: string): number {
  const c = new Set(contentWords(cause).map(stem));
  if (c.size === 0) return 0;
  const e = new Set(contentWords(effect).map(stem));
  return [...c].filter((s) => !e.has(s)).length / c.size;
}

/** The question, the answer's explanation and the link point, by how the sentence links the two. */
export function explainItem(m: IMechanism): { prompt: string; answer: string; link: string } | null {
  const effect = lower(stripEnd(m.effect));
  const cause = lower(stripEnd(m.cause));
  switch (m.link) {
    case "by":
      return {
        prompt: `Explain how ${effect}.`,
        answer: `It comes about by ${cause}. That is the means: without ${cause}, it would not be the case that ${effect}.`,
        link: `Shows that ${clip(cause, 80)} is the means by which ${clip(effect, 80)}`,
      };
    case "due to":
    case "because of":
    case "as a result of":
      return m.effectIsClause
        ? {
            prompt: `Explain why ${effect}.`,
            answer: `The cause is ${cause}. It is the result of ${cause} that ${effect}.`,
            link: `Links the cause to the effect: it is a result of ${clip(cause, 80)}`,
          }
        : {
            prompt: `Explain what causes ${effect}.`,
            answer: `${capital(effect)} ${/s$/.test(effect.split(" ")[0] ?? "") ? "arise" : "arises"} from ${cause}. The cause is ${cause}, and the effect it produces is ${effect}.`,
            link: `Links the cause to what it produces (${clip(effect, 80)})`,
          };
    case "so that":
    case "in order to": {
      const purpose = m.link === "so that" ? cause : `to ${cause}`;
      return {
        prompt: `Explain why ${effect}.`,
        answer: `The reason is the purpose it serves: ${purpose}. Without it, that outcome would not be achieved, which is why ${effect}.`,
        link: `Links the action to its purpose (it is done ${m.link === "so that" ? "so that" : "in order"} ${clip(purpose, 80)})`,
      };
    }
    case "causes":
      return {
        prompt: `Explain what causes ${effect}.`,
        answer: `The cause is ${cause}. What ${cause} brings about is ${effect}.`,
        link: `Links the cause to what it produces (${clip(effect, 80)})`,
      };
    case "prevents":
      return {
        prompt: `Explain what prevents ${effect}.`,
        answer: `The cause is ${cause}. It acts against the change, and so ${cause} stops ${effect}.`,
        link: `Explains how ${clip(cause, 80)} stops it happening`,
      };
  }
}

/** An effect or clause that stops before its complement ("… are ultimately", "… is the"). */
const CUT_SHORT = /\b(?:\w+ly|are|is|was|were|be|been|the|a|an|of|to|by)$/i;

/**
 * Why a stated cause cannot carry an explain item (explain-why, explain-mechanism), or null. A
 * cause of a few words ("transduction", "sliding on the slide", "the reduction in Patm", "genetic
 * factors or physiology") makes a three-mark answer that says the cause three times: round 10's
 * readers rejected all four such short answers (8 of 8 readings); an effect cut before its
 * complement ("… are ultimately") cannot be asked.
 */
export function thinCause(cause: string, effect: string): string | null {
  if (contentWords(cause).length < 4)
    return "the cause is a bare phrase (< 4 content words): recall, not an explanation";
  if (CUT_SHORT.test(stripEnd(effect))) return "the effect is cut short";
  // "… start when a gene mutation": a clause cut before its verb (dev reading, Biology offset 0).
  if (VERBLESS_TAIL.test(stripEnd(cause))) return "the cause is cut short";
  // "Explain why a faulty protein that plays …": a noun phrase with a relative clause, no main verb.
  if (NOUN_WITH_RELATIVE.test(stripEnd(effect))) return "the effect is a noun phrase, not a clause";
  return null;
}

/** A subordinate clause of at most three words none of which reads as a verb ("when a gene mutation"). */
const VERBLESS_TAIL =
  /\b(?:when|if|while|because|that|which|who|whereas)(?:\s+(?!\S*(?:s|ed|ing)\b)\S+){1,3}$/i;
/** "a X of Y that / who …" with no verb before the relative pronoun. */
const NOUN_WITH_RELATIVE =
  /^(?:an?|one)\s+(?:(?!is\b|are\b|was\b|were\b|has\b|have\b|can\b|will\b)[\p{L}-]+\s+){1,6}(?:that|which|who)\s/iu;

/** A further sentence of the same passage on the same idea (a long answer's further marks). */
function elaboration(env: IFormEnv, m: IMechanism): ISentence | undefined {
  const own = new Set(contentWords(`${m.cause} ${m.effect}`).map(stem));
  // It develops the cause: it names at least one of the cause's words, not only the effect's.
  const cause = new Set(contentWords(m.cause).map(stem));
  return env.kb.sentences.find(
    (s) =>
      s.chunkKey === m.chunkKey &&
      s.standalone &&
      !s.sideBox &&
      s.text !== m.sentence &&
      !env.used.has(s.text) &&
      !LEANS_ON_CONTEXT.test(s.text) &&
      !needsContext(s.text) &&
      contentWords(s.text).filter((w) => own.has(stem(w))).length >= 2 &&
      contentWords(s.text).some((w) => cause.has(stem(w))),
  );
}

/** The same cause and effect already stand in the set in other words ("hormones cause cellular changes by binding …"). */
function askedAlready(env: IFormEnv, m: IMechanism): boolean {
  const effect = new Set(contentWords(m.effect).map(stem));
  const cause = new Set(contentWords(m.cause).map(stem));
  if (effect.size === 0 || cause.size === 0) return false;
  const share = (a: Set<string>, words: Set<string>) => [...a].filter((s) => words.has(s)).length / a.size;
  for (const u of env.used) {
    const words = new Set(contentWords(u).map(stem));
    if (share(effect, words) >= 0.8 || (share(effect, words) >= 0.5 && share(cause, words) >= 0.5))
      return true;
  }
  return false;
}

export const explainMechanism: IForm = {
  id: "explain-mechanism",
  fits: (type, level) => type !== "mcq" && level === "Understand",
  available: (kb) => mechanisms(kb).length,
  *build(env) {
    const long = env.slot.type === "long";
    const list = [...mechanisms(env.kb)].sort(
      (a, b) => (env.kb.rank.get(a.chunkKey) ?? 99) - (env.kb.rank.get(b.chunkKey) ?? 99),
    );
    if (list.length === 0) env.trace?.("no stated mechanism, purpose or consequence");
    for (const m of list) {
      if (env.used.has(m.sentence) || askedAlready(env, m)) {
        env.trace?.("sentence or its effect already used in the set");
        continue;
      }
      const item = explainItem(m);
      if (!item) continue;
      // A short answer, like a long one, needs a cause with substance and a further sentence
      // that develops the cause.
      const thin = thinCause(m.cause, m.effect);
      if (thin) {
        env.trace?.(thin);
        continue;
      }
      const extra = elaboration(env, m);
      if (!extra) {
        env.trace?.("no further sentence on the same idea");
        continue;
      }
      const q = written(env, {
        prompt: `${item.prompt}${long ? " Develop your explanation with what the passage says about it." : ""}`,
        answer: `${item.answer} ${capital(stripEnd(extra.text))}.`,
        // Short: the cause, how it works (the further sentence), the effect it explains; long adds
        // the link and weights the cause.
        points: [
          { point: `States the cause: ${clip(lower(stripEnd(m.cause)), 150)}`, weight: long ? 2 : 1 },
          ...(long ? [{ point: item.link }] : []),
          { point: `Develops it: ${clip(lower(stripEnd(extra.text)), 150)}`, weight: 1 },
          { point: `Ends with the effect it explains: ${clip(lower(stripEnd(m.effect)), 120)}` },
        ],
        keywords: keywords([m.cause, m.effect, extra.text]),
        sources: [
          { chunkKey: m.chunkKey, quote: m.sentence },
          { chunkKey: extra.chunkKey, quote: extra.text },
        ],
      });
      if (q) yield q;
    }
  },
};
