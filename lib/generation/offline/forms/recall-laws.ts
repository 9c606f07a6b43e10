import type { IKnowledge, ISentence } from "@/lib/generation/offline/knowledge";
import { sameConcept } from "@/lib/generation/offline/knowledge/lexicon";
import { needsContext } from "@/lib/generation/offline/knowledge/sentences";
import { contentWords } from "@/lib/text/tokenize";
import {
  capital,
  clip,
  formUseKey,
  type IForm,
  type IFormEnv,
  type IOption,
  keywords,
  mcq,
  shuffle,
  stripEnd,
  written,
} from "./common";
import { reverseClause } from "./statements";

/**
 * Remember: named laws and principles the passages state ("Newton’s third law of motion states
 * that …", "The competitive exclusion principle states that …", "Boyle’s law is the gas law that
 * states that …").
 *
 * - short: "State Newton’s third law of motion." The marks go to the parts of the statement (the
 *   condition, what follows, a qualification), so a statement of one idea is not asked for marks.
 * - MCQ: "Which of the following is a statement of the second law of thermodynamics?" The wrong
 *   options are other laws the chapter states (Newton’s first and second laws beside the third),
 *   and the law with its direction word reversed, so it is false (`reverse`); never another
 *   statement of the same law ("Newton’s second law … in terms of momentum").
 */

export interface INamedLaw {
  /** As it reads inside a sentence ("Newton’s third law of motion", "the first law of thermodynamics"). */
  name: string;
  /** What the law says, without "that" ("whenever a first object exerts a force …"). */
  body: string;
  sentence: string;
  chunkKey: string;
}

const LAW_WORD = /\b(?:law|laws|principle|theory|postulate|theorem|rule)\b/i;
const STATES = /^(.{6,90}?)\s+(?:states|says)\s+that,?\s+(.{20,})$/u;
/** "Boyle’s Law is the gas law that states that …": the name is the subject. */
const IS_THE_LAW =
  /^(.{4,60}?)\s+is\s+(?:the|a)\s+[^,]{0,40}?\b(?:law|principle|rule)\s+that\s+states\s+that,?\s+(.{20,})$/iu;

const lowerThe = (s: string) => s.replace(/^The\b/, "the");

/** A law's statement without a trailing formula (", F_net = Δp/Δt"), or null when it is not prose. */
function cleanBody(raw: string): string | null {
  let body = stripEnd(raw.trim());
  body = body.replace(/,\s*[^,]*=[^,]*$/, "").trim();
  if (/[=]/.test(body) || contentWords(body).length < 5) return null;
  if (/^(?:it|this|these|they|them)\b/i.test(body)) return null;
  return body;
}

function readLaw(s: ISentence): INamedLaw | null {
  if (s.sideBox) return null;
  const text = s.text.trim();
  const m = IS_THE_LAW.exec(text) ?? STATES.exec(text);
  if (!m) return null;
  let name = m[1]!
    .trim()
    .replace(/^(?:recall|note|remember|notice) that\s+/i, "")
    .replace(/\s*\([^)]*\)$/, "");
  // An opening phrase before the name ("Expressed in modern language, Newton's universal law of
  // gravitation states that …": round 11 readers read "a statement of Expressed in …").
  const tail = name.split(/,\s+/).at(-1)!;
  if (tail !== name && LAW_WORD.test(tail)) name = tail;
  // A name opens the sentence: "The …" or a proper name ("Newton’s", "Mendel’s").
  if (!/^(?:\p{Lu}|the\s)/u.test(name)) return null;
  if (!LAW_WORD.test(name) || name.split(/\s+/).length > 10) return null;
  // The name is the law itself, not a pointer to one ("This law", "It", "The law").
  if (/^(?:this|that|these|it|one|another)\b|^the (?:law|principle|rule|theory)\b(?!\s+of\b)/i.test(name))
    return null;
  if (needsContext(name)) return null;
  const body = cleanBody(m[2]!);
  if (!body) return null;
  return { name: lowerThe(name), body, sentence: s.text, chunkKey: s.chunkKey };
}

const memo = new WeakMap<IKnowledge, { own: INamedLaw[]; scope: INamedLaw[] }>();

/** The laws the selection states (questions) and those the chapter states (wrong options), one per name. */
export function namedLaws(kb: IKnowledge): { own: INamedLaw[]; scope: INamedLaw[] } {
  let hit = memo.get(kb);
  if (!hit) {
    const read = (sentences: readonly ISentence[]) => {
      const out: INamedLaw[] = [];
      for (const s of sentences) {
        const law = readLaw(s);
        if (law && !out.some((o) => sameLaw(o.name, law.name))) out.push(law);
      }
      return out;
    };
    hit = { own: read(kb.sentences), scope: read(kb.scopeSentences) };
    memo.set(kb, hit);
  }
  return hit;
}

/** Two names of one law, or one a form of the other ("Newton’s second law" / "… in terms of momentum"). */
const sameLaw = (a: string, b: string) => a.toLowerCase() === b.toLowerCase() || sameConcept(a, b);

/** The parts of a statement a mark can go to: its clauses and qualifications, in order. */
export function lawParts(body: string): string[] {
  return body
    .split(/;\s+|,\s+(?:and|but|while|so)\s+|\s+but\s+|,\s+(?=(?:the|a|an|it|and)\b)/i)
    .map((p) => p.trim())
    .filter((p) => contentWords(p).length >= 2);
}

/** Remember, written: "State <law>." with a mark on each part of the statement. */
export const stateLaw: IForm = {
  id: "state-law",
  fits: (type, level) => type === "short" && level === "Remember",
  available: (kb) => namedLaws(kb).own.filter((l) => lawParts(l.body).length >= 2).length,
  *build(env) {
    const { own } = namedLaws(env.kb);
    if (own.length === 0) env.trace?.("no named law or principle stated (“… law states that …”)");
    for (const law of own) {
      if (env.used.has(law.sentence) || env.used.has(formUseKey("state-law", law.name))) continue;
      const parts = lawParts(law.body);
      if (parts.length < 2) {
        env.trace?.("law stated in one idea (no parts to mark)");
        continue;
      }
      const q = written(env, {
        prompt: `State ${law.name}.`,
        answer: `${capital(law.name)} states that ${law.body}.`,
        points: parts.map((p) => ({ point: `Includes: ${clip(p, 150)}` })),
        keywords: keywords([law.body]),
        sources: [{ chunkKey: law.chunkKey, quote: law.sentence }],
      });
      if (q) yield q;
    }
  },
};

const similarLength = (a: string, b: string) => {
  const r = a.length / b.length;
  return r >= 0.45 && r <= 2.2;
};

/** Remember, MCQ: which option states the law; the others state other laws, or this one reversed. */
export const lawMcq: IForm = {
  id: "law-mcq",
  fits: (type, level) => type === "mcq" && level === "Remember",
  available: (kb) =>
    namedLaws(kb).scope.length + namedLaws(kb).own.length >= 2 ? namedLaws(kb).own.length : 0,
  *build(env: IFormEnv) {
    const { own, scope } = namedLaws(env.kb);
    if (own.length === 0) env.trace?.("no named law or principle stated (“… law states that …”)");
    for (const law of own) {
      if (env.used.has(law.sentence) || env.used.has(formUseKey("law-mcq", law.name))) continue;
      const wrong: IOption[] = [];
      const flipped = reverseClause(`${capital(law.body)}.`, law.chunkKey);
      if (flipped)
        wrong.push({
          text: flipped.text,
          rationale: `Reverses ${law.name} (“${flipped.to}” for “${flipped.from}”): the law says ${clip(law.body, 120)}.`,
        });
      // A law another question of the set already asks is not a wrong option here (two law MCQs
      // whose options are each other's keys read as one question twice).
      const others = [...own, ...scope].filter(
        (o, i, all) =>
          !sameLaw(o.name, law.name) &&
          !env.used.has(o.sentence) &&
          all.findIndex((x) => sameLaw(x.name, o.name)) === i &&
          similarLength(o.body, law.body),
      );
      for (const o of shuffle(others, env.random)) {
        if (wrong.length >= 3) break;
        wrong.push({
          text: `${capital(o.body)}.`,
          rationale: `This is ${o.name}, not ${law.name}.`,
        });
      }
      if (wrong.length < 3) {
        env.trace?.("< 3 other laws in the chapter (or a reversal) for the options");
        continue;
      }
      const q = mcq(env, {
        prompt: `Which of the following is a statement of ${law.name}?`,
        key: { text: `${capital(law.body)}.` },
        distractors: wrong,
        explanation: `The text states it: “${clip(law.sentence, 220)}”`,
        sources: [{ chunkKey: law.chunkKey, quote: law.sentence }],
      });
      if (q) yield q;
    }
  },
};
