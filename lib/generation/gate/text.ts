import nlp from "compromise";
import { contentWords, stem } from "@/lib/text/tokenize";
import { senses, synset } from "@/lib/text/wordnet";

/** Plain-text helpers shared by the gate's checks. */

export const stemSet = (text: string): Set<string> => new Set(contentWords(text).map(stem));

/** Share of `a`'s content stems found in `b` (0 when `a` has none). */
export function coverage(a: string | ReadonlySet<string>, b: string | ReadonlySet<string>): number {
  const sa = typeof a === "string" ? stemSet(a) : a;
  const sb = typeof b === "string" ? stemSet(b) : b;
  if (sa.size === 0) return 0;
  let hit = 0;
  for (const s of sa) if (sb.has(s)) hit++;
  return hit / sa.size;
}

/** Quoted spans of a text (“…”, "…" and ‘…’). */
export function quotedSpans(text: string): string[] {
  return [...text.matchAll(/“([^”]+)”|"([^"]+)"|‘([^’]{12,})’/g)].map((m) => (m[1] ?? m[2] ?? m[3])!.trim());
}

export const withoutQuotes = (text: string) => text.replace(/“[^”]*”|"[^"]*"|‘[^’]{12,}’/g, " ");

export const BLANK = /_{3,}/;

/** The words that must fill a blank agree with the words around it. */
export function blankNeighbours(stem: string): { before: string; after: string } | null {
  const m = /(\S+)?\s*_{3,}\s*(\S+)?/.exec(stem);
  if (!m) return null;
  return { before: (m[1] ?? "").toLowerCase(), after: (m[2] ?? "").toLowerCase().replace(/[^\p{L}]/gu, "") };
}

const FUNCTION_END =
  /\b(?:is|are|was|were|be|been|to|of|the|a|an|and|or|that|which|who|with|by|for|from|in|on|at|as|than|into|defined to be|known as|called)$/i;

/** A text that stops mid-phrase ("… is defined to be", "… the change in"). */
export function endsMidPhrase(text: string): boolean {
  const t = text
    .trim()
    .replace(/[.?!:;,…"”’]+$/u, "")
    .trim();
  // A capital letter alone is a label ("… the correct explanation of A"), not the article "a".
  if (/\s[A-Z]$/.test(t)) return false;
  return FUNCTION_END.test(t);
}

export type EShape = "number" | "phrase" | "clause";

const NUMBER_OPTION =
  /^(?:(?:about|approximately|more than|less than|fewer than|at least|over|under|nearly)\s+)?[-−+]?\s*(?:\d[\d,:]*(?:\.\d+)?|\.\d+)(?:\s*(?:×|x)\s*10(?:\^?\(?[-−]?\d+\)?|[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+))?\s*[\p{L}/%°^·⋅²³⁻¹\d():−-]*$/u;

/** What an option is: a number (with a unit), a noun phrase, or a clause/sentence with a verb. */
export function shapeOf(option: string): EShape {
  const t = option.trim().replace(/[.]$/, "");
  if (NUMBER_OPTION.test(t)) return "number";
  const words = t.split(/\s+/);
  if (words.length <= 3) return "phrase";
  const doc = nlp(t);
  return doc.has("#Verb") && !doc.has("^#Gerund") && words.length >= 4 ? "clause" : "phrase";
}

/**
 * A one- or two-word option whose last word English knows only as a verb, adjective or adverb
 * ("Refutes", "Measured", "Highly"): not the name of anything. Words WordNet does not know are
 * taken as technical names.
 */
export function isBareNonNoun(option: string): boolean {
  const words = option.trim().replace(/[.]$/, "").split(/\s+/);
  if (words.length > 2) return false;
  const last = words[words.length - 1]!.toLowerCase();
  if (!/^[a-z]+$/.test(last)) return false;
  const known = senses(last, { maxSenses: 60 });
  return known.length > 0 && known.every((s) => s.pos === "v" || s.pos === "r");
}

/** The phrase's last word is a noun to WordNet (unknown words, being technical, are not counted). */
export function isKnownNoun(phrase: string): boolean {
  const last = (phrase.trim().replace(/[.]$/, "").split(/\s+/).pop() ?? "").toLowerCase();
  return /^[a-z]+$/.test(last) && senses(last, { maxSenses: 60 }).some((s) => s.pos === "n");
}

/** Plural by form of a noun phrase's last word, or undefined when unclear. */
export function pluralByForm(phrase: string): boolean | undefined {
  const last = (phrase.trim().split(/\s+/).pop() ?? "").toLowerCase().replace(/[^\p{L}]/gu, "");
  if (!last) return undefined;
  if (/(?:ss|us|is|ics|ies)$/.test(last)) return /ies$/.test(last) ? true : undefined;
  if (/[^s]s$/.test(last)) return true;
  if (/(?:a|um|on)$/.test(last)) return undefined;
  return false;
}

export const normaliseOption = (o: string) =>
  o
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

const artifactCache = new Map<string, boolean>();

/**
 * Whether a word names a made object (apparatus: "thermometer", "protractor", "tape") in its most
 * common noun sense: WordNet places that sense under "instrumentality" or "artifact". An
 * investigation plan names apparatus the passages never mention; that is method, not a fact.
 */
export function isApparatus(word: string): boolean {
  const w = word.toLowerCase();
  const hit = artifactCache.get(w);
  if (hit !== undefined) return hit;
  const first = senses(w, { maxSenses: 1 }).find((s) => s.pos === "n");
  let found = false;
  let frontier = first ? [first] : [];
  for (let depth = 0; depth < 8 && frontier.length && !found; depth++) {
    const sets = frontier.map(synset);
    found = sets.some((s) => s.lemmas.some((l) => l === "instrumentality" || l === "artifact"));
    frontier = sets.flatMap((s) => s.hypernyms);
  }
  artifactCache.set(w, found);
  return found;
}
