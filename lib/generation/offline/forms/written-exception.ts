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
  lower,
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
  /**
   * The counterexample as a statement of its own, when the exception sentence does not read so
   * ("Other genes code for RNA products", from "…, whereas others code for …"): `readSomeOthers`.
   */
  counter?: string;
  /** The exception named inside the statement ("the fire salamander"): `readExcept`. */
  excepted?: string;
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

/**
 * "All salamanders except one, the fire salamander, are oviparous"; "Almost all solutes, except
 * for proteins, are filtered out …"; "Most mammals do not lay eggs (except for monotremes …)": the
 * exception is named inside the statement, so "All salamanders are oviparous" (or "No mammals lay
 * eggs") is an over-generalisation the text refutes by name. The exception must be a named noun
 * phrase ("a few simple types", "those from …" are refused), the subject a noun phrase of at most
 * five words with the verb right after the exception.
 */
const EXCEPT_IN =
  /^(all|most|almost all|nearly all|virtually all)\s+(?!of\b)([\p{Ll}][\p{L}\s-]{2,50}?),?\s+except(?: for)?\s+(.{12,})$/iu;
const EXCEPT_AFTER =
  /^(all|most|almost all|nearly all|virtually all)\s+(?!of\b)(.{8,}?)\s+\(except(?: for)?\s+([^()]{3,70})\)\.$/iu;
const VAGUE_EXCEPTION =
  /^(?:a few|few|some|those|these|this|that|one|several|many|others?|certain|when|where|if|in)\b/i;

export function readExcept(statement: ISentence): IException | null {
  if (statement.sideBox || !statement.standalone || needsContext(statement.text)) return null;
  const text = statement.text.replace(/\s+/g, " ").trim();
  if (text.split(/\s+/).length > 35 || /[\d%=;:]/.test(text)) return null;
  let qualifier: string;
  let subject: string;
  let predicate: string;
  let excepted: string;
  const m = EXCEPT_IN.exec(text);
  if (m) {
    qualifier = m[1]!.toLowerCase();
    subject = m[2]!.trim();
    // "one, the fire salamander, are oviparous": the exception ends at the comma before the verb.
    // "… except for the tropics and polar regions." (a place, no verb after it) is refused.
    const parts = stripEnd(m[3]!).split(/,\s+/);
    const k = parts.findIndex(
      (_, i) => i > 0 && subjectOf(`${subject} ${parts.slice(i).join(", ")}`) === subject,
    );
    if (k < 0) return null;
    excepted = parts.slice(0, k).join(", ");
    predicate = parts.slice(k).join(", ");
  } else {
    const a = EXCEPT_AFTER.exec(text);
    if (!a) return null;
    qualifier = a[1]!.toLowerCase();
    const clause = a[2]!.trim();
    subject = subjectOf(clause);
    if (!subject) return null;
    predicate = clause.slice(subject.length).trim();
    excepted = a[3]!.trim();
  }
  // "one, the fire salamander" → "the fire salamander"; "bivalves (e.g., clams)" → "bivalves".
  excepted = excepted
    .replace(/^one,\s+/i, "")
    .replace(/\s*\([^)]*\)/g, "")
    .replace(/\s+such as\b.*$/i, "")
    .trim();
  if (!excepted || VAGUE_EXCEPTION.test(excepted) || excepted.split(/\s+/).length > 6 || /,/.test(excepted))
    return null;
  if (
    /[,()]/.test(subject) ||
    subject.split(/\s+/).length > 5 ||
    PRONOUN.test(subject) ||
    PRONOUN.test(predicate)
  )
    return null;
  if (BROAD.test(subject)) return null;
  if (
    predicate.split(/\s+/).length > 20 ||
    /\b(?:may|might|can|could|often|usually|sometimes)\b/i.test(predicate)
  )
    return null;
  // "Most mammals do not lay eggs" → "No mammals lay eggs"; other negations are left alone.
  const negative = /^(do|does) not\s+(.+)$/i.exec(predicate);
  if (!negative && /\b(?:not|no|never|cannot)\b/i.test(predicate)) return null;
  const claim = negative ? `No ${subject} ${negative[2]!}.` : `All ${subject} ${predicate}.`;
  return {
    claim,
    stated: `${capital(qualifier)} ${subject}, except ${excepted}, ${predicate}.`,
    qualifier,
    subject,
    statement,
    exception: statement,
    // What is true of the exception, when the text says it ("monotremes lay eggs"); else its name.
    counter: negative ? `${excepted} ${negative[2]!}` : excepted,
    excepted,
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
  for (let i = 0; i < sentences.length; i++) {
    const e = readSomeOthers(sentences[i]!, sentences[i + 1]) ?? readExcept(sentences[i]!);
    if (e && !out.some((o) => o.statement.text === e.statement.text)) out.push(e);
  }
  return out;
}

/**
 * "Some X P, whereas others Q" / "Some X P. Other X Q.": the text itself splits a kind in two, so
 * "All X P" is an over-generalisation it refutes with a named counterexample (the other X, and
 * what is true of them instead). One sentence ("Some fruits develop from the ovary …, whereas
 * others develop from other parts …"; "…, while other axons carry …"; "…, but others are
 * hindered …") or two sentences next to each other in one block ("Many genes contain the
 * information to make protein products. Other genes code for RNA products.").
 *
 * Refused: "some of these / of the" (leans on what came before), a subject of more than five words
 * or with a comma (an aside inside it), a broad kind ("all species", "all organisms": a student's
 * claim about everything), a hedged or negated feature ("may", "can", "never", "not": "all … never"
 * is no clear claim), a singular verb (a mass noun: "some water"), a number or a pronoun, and an
 * "others" clause with no feature of its own ("others do not", "others are different").
 */
const SOME = /^(?:(while|although|though)\s+)?(some|many|most)\s+(?!of\b)(?=\p{Ll})/iu;
/** "While most viruses contain …, others have …": the split after a concessive opener. */
const OTHERS_AFTER_WHILE = /,\s+(others?\b.+)$/u;
/** The "others" half: "whereas others …", "; other X …", "but others …". */
const OTHERS_IN = /(?:,[”"’]?\s+(?:whereas|while|but)|;\s+(?:whereas,?\s+)?)\s*(others?\b.+)$/u;
const OTHERS_NEXT = /^(?:(?:however|in contrast|by contrast),\s+)?(others?\b.+)$/iu;

/**
 * "others carry …" or "other (ganglion cell) axons carry …": the other members named by the
 * subject's head word within three words, and their feature; null otherwise ("other regions").
 */
function splitOther(tail: string, head: string): { other: string; feature: string } | null {
  const ws = tail.trim().split(/\s+/);
  if (/^others$/i.test(ws[0]!))
    return ws.length > 1 ? { other: "others", feature: ws.slice(1).join(" ") } : null;
  if (!/^other$/i.test(ws[0]!)) return null;
  for (let j = 1; j <= 3 && j < ws.length - 1; j++)
    if (stem(ws[j]!.toLowerCase()) === stem(head))
      return {
        other: ws
          .slice(0, j + 1)
          .join(" ")
          .toLowerCase(),
        feature: ws.slice(j + 1).join(" "),
      };
  return null;
}
/** A kind too broad for "all …" to be a student's generalisation of what the text says. */
const BROAD =
  /^(?:species|organisms?|cells?|things?|animals?|plants?|people|scientists|researchers|cases|types|kinds|forms|ways|examples?)$/i;
const HEDGED =
  /\b(?:may|might|can|cannot|could|not|no|never|often|usually|sometimes|also|only|even|still|rarely|tend|likely)\b/i;
/** An aside after the feature ("…, a strategy employed by animals"; "…, which …"). */
const ASIDE =
  /,\s+(?:a|an|which|who|such as|including|for example|for instance|that is|meaning|as|like)\b.*$/i;
const VAGUE =
  /^(?:are|is|do|does|have|has)\s+(?:not|different|similar|the same|otherwise)\b|^(?:do|does|did)\s+not\b/i;

function feature(text: string): string | null {
  const f = stripEnd(
    text
      .replace(/\s*\([^)]*\)/g, "")
      .replace(/[“”"]/g, "")
      .replace(ASIDE, ""),
  ).trim();
  const n = f.split(/\s+/).length;
  if (n < 3 || n > 22 || /[\d%=;:]/.test(f) || PRONOUN.test(f) || /\b(?:its|their|them)\b/i.test(f))
    return null;
  if (contentWords(f).length < 2) return null;
  return f;
}

/** One "some X … / others …" split the text states, read as an exception to "All X …". */
export function readSomeOthers(statement: ISentence, next?: ISentence): IException | null {
  if (statement.sideBox || !statement.standalone || needsContext(statement.text)) return null;
  const text = statement.text.replace(/\s+/g, " ").trim();
  const m = SOME.exec(text);
  if (!m) return null;
  const rest = text.slice(m[0].length);
  let first = rest;
  let tail: string;
  let exception: ISentence | null = null;
  const inOne = m[1] ? OTHERS_AFTER_WHILE.exec(rest) : OTHERS_IN.exec(rest);
  if (m[1] && !inOne) return null;
  if (inOne) {
    first = rest.slice(0, inOne.index);
    tail = inOne[1]!;
  } else {
    if (!next || next.sideBox || next.chunkKey !== statement.chunkKey || next.heading !== statement.heading)
      return null;
    if (next.position !== statement.position + 1) return null;
    const n = OTHERS_NEXT.exec(next.text.replace(/\s+/g, " ").trim());
    if (!n) return null;
    tail = n[1]!;
    exception = next;
  }
  const subject = subjectOf(first);
  if (!subject || /[,;:()]/.test(subject) || subject.split(/\s+/).length > 5 || HEDGED.test(subject))
    return null;
  if (/\b\p{L}+ly\b/u.test(subject)) return null;
  const head = subject.split(/\s+/).at(-1)!.toLowerCase();
  if (BROAD.test(head) && subject.split(/\s+/).length === 1) return null;
  const split = splitOther(tail, head);
  if (!split) return null;
  const { other, feature: otherFeature } = split;
  const pa = feature(first.slice(subject.length));
  const pb = feature(otherFeature);
  if (!pa || !pb || HEDGED.test(pa) || VAGUE.test(pb) || /^(?:may|might|can|could)\b/i.test(pb)) return null;
  // A plural verb: "are / have / carry", not "is / has / develops" (a mass noun or a tagging slip).
  const verb = pa.split(/\s+/)[0]!.toLowerCase();
  if (/^(?:is|has|was|does)$/.test(verb) || (/[^s]s$/.test(verb) && !/^(?:was|is|has|does)$/.test(verb)))
    return null;
  // The two features must differ (not one inside the other).
  const sa = new Set(contentWords(pa).map(stem));
  const sb = contentWords(pb).map(stem);
  if (sb.every((w) => sa.has(w))) return null;
  if (/\b(?:most|many|some|few|all|every)\b/i.test(`${subject} ${pa}`)) return null;
  const quantifier = m[2]!.toLowerCase();
  const others = other === "others" ? `other ${subject}` : other;
  const exceptionText = `${capital(others)} ${stripEnd(pb)}`;
  return {
    claim: `All ${subject} ${pa}.`,
    stated: `${capital(quantifier)} ${subject} ${pa}.`,
    qualifier: quantifier,
    subject,
    statement,
    exception: exception ?? statement,
    counter: `${exceptionText}.`,
  };
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
      const counter = e.counter ?? e.exception.text;
      const exception = clip(stripEnd(counter), 170);
      const sources = [
        { chunkKey: e.statement.chunkKey, quote: e.statement.text },
        ...(e.exception.text !== e.statement.text
          ? [{ chunkKey: e.exception.chunkKey, quote: e.exception.text }]
          : []),
      ];
      const q = written(env, {
        prompt: `A student writes: “${e.claim}” Evaluate the student's statement. Is it correct? Justify your answer with a counterexample; marks are for the justification.`,
        answer: e.excepted
          ? `No, the statement is too general: the text names ${e.excepted} as an exception${e.counter !== e.excepted ? ` (${e.counter})` : ""}, so it does not hold for all ${e.subject}. The correct statement: ${lower(stripEnd(e.stated))}.`
          : e.counter
            ? `No, the statement is too general. ${capital(stripEnd(counter))}, so they are a counterexample: not all ${e.subject} fit it. The correct statement is narrower: ${lower(stripEnd(e.stated))}, not all.`
            : `No, the statement is too general. ${e.stated} ${capital(stripEnd(e.exception.text))}. So not all ${e.subject} fit the statement: it holds for ${e.qualifier} of them, not all.`,
        points: [
          {
            point: e.excepted
              ? `Names the exception the text states: ${e.counter ?? e.excepted}`
              : `Gives the exception the text states: ${exception}`,
          },
          {
            point: e.excepted
              ? `Judges the statement incorrect: it does not hold for ${e.excepted}, so not for all ${e.subject}`
              : `Judges the statement incorrect: it holds for ${e.qualifier} ${e.subject}, not all`,
          },
          { point: `Corrects it: ${clip(e.stated, 150)}` },
        ],
        keywords: keywords([e.subject, counter, e.statement.text]),
        sources,
      });
      if (q) yield q;
    }
  },
};
