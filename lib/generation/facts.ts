import { sentenceSpans } from "@/lib/ingestion/chunk";
import { isNounPhrase, nounPhrases } from "@/lib/text/phrases";
import { contentWords, stem } from "@/lib/text/tokenize";
import type { IContextChunk, IContextRef } from "@/types/generation.types";

/**
 * Extractive knowledge from the selected passages: definitions ("X is a …", "… is called X"),
 * cause–effect and comparison sentences, quantities with units, and other informative
 * statements. Every fact keeps the exact sentence it came from, so a question built on it can
 * cite and quote its source.
 */
export type EFactKind = "definition" | "cause" | "comparison" | "numeric" | "statement";

export interface IFact {
  id: string;
  kind: EFactKind;
  /** The concept the fact is about (definitions; best guess otherwise). */
  term?: string;
  /** Definition text, or the effect of a cause, or the statement itself. */
  body: string;
  /** For causes: the cause clause. For comparisons: the two sides. */
  cause?: string;
  sentence: string;
  chunkKey: string;
  /** Higher is more useful for questions. */
  weight: number;
}

export const chunkKey = (c: { documentId: string; chunkIndex: number }) => `${c.documentId}:${c.chunkIndex}`;

/** A citation of a passage with the sentence(s) that support the question. */
export function contextRef(c: IContextChunk, quote: string): IContextRef {
  return {
    documentId: c.documentId,
    chunkIndex: c.chunkIndex,
    title: c.title,
    ...(c.pageStart !== undefined ? { pageStart: c.pageStart } : {}),
    ...(c.pageEnd !== undefined ? { pageEnd: c.pageEnd } : {}),
    quote,
  };
}

const PRONOUN_START =
  /^(it|this|these|those|they|there|that|which|what|such|he|she|we|you|one|each|some|many|most|all|both|here|in|on|at|for|as|if|when|because|however|also)\b/i;

const DEF_IS =
  /^(?:an?|the)\s+([\p{L}][\p{L}\p{N}' -]{1,60}?)\s+(?:is|are)\s+((?:an?|the|any|one)\s+.{12,})$/iu;
const DEF_BARE = /^([\p{Lu}][\p{L}\p{N}' -]{1,50}?)\s+(?:is|are)\s+((?:an?|the)\s+.{12,})$/u;
const DEF_CALLED =
  /^(.{15,}?),?\s+(?:is|are)\s+(?:called|known as|termed|referred to as|named)\s+(?:an?\s+|the\s+)?([\p{L}][\p{L}\p{N}' -]{1,50}?)\s*(?:\(.*\))?$/iu;
const DEF_REFERS =
  /^(?:an?\s+|the\s+)?([\p{L}][\p{L}\p{N}' -]{1,50}?)\s+(?:refers to|means|describes|is defined as)\s+(.{12,})$/iu;
const CAUSE = /^(.{12,}?)\s*,?\s+(?:because|since|due to)\s+(.{10,})$/i;
const LEADS =
  /^(.{12,}?)\s+(?:causes?|leads? to|results? in|produces?|triggers?|allows?|enables?)\s+(.{10,})$/i;
const COMPARE = /\b(whereas|while|unlike|in contrast|compared (?:to|with)|differs? from|rather than)\b/i;
const QUANTITY =
  /\b\d+(?:[.,]\d+)?\s?(?:%|°\s?[CF]|(?:K|m\/s(?:\^?2)?|km|kg|mg|g|m|cm|mm|µm|nm|J|kJ|N|W|V|A|Hz|mol|L|mL|s|ms|years?|days?|hours?)\b)/;
// "Stomata are small pores …": a plural term defined without an article.
const DEF_PLURAL =
  /^([\p{Lu}][\p{L}\p{N}' -]{1,40}?)\s+are\s+((?!not\b|also\b|found\b|located\b|used\b|made\b|able\b|often\b|usually\b|more\b|less\b|very\b|present\b|important\b|responsible\b)[\p{Ll}].{12,})$/u;
// "Because X, Y" / "Since X, Y".
const CAUSE_FIRST = /^(?:because|since)\s+(.{10,}?),\s+(.{10,})$/i;
/\b\d+(?:[.,]\d+)?\s?(?:%|°\s?[CF]|K|m\/s(?:\^?2)?|km|kg|mg|g|m|cm|mm|µm|nm|J|kJ|N|W|V|A|Hz|mol|L|mL|s|ms|years?|days?|hours?)\b/;

function cleanSentence(s: string): string {
  return s
    .replace(/^\s*(?:[-*]|\d+\.)\s+/, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** Sentences that send the reader elsewhere (links, videos, websites) are not content to test. */
const NAVIGATION =
  /\b(?:click|visit|watch|download|website|web site|this (?:site|link|video|animation|simulation|interactive)|the link|url|https?:|www\.|openstax)\b/i;

/** Leftovers of image credits that wrapped onto the next line ("… Department of Biology, Texas A&M University."). */
const ATTRIBUTION = /\b(?:department of \w+, [^.]*university|modification of work by|courtesy of|credit:)/i;

/** Textbook feature boxes whose titles are labels, not concepts. */
export const FEATURE_BOX =
  /^(?:link to learning|visual connection|career connection|everyday connection|evolution connection|scientific method connection|interactive|glossary|key terms|chapter summary|review questions|critical thinking questions|art connection|mini lab|watch physics|tips? for success|fun in physics|snap lab|work in physics|links to physics)\b/i;

/** A sentence that can stand alone as testable content (length, no links, captions or questions). */
export function isUsable(sentence: string): boolean {
  const words = sentence.split(" ").length;
  return (
    words >= 6 &&
    !NAVIGATION.test(sentence) &&
    words <= 60 &&
    !sentence.endsWith("?") &&
    !/^(figure|table|link to learning|visual connection|career connection|everyday connection)\b/i.test(
      sentence,
    ) &&
    !sentence.startsWith("#") &&
    !sentence.includes("|") &&
    // Worked-example scaffolding and equation lines read badly as stand-alone statements.
    !/^(?:problem|solution|strategy|discussion|answer|check your understanding|known|unknown|given)\s*:/i.test(
      sentence,
    ) &&
    (sentence.match(/[=^_]/g) ?? []).length < 2 &&
    contentWords(sentence).length >= 4
  );
}

function cleanTerm(term: string): string | null {
  const t = term
    .trim()
    .replace(/\s+/g, " ")
    .replace(/^(?:the|an?)\s+/i, "");
  const words = t.split(" ");
  if (words.length > 5 || t.length < 3 || PRONOUN_START.test(t)) return null;
  if (contentWords(t).length === 0) return null;
  // A concept is a noun phrase: "Particle physics it", "But every wave" are not.
  return isNounPhrase(t) ? t : null;
}

/** A cause or effect clause worth asking about: some substance, not ending mid-phrase. */
function isClause(s: string): boolean {
  const opens = (s.match(/\(/g) ?? []).length;
  const closes = (s.match(/\)/g) ?? []).length;
  return (
    opens === closes &&
    !/\b(?:e\.g|i\.e|etc)\.?,?$/i.test(s.trim()) &&
    contentWords(s).length >= 2 &&
    !/\b(that|which|who|whom|also|and|or|the|a|an|of|to|be|been)$/i.test(s.trim())
  );
}

function stripEnd(s: string): string {
  return s.replace(/[.;:!]+$/, "").trim();
}

/**
 * A definition in one of three shapes: "An X is a …", "… is called X", "X refers to …".
 * For "… is called X", a trailing "…: These" before the verb is cut off the description.
 */
function matchDefinition(s: string): { term: string; body: string } | null {
  const is = DEF_IS.exec(s) ?? DEF_BARE.exec(s);
  const isTerm = is && cleanTerm(is[1]!);
  if (isTerm) return { term: isTerm, body: is[2]! };
  const called = DEF_CALLED.exec(s);
  const calledTerm = called && cleanTerm(called[2]!);
  const calledBody = called && called[1]!.replace(/[:;,]\s*(these|this|they|it|which|such)$/i, "").trim();
  if (calledTerm && calledBody && !PRONOUN_START.test(calledBody) && contentWords(calledBody).length >= 3) {
    return { term: calledTerm, body: calledBody };
  }
  const refers = DEF_REFERS.exec(s);
  const refersTerm = refers && cleanTerm(refers[1]!);
  if (refersTerm) return { term: refersTerm, body: refers[2]! };
  const plural = DEF_PLURAL.exec(s);
  const pluralTerm = plural && plural[1]!.split(" ").length <= 3 && cleanTerm(plural[1]!);
  return pluralTerm ? { term: pluralTerm, body: plural[2]! } : null;
}

/**
 * The sentences of the heading-delimited block of a passage that holds `sentence` (so the points
 * of a long answer do not run on into a feature box or the next subsection).
 */
export function blockSentences(content: string, sentence: string): string[] {
  const blocks: { heading: string; text: string[] }[] = [{ heading: "", text: [] }];
  for (const line of content.split("\n")) {
    const h = /^\s*#+\s*(.*)$/.exec(line);
    if (h) blocks.push({ heading: h[1] ?? "", text: [] });
    else blocks.at(-1)!.text.push(line);
  }
  for (const b of blocks) {
    const sentences = passageSentences(b.text.join("\n"));
    if (sentences.includes(sentence)) return FEATURE_BOX.test(b.heading) ? [sentence] : sentences;
  }
  return passageSentences(content);
}

/** Sentences of a passage, in order, without Markdown headings, tables or captions. */
export function passageSentences(content: string): string[] {
  const text = content
    .split("\n")
    .filter((line) => !/^\s*(#|\||Figure:)/.test(line))
    // Image credits are attributions, not content: "(credit: …)" and "Credit: …" to the line end.
    .map((line) => line.replace(/\(credit[^)]*\)/gi, "").replace(/\bCredit:.*$/i, ""))
    .join("\n");
  return sentenceSpans(text, 0, text.length)
    .map(([s, e]) => cleanSentence(text.slice(s, e)))
    .filter((sentence) => !ATTRIBUTION.test(sentence));
}

export function extractFacts(chunks: readonly IContextChunk[]): IFact[] {
  const facts: IFact[] = [];
  const seen = new Set<string>();
  for (const chunk of chunks) {
    const key = chunkKey(chunk);
    for (const sentence of passageSentences(chunk.content)) {
      // Facts must stand alone: a figure reference needs the figure.
      if (!isUsable(sentence) || seen.has(sentence) || /\bFigure\b/.test(sentence)) continue;
      seen.add(sentence);
      const s = stripEnd(sentence);
      const id = `f${facts.length}`;
      const definition = matchDefinition(s);
      if (definition) {
        facts.push({ id, kind: "definition", ...definition, sentence, chunkKey: key, weight: 3 });
        continue;
      }
      const first = CAUSE_FIRST.exec(s);
      if (first && isClause(first[1]!) && isClause(first[2]!)) {
        facts.push({
          id,
          kind: "cause",
          cause: first[1]!,
          body: first[2]!,
          sentence,
          chunkKey: key,
          weight: 2,
        });
        continue;
      }
      let m = CAUSE.exec(s);
      if (
        m &&
        isClause(m[1]!) &&
        isClause(m[2]!) &&
        !PRONOUN_START.test(m[2]!) &&
        !PRONOUN_START.test(m[1]!)
      ) {
        facts.push({ id, kind: "cause", cause: m[2]!, body: m[1]!, sentence, chunkKey: key, weight: 2 });
        continue;
      }
      m = LEADS.exec(s);
      if (m && !PRONOUN_START.test(m[1]!) && isClause(m[1]!) && isClause(m[2]!)) {
        facts.push({ id, kind: "cause", cause: m[1]!, body: m[2]!, sentence, chunkKey: key, weight: 2 });
        continue;
      }
      if (COMPARE.test(s)) {
        facts.push({ id, kind: "comparison", body: s, sentence, chunkKey: key, weight: 2 });
        continue;
      }
      // Plain statements must stand alone: no leading pronoun.
      if (PRONOUN_START.test(s)) continue;
      facts.push({
        id,
        kind: QUANTITY.test(s) ? "numeric" : "statement",
        body: s,
        sentence,
        chunkKey: key,
        weight: 1,
      });
    }
  }
  return facts;
}

/** Concepts available as answers and distractors: defined terms, section titles, then salient phrases. */
export function keyTerms(chunks: readonly IContextChunk[], facts: readonly IFact[]): string[] {
  const terms: string[] = [];
  const stems = new Set<string>();
  const add = (t: string) => {
    const k = contentWords(t).map(stem).join(" ");
    if (!k || stems.has(k)) return;
    stems.add(k);
    terms.push(t);
  };
  for (const f of facts) if (f.kind === "definition" && f.term) add(f.term);
  for (const c of chunks) {
    const last = c.sectionPath?.split(" > ").pop() ?? "";
    const title = last.replace(/^(?:chapter\s+)?\d+(?:\.\d+)*:?\s*/i, "").trim();
    if (
      title &&
      title.split(" ").length <= 6 &&
      !/introduction|summary|review|references|^(?:strategy|solution|discussion|problem|example|answer|check your understanding)\b/i.test(
        title,
      ) &&
      !FEATURE_BOX.test(title)
    )
      add(title);
  }
  // Salient noun phrases (part-of-speech tagged, so "net force" but never "force acting"): the
  // ones that recur, then multi-word ones seen once; a single word must recur.
  const counts = new Map<string, { surface: string; n: number; words: number }>();
  for (const c of chunks) {
    for (const phrase of nounPhrases(passageSentences(c.content).join(" "))) {
      const key = contentWords(phrase).map(stem).join(" ");
      if (!key) continue;
      const seen = counts.get(key);
      if (seen) seen.n++;
      else counts.set(key, { surface: phrase, n: 1, words: phrase.split(" ").length });
    }
  }
  const salient = [...counts.values()]
    .filter((p) => p.n >= 2 || p.words >= 2)
    .sort((a, b) => b.n - a.n || b.words - a.words || a.surface.localeCompare(b.surface))
    .slice(0, 80);
  for (const p of salient) add(p.surface);
  return terms;
}

/** The stems two texts share, as a fraction of the first text's content stems. */
export function overlap(text: string, support: string): number {
  const a = new Set(contentWords(text).map(stem));
  if (a.size === 0) return 0;
  const b = new Set(contentWords(support).map(stem));
  let hit = 0;
  for (const s of a) if (b.has(s)) hit++;
  return hit / a.size;
}
