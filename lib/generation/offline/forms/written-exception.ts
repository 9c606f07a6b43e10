import nlp from "compromise";
import type { ISentence } from "@/lib/generation/offline/knowledge";
import { needsContext } from "@/lib/generation/offline/knowledge/sentences";
import { contentWords, stem } from "@/lib/text/tokenize";
import {
  capital,
  clip,
  formUseKey,
  type IForm,
  type IFormEnv,
  keywords,
  PRONOUN,
  stripEnd,
  written,
} from "./common";

/**
 * `judge-exception` (Evaluate, written): a student's over-general claim made from a qualified
 * statement ("Most mollusks have a special rasp-like organ, the radula" → "All mollusks have …"),
 * judged with the exception the passages state in the next sentence ("The radula is present in
 * all groups except the bivalves"). Round 5–6 readers rejected "usually → always" claims whose
 * only justification was the dropped qualifier (recall), so the exception is required: the
 * judgement rests on a counterexample the text names, and the marks are on it.
 *
 * Refused (left to other forms, or empty): a qualified statement with no stated exception next
 * to it (the passages do not settle that "all" is false of a named member), an exception sentence
 * that only says "however" without a negation or an explicit "except / exception / not all"
 * (it may not contradict the claim) or that shares no word with the claim's predicate ("Not all
 * photosynthetic organisms have full access to sunlight" is no exception to "… have a mixture of
 * pigments"), and statements with two quantifiers, numbers or a pronoun.
 */

const QUANTIFIED = /^(most|many|nearly all|almost all)\s+(?:of\s+the\s+)?(?=\p{Ll})/iu;
/** An explicit exception: "except", "exception(s)", "not all", or "however" with a negation. */
const EXCEPTION = /\b(?:exceptions?|except|not all)\b/i;
const NEGATION = /\b(?:not|cannot|lack|lacks|never|no)\b/i;

export interface IException {
  /** The over-general claim ("All mollusks have …."). */
  claim: string;
  /** The qualified statement as the text words it, cut to its main clause. */
  stated: string;
  qualifier: string;
  /** The subject the quantifier governs ("mollusks"), for the marks. */
  subject: string;
  statement: ISentence;
  exception: ISentence;
}

/** The qualified statement's main clause, its "for example" / "such as" tail and asides dropped. */
const mainClause = (text: string) =>
  stripEnd(text)
    .replace(/\s*\([^)]*\)/g, "")
    .split(/\s*(?:—|;|,\s+(?:for example|for instance|such as|including)\b)/)[0]!
    .trim();

/** The words before the first verb after the first word ("limb bones" in "limb bones are …"). */
export function subjectOf(clause: string): string {
  const terms = (
    nlp(clause).terms().json({ offset: true }) as {
      terms: { tags: string[]; offset: { start: number } }[];
    }[]
  ).map((t) => ({ start: t.terms[0]?.offset.start ?? 0, verb: t.terms[0]?.tags.includes("Verb") ?? false }));
  const at = terms.findIndex((t, i) => i > 0 && t.verb);
  // In the clause's own letters ("Gram-positive bacteria", not the tagger's "Gram- positive").
  return at > 0
    ? clause
        .slice(0, terms[at]!.start)
        .trim()
        .replace(/[,;:]+$/, "")
    : "";
}

/** Reads "Most X …" followed by a sentence that states an exception to it (same passage). */
export function readException(statement: ISentence, next: ISentence | undefined): IException | null {
  if (!next || next.chunkKey !== statement.chunkKey || statement.sideBox || next.sideBox) return null;
  const stated = mainClause(statement.text);
  const m = QUANTIFIED.exec(stated);
  if (!m) return null;
  const words = stated.split(/\s+/).length;
  if (words < 6 || words > 30 || /[\d%=]/.test(stated) || PRONOUN.test(stated)) return null;
  const rest = stated.slice(m[0].length);
  // One quantifier only ("Most animals and many unicellular organisms are diploid" is two claims).
  if (/\b(?:most|many|some|few|all|always|usually|often|only|every|no)\b/i.test(rest)) return null;
  // The subject: the words up to the verb ("mollusks" in "mollusks have …").
  const subject = subjectOf(rest);
  if (!subject || subject.split(/\s+/).length > 5) return null;
  // The exception must be explicit and about the same things (a subject word or a predicate word).
  const exc = next.text;
  if (!(EXCEPTION.test(exc) || (/\bhowever\b/i.test(exc) && NEGATION.test(exc)))) return null;
  if (exc.split(/\s+/).length > 35 || /\b(?:figure|table)\b/i.test(exc)) return null;
  // About what the claim says (a word of its predicate: "the radula", "bones"), not any "not all".
  const predicate = new Set(contentWords(rest.slice(subject.length)).map(stem));
  if (!contentWords(exc).some((w) => predicate.has(stem(w)))) return null;
  const quantifier = m[1]!.toLowerCase();
  const all = /^of\s+the\b/i.test(m[0].slice(m[1]!.length).trim()) ? "All of the" : "All";
  return {
    claim: `${all} ${rest}.`,
    stated: `${capital(stated)}.`,
    qualifier: quantifier,
    subject,
    statement,
    exception: next,
  };
}

/** Qualified statements of the selection with the exception stated right after them. */
export function exceptionsOf(sentences: readonly ISentence[]): IException[] {
  const out: IException[] = [];
  for (let i = 0; i + 1 < sentences.length; i++) {
    const s = sentences[i]!;
    if (!s.standalone || needsContext(s.text)) continue;
    const e = readException(s, sentences[i + 1]);
    if (e) out.push(e);
  }
  return out;
}

export const judgeException: IForm = {
  id: "judge-exception",
  fits: (type, level) => type !== "mcq" && level === "Evaluate",
  available: (kb) => exceptionsOf(kb.sentences).length,
  *build(env: IFormEnv) {
    const found = exceptionsOf(env.kb.sentences);
    if (found.length === 0)
      env.trace?.("no qualified statement (“most / many X …”) with its exception stated next to it");
    for (const e of found) {
      if (env.used.has(e.statement.text) || env.used.has(formUseKey("judge-exception", e.statement.text))) {
        env.trace?.("qualified statement already used in the set");
        continue;
      }
      const long = env.slot.type === "long";
      if (long) {
        env.trace?.("long: one stated exception is not enough for a long answer");
        continue;
      }
      const exception = clip(stripEnd(e.exception.text), 170);
      const q = written(env, {
        prompt: `A student writes: “${e.claim}” Evaluate the student's statement. Is it correct? Justify your answer with an example from the text; marks are for the justification.`,
        answer: `No, the statement is too general. ${e.stated} ${capital(stripEnd(e.exception.text))}. So not all ${e.subject} fit the statement: it holds for ${e.qualifier} of them, not all.`,
        points: [
          { point: `Gives the exception the text states: ${exception}` },
          { point: `Judges the statement incorrect: it holds for ${e.qualifier} ${e.subject}, not all` },
          { point: `Corrects it: ${clip(e.stated, 150)}` },
        ],
        keywords: keywords([e.subject, e.exception.text, e.statement.text]),
        sources: [
          { chunkKey: e.statement.chunkKey, quote: e.statement.text },
          { chunkKey: e.exception.chunkKey, quote: e.exception.text },
        ],
      });
      if (q) yield q;
    }
  },
};
