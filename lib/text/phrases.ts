import nlp from "compromise";

/**
 * Noun phrases of a text, found by compromise's part-of-speech tagger and cleaned into concept
 * names a question can offer as an answer or a distractor: "the net external force," → "net
 * external force". Adjacent content words that are not a phrase ("force acting", "km min") and
 * textbook scaffolding ("strategy", "solution", "figure") never come out.
 */

const LEADING =
  /^(?:the|a|an|this|that|these|those|its|their|his|her|our|your|my|all|some|any|each|every|both|either|neither|such|other|another|many|much|more|most|few|several|no|one|two|three|four|five|six|seven|eight|nine|ten|first|second|third|same|certain|various|only|just|very|also|even|following|above|below|next|last|given|new|own)\s+/i;

/** Words of the textbook's scaffolding, not of its subject. */
const SCAFFOLD = new Set(
  `answer answers chapter chapters example examples exercise exercises figure figures table tables section sections
  strategy solution solutions discussion problem problems result results step steps part parts way ways thing things
  case cases kind kinds type types lot lots number numbers amount amounts fact facts idea ideas question questions
  reason reasons sense term terms word words use uses order time times end beginning side sides point points
  instance instances course fig link learning summary review page pages unit units value values
  other others year years book books video videos school schools bottom top people person student students
  teacher teachers show shows everything something anything nothing lab activity activities`.split(/\s+/),
);

/** Heads that make any phrase a vague quantity or manner ("enormous amount", "different kinds"). */
const VAGUE_HEADS = new Set(
  `amount amounts kind kinds lot lots way ways thing things example examples fact facts idea ideas reason reasons
  sense instance instances variety varieties sort sorts bit bits deal piece pieces others`.split(/\s+/),
);

const WORD = /^[\p{L}][\p{L}'’-]*$/u;

interface ITaggedTerm {
  text: string;
  tags: string[];
  /** Punctuation and space after the word. */
  post?: string;
}

function clean(tagged: readonly ITaggedTerm[]): string | null {
  let terms = tagged;
  // A phrase the tagger ran across punctuation ("force, mass") is two phrases: keep the last.
  const cut = terms.findLastIndex(
    (t, k) => k < terms.length - 1 && /[,;:.!?)\]”"]/u.test(`${t.text}${t.post ?? ""}`),
  );
  if (cut >= 0) terms = terms.slice(cut + 1);
  const words = terms.map((t) => t.text.replace(/^[\s"'“‘([{]+|[\s"'”’)\]},.;:!?]+$/gu, ""));
  const last = words.length - 1;
  if (last >= 0) words[last] = words[last]!.replace(/[’']s$/u, "");
  const proper = terms.map((t) => t.tags.includes("ProperNoun") || t.tags.includes("Acronym"));
  let phrase = words.join(" ").replace(/\s+/g, " ").trim();
  for (let i = 0; i < 3 && LEADING.test(phrase); i++) phrase = phrase.replace(LEADING, "");
  const kept = phrase.split(" ");
  if (kept.length === 0 || kept.length > 4) return null;
  if (!kept.every((w) => WORD.test(w) && w.length >= 2)) return null;
  if (kept.every((w) => SCAFFOLD.has(w.toLowerCase()))) return null;
  if (phrase.length < 4 || !isNounPhrase(phrase)) return null;
  // Sentence-initial capitals are not names: keep case for proper nouns and acronyms only.
  const firstIndex = words.length - kept.length;
  return proper[firstIndex] ? phrase : kept[0]!.charAt(0).toLowerCase() + phrase.slice(1);
}

const cache = new Map<string, string[]>();
const CACHE_MAX = 4000;

/** Noun phrases of `text` in order of appearance (cached: passages are reused across requests). */
export function nounPhrases(text: string): string[] {
  if (!text.trim()) return [];
  const hit = cache.get(text);
  if (hit) return hit;
  // "… cacti (Figure)": cross-references are not part of any name.
  const prose = text.replace(/\(?\b(?:Figures?|Tables?)\b(?:\s+\d+(?:\.\d+)*)?\)?/g, " , ");
  const matches = nlp(prose).match("#Adjective? #Adjective? #Noun+").json() as { terms: ITaggedTerm[] }[];
  const out: string[] = [];
  for (const m of matches) {
    const phrase = clean(m.terms);
    if (phrase) out.push(phrase);
  }
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(text, out);
  return out;
}

/** Whether a noun phrase is plural ("nodes", "stem cells"), for "what X is/are". */
export function isPluralNoun(phrase: string): boolean {
  return nlp(phrase).nouns().isPlural().found;
}

/** Function words that never sit inside a concept's name ("of" and "and" between words may). */
const FUNCTION_WORDS = new Set(
  `it its they them this that these those which what who whom whose where when why how but or nor so yet since
  because although though while if unless whether behind before after during into onto from with without within
  about above below between among through across against toward towards upon via usually often also only just
  very always never sometimes however then than thus hence here there we you he she me us our your their his her
  not no can could may might must should would will shall is are was were be been being do does did has have had
  let like such`.split(/\s+/),
);

/**
 * Whether a short text can name a concept: no leading determiner or quantifier ("another …",
 * "only …"), no vague head ("examples", "enormous amount") and no function word inside
 * ("Particle physics it", "But every wave", "Behind familiar terms"). A closed word list rather
 * than the tagger: out of context the tagger reads "active transport" or "Calvin cycle" as
 * ending in a verb.
 */
export function isNounPhrase(text: string): boolean {
  if (LEADING.test(`${text} `)) return false;
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0 || VAGUE_HEADS.has(words[words.length - 1]!)) return false;
  return words.every(
    (w, i) =>
      !FUNCTION_WORDS.has(w.split(/[’']/)[0]!.replace(/[^\p{L}]/gu, "")) ||
      (i > 0 && i < words.length - 1 && (w === "of" || w === "and")),
  );
}
