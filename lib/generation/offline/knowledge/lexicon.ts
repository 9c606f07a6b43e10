import nlp from "compromise";
import { isNounPhrase } from "@/lib/text/phrases";
import { contentWords, isStopword, stem } from "@/lib/text/tokenize";
import { hypernyms, senses, synonyms, usageCount } from "@/lib/text/wordnet";
import { ANAPHORA, FEATURE_BOX, type ISentence } from "./sentences";

/**
 * The terms the passages define, each with its definition, the kind of thing it is (the genus of
 * the definition: "a molecule …" → molecule, "the movement of …" → movement) and where it was
 * defined. Options of a question are drawn from here: a distractor for a term is another term of
 * the same kind defined in the same chapter, never a phrase mined from any sentence.
 */
export interface ITerm {
  term: string;
  /** The definition, starting with its article ("a molecule consisting of …"). */
  definition: string;
  /** Head noun of the definition's first noun phrase, singular ("molecule", "process"). */
  genus: string;
  /** Head noun of the term itself, singular ("protein" for "integral proteins"). */
  head: string;
  plural: boolean;
  sentence: string;
  chunkKey: string;
  /** Other names given in the same sentence ("integral proteins, or integrins"). */
  aliases: string[];
}

/** Nouns too general to be a concept on their own ("the result is a …", "this process is …"). */
const GENERIC = new Set(
  `result results process processes example examples way ways part parts type types thing things one ones step steps
  key goal goals problem problems answer difference differences advantage advantages function functions role roles
  purpose effect effects outcome amount number majority most first second third rest remainder latter former
  reason reasons case cases idea ideas fact facts concept concepts term terms word words method methods system
  systems structure structures group groups form forms kind kinds feature features property properties area areas
  level levels stage stages phase phases factor factors component components element elements material materials
  substance substances product products change changes event events use uses study studies answer work name
  something anything everything nothing someone everyone people scientists researchers students
  importance significance basis nature source sources region regions site sites`.split(/\s+/),
);

/** Genus words that say nothing about the kind of thing ("a group of …", "the result of …"). */
const GENERIC_GENUS = new Set(
  "group variety type kind number portion part result set series collection example form way one thing sort member piece amount".split(
    " ",
  ),
);

const TERM = String.raw`[\p{L}][\p{L}\p{N}'’ -]{1,60}?`;
const DEF_IS = new RegExp(
  String.raw`^(?:an?|the)\s+(${TERM})(?:\s*\(([^)]{1,30})\))?(?:,\s*or\s+([^,]{2,40}),)?\s+(?:is|are)\s+((?:an?|the|any|one of the)\s+.{12,})$`,
  "iu",
);
const DEF_BARE =
  /^(\p{Lu}[\p{L}\p{N}'’ -]{1,60}?)(?:\s*\(([^)]{1,30})\))?(?:,\s*or\s+([^,]{2,40}),)?\s+(?:is|are)\s+((?:an?|the|any|one of the)\s+.{12,})$/u;
const DEF_CALLED = new RegExp(
  String.raw`^(.{15,}?),?\s+(?:is|are)\s+(?:called|known as|termed|referred to as|named)\s+(?:an?\s+|the\s+)?(${TERM})(?:\s*\(([^)]{1,30})\))?(?:,?\s+or\s+([^,]{2,40}))?$`,
  "iu",
);
const DEF_REFERS = new RegExp(
  String.raw`^(?:an?\s+|the\s+)?(?:term\s+)?(${TERM})(?:\s*\(([^)]{1,30})\))?\s+(?:refers to|means|is defined as|are defined as|is the term for|describes)\s+(.{12,})$`,
  "iu",
);
/** "Cells engulf large particles, a process called phagocytosis": the clause describes the term. */
const DEF_APPOSITIVE = new RegExp(
  String.raw`^(.{20,}?),\s+(?:an?|the)\s+((?:[\p{L}-]+\s+){0,2}?[\p{L}-]+)\s+(?:called|known as|termed|referred to as|named)\s+(?:an?\s+|the\s+)?(${TERM})(?:\s*\(([^)]{1,30})\))?$`,
  "iu",
);
const DEF_PLURAL =
  /^(\p{Lu}[\p{L}\p{N}'’ -]{1,40}?)\s+are\s+((?!not\b|also\b|found\b|located\b|used\b|made\b|able\b|often\b|usually\b|more\b|less\b|very\b|present\b|important\b|responsible\b|common\b|similar\b|different\b|essential\b|critical\b|necessary\b|likely\b|unable\b|known\b|involved\b|thought\b)[\p{Ll}][\p{Ll}-]+\s+[\p{Ll}].{10,})$/u;

const PREPOSITION_CUT =
  /\s(?:that|which|who|whose|where|when|of|in|on|with|by|for|from|to|and|or|as|at|into|through|between|within|consisting|containing|made|composed|used|found|formed|produced|called|known|such)\b.*$/i;

/** Upper-cases the first letter, except in a word like "tRNAs", "mRNA" or "pH" (round 12: "TRNAs are …"). */
export const capital = (s: string) =>
  /^\p{Ll}+\p{Lu}/u.test(s) ? s : s.charAt(0).toUpperCase() + s.slice(1);

/** The regular plural of a singular noun ("tissue" → "tissues", "class" → "classes", "body" → "bodies"). */
export const pluralOf = (w: string): string =>
  /(?:s|x|ch|sh)$/.test(w) ? `${w}es` : /[^aeiou]y$/.test(w) ? `${w.slice(0, -1)}ies` : `${w}s`;

/** Singular of a simple English plural noun (good enough for heads: "proteins" → "protein"). */
export function singular(word: string): string {
  const w = word.toLowerCase();
  if (/(?:ss|us|is|sis|series|species)$/.test(w)) return w;
  if (/ies$/.test(w)) return `${w.slice(0, -3)}y`;
  if (/(?:ch|sh|x|z|ses)es$/.test(w)) return w.slice(0, -2);
  if (/[^s]s$/.test(w)) return w.slice(0, -1);
  return w;
}

/** The head noun of a phrase: its last word, or the word before "of" ("rate of diffusion" → rate). */
export function headOf(phrase: string): string {
  const words = phrase
    .replace(/\(.*?\)/g, "")
    .trim()
    .split(/\s+/);
  const of = words.findIndex((w) => /^(?:of|in|for)$/i.test(w));
  const head = of > 0 ? words[of - 1]! : words[words.length - 1]!;
  return singular(head.replace(/[^\p{L}\p{N}-]/gu, ""));
}

/** Genus of a definition body: the head of its first noun phrase ("a passive process of …" → process). */
export function genusOf(body: string): string {
  const np = body
    .replace(/^(?:an?|the|any|one of the)\s+/i, "")
    .replace(PREPOSITION_CUT, "")
    .replace(/[,;:].*$/, "")
    .trim();
  const words = np.split(/\s+/).filter((w) => !/(?:ly)$/i.test(w));
  return singular((words[words.length - 1] ?? "").replace(/[^\p{L}\p{N}-]/gu, ""));
}

function cleanTerm(raw: string): string | null {
  const t = raw
    .trim()
    .replace(/\s+/g, " ")
    .replace(/^(?:the|an?)\s+/i, "")
    .replace(/[,;:]+$/, "");
  const words = t.split(" ");
  if (words.length > 5 || t.length < 3 || ANAPHORA.test(t)) return null;
  // "Examples of flat bones are the sternum, ribs …": a list of examples, not a term.
  if (/^(?:examples?|types?|kinds?|forms?|parts?|members?) of\b/i.test(t)) return null;
  // "The important components of the nucleotide are a base, a sugar and a phosphate group": the
  // parts or traits of something, or a judgement ("important", "main"), are not a term (round 11
  // readers: the key "important components of the nucleotide" read as a lifted phrase).
  if (
    PARTS_OF.test(t) ||
    /^(?:important|main|key|chief|principal|significant|notable|various|several)\s/i.test(t)
  )
    return null;
  if (/\b(?:and|or)\b/i.test(t)) return null;
  if (contentWords(t).length === 0) return null;
  if (words.length === 1 && GENERIC.has(t.toLowerCase())) return null;
  if (GENERIC.has(t.toLowerCase().split(" ")[0]!) && words.length <= 2 && /^(?:this|these|that)/i.test(raw))
    return null;
  return isNounPhrase(t) ? t : null;
}

/** "components of …", "main features of …": what something is made of or is like, not a name. */
const PARTS_OF =
  /^(?:\p{L}+\s+)?(?:components?|constituents?|ingredients?|parts?|elements?|features?|characteristics?|properties|functions?|roles?|steps?|stages?|products?|uses?|causes?|effects?|sources?|results?|advantages?|disadvantages?) of\b/iu;

/** "a nitrogenous base, a 5-carbon sugar, and a phosphate group": a list of parts, not a genus and what sets it apart. */
const LIST_BODY = /^(?:an?|the)\s[^,]+,\s*(?:an?|the)\s[^,]+,?\s+and\s+(?:an?|the)\s/i;

/** A definition body worth testing: enough substance, no dangling ending, no pointer back. */
function cleanBody(raw: string): string | null {
  // "a measure of X and is one of many …": the definition ends where a second predicate starts.
  const body = raw
    .replace(/[.;:!]+$/, "")
    .replace(
      /,?\s+(?:and|but|which|that)\s+(?:is|are|was|were|has|have)\s+(?:one|also|often|usually|not|an?|the)\b.*$/i,
      "",
    )
    // "the energy of motion and is covered in detail elsewhere" (round 11 readers: a key read
    // from a broken definition): a second predicate of the term is not part of its definition.
    .replace(/,?\s+(?:and|but)\s+(?:is|are)\s+(?:\p{L}+ly\s+)?\p{L}+ed\b.*$/iu, "")
    .trim();
  if (/^(?:one|some|many|most|each|any) of\b/i.test(body) || LIST_BODY.test(body)) return null;
  // "Pathogens are only a small percentage of all prokaryotes": a share of a group, not what the term is.
  if (
    /^(?:only|just|mostly|largely|mainly|nearly|almost|about|approximately|roughly)\b/i.test(body) ||
    /^(?:an?|the)\s+(?:\p{L}+\s+)?(?:percentage|proportion|fraction|majority|minority|share)\s+of\b/iu.test(
      body,
    )
  )
    return null;
  // "the force along a flexible connector, such as a rope or cable": the examples are not the
  // definition; what precedes them is ("such" alone still points back, below).
  // Only a list of examples that ends the body is cut ("…, such as a river, meets the ocean" is not).
  const examples = body.search(/,?\s+\(?such as\b/i);
  if (examples > 0)
    return nlp(body.slice(examples).replace(/^,?\s+\(?such as\s+/i, "")).has("#Verb")
      ? null
      : cleanBody(body.slice(0, examples));
  // "a highly accurate process, but mistakes …", "a crucial component … because …": a claim, not a definition.
  if (/,\s+but\b|\bbecause\b/i.test(body)) return null;
  // A pronoun in a definition points at something outside it ("the reactions within it").
  if (/\b(?:it|they|them|he|she|this|these|those)\b/i.test(body)) return null;
  // "a typical inducible operon" is an example, not a definition; a definition says what the thing is.
  if (
    /^(?:an?|the)\s+(?:typical|good|classic|common|simple|famous|well-known|prime|major|important|key|main)\b/i.test(
      body,
    )
  )
    return null;
  // "a measure of the disorder of a system", "the rate of change of displacement": three content
  // words make a definition in Physics.
  if (contentWords(body).length < 3) return null;
  if (/\b(?:that|which|who|also|and|or|the|a|an|of|to|be|been|such as|e\.g|i\.e|etc)$/i.test(body))
    return null;
  if ((body.match(/\(/g) ?? []).length !== (body.match(/\)/g) ?? []).length) return null;
  // "on the membranes' exterior …", "compacted using …": a location or a participle, not a kind.
  if (
    /^(?:on|in|at|by|with|from|to|into|within|between|among|through|for|not|also|then|now|still|either|both|typically|usually|often|generally|mostly|found|located|compacted|made|used)\b/i.test(
      body,
    )
  )
    return null;
  if (/\b(?:called|known as|termed)\b/i.test(body)) return null;
  // "the change in position and the run is …": a second statement ran into the body.
  if (
    /\b(?:and|but|while|whereas)\s+(?:the\s+|a\s+|an\s+)?[\p{L}\s-]{1,30}?\s(?:is|are|was|were)\b/iu.test(
      body,
    )
  )
    return null;
  // "a similar process on a smaller scale": the body leans on another sentence.
  if (
    /\b(?:similar|same|such(?! as)|this|these|those|latter|former|above|previous|aforementioned)\b|\banother\b(?!\s+\p{L}+\s*$|\s+(?:object|observer|body|point|system|frame)\b)/iu.test(
      body,
    )
  )
    return null;
  return body;
}

const stems = (s: string) => contentWords(s).map(stem);

/** The body must not give the term away ("a phospholipid bilayer is a bilayer of phospholipids"). */
function circular(term: string, body: string): boolean {
  const bodyStems = new Set(stems(body));
  const termStems = stems(term);
  return termStems.length > 0 && termStems.every((s) => bodyStems.has(s));
}

function matchDefinition(s: string): { term: string; body: string; aliases: string[] } | null {
  const text = s.replace(/[.!]$/, "");
  const is = DEF_IS.exec(text) ?? DEF_BARE.exec(text);
  if (is) {
    const term = cleanTerm(is[1]!);
    const body = cleanBody(is[4]!);
    if (term && body) return { term, body, aliases: [is[2], is[3]].filter((a): a is string => !!a) };
  }
  const called = DEF_CALLED.exec(text);
  if (called) {
    const term = cleanTerm(called[2]!);
    const body = cleanBody(called[1]!.replace(/[:;,]\s*(?:these|this|they|it|which|such)$/i, ""));
    if (term && body && !ANAPHORA.test(body))
      return {
        term,
        body,
        aliases: [called[3], called[4]].filter((a): a is string => !!a),
      };
  }
  const refers = DEF_REFERS.exec(text);
  if (refers) {
    const term = cleanTerm(refers[1]!);
    const body = cleanBody(refers[3]!);
    if (term && body) return { term, body, aliases: refers[2] ? [refers[2]] : [] };
  }
  const appositive = DEF_APPOSITIVE.exec(text);
  if (appositive) {
    const term = cleanTerm(appositive[3]!);
    const clause = cleanBody(appositive[1]!);
    if (term && clause && !ANAPHORA.test(clause))
      return {
        term,
        body: `the ${appositive[2]!.toLowerCase()} in which ${lowerFirst(clause)}`,
        aliases: [],
      };
  }
  const plural = DEF_PLURAL.exec(text);
  if (plural && plural[1]!.split(" ").length <= 3) {
    const term = cleanTerm(plural[1]!);
    const body = cleanBody(plural[2]!);
    if (term && body) return { term, body, aliases: [] };
  }
  return null;
}

/** The term read in its own sentence has no verb in it ("distance an object moves" is a clause). */
function termIsNominal(sentence: string, term: string): boolean {
  const doc = nlp(sentence).match(term);
  if (!doc.found) return true;
  return !doc.has("#Verb") || doc.has("#Noun$");
}

function isNounIn(body: string, genus: string): boolean {
  const doc = nlp(body);
  const words = doc.terms().json() as { terms: { normal: string; tags: string[] }[] }[];
  for (const w of words) {
    const t = w.terms[0];
    if (t && singular(t.normal) === genus) return t.tags.includes("Noun");
  }
  return false;
}

const lowerFirst = (s: string) => (/^\p{Lu}\p{Ll}/u.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s);

/**
 * Terms defined by the sentences. Only standalone sentences count (no "This process is called
 * X"), a term is kept once (its first, most direct definition), and terms whose definition gives
 * the term away are dropped.
 */
export function extractTerms(sentences: readonly ISentence[]): ITerm[] {
  const out: ITerm[] = [];
  const seen = new Set<string>();
  for (const s of sentences) {
    if (!s.standalone || s.sideBox) continue;
    const m = matchDefinition(s.text);
    if (!m) continue;
    const term =
      /^\p{Lu}\p{Ll}/u.test(m.term) && !/^[\p{Lu}]{2,}/u.test(m.term) ? lowerFirst(m.term) : m.term;
    const key = stems(term).join(" ");
    if (seen.has(key) || circular(term, m.body)) continue;
    if (term.split(" ").some((w) => w.length < 2) || !termIsNominal(s.text, m.term)) continue;
    const genus = genusOf(m.body);
    // The genus must be a noun in its sentence: "channels are specific for …" defines nothing.
    if (!genus || genus.length < 3 || !isNounIn(m.body, genus)) continue;
    const kind = GENERIC_GENUS.has(genus) ? "" : genus;
    seen.add(key);
    const lastWord = term.split(" ").pop()!.toLowerCase();
    out.push({
      term,
      definition: lowerFirst(m.body),
      genus: kind,
      head: headOf(term),
      plural: singular(lastWord) !== lastWord && !/(?:ss|us|is)$/.test(lastWord),
      sentence: s.text,
      chunkKey: s.chunkKey,
      aliases: m.aliases.map((a) => a.trim()).filter((a) => a.length > 1),
    });
  }
  return out;
}

const keys = new Map<string, string>();

/** Stem key of a phrase: two phrases with the same key name the same thing (memoised). */
export function termKey(t: string): string {
  let k = keys.get(t);
  if (k === undefined) {
    k = stems(t).join(" ");
    if (keys.size > 50_000) keys.clear();
    keys.set(t, k);
  }
  return k;
}

/** Whether two terms are the same concept or one contains the other ("membrane" / "plasma membrane"). */
export function sameConcept(a: string, b: string): boolean {
  const ka = stems(a);
  const kb = new Set(stems(b));
  if (ka.length === 0 || kb.size === 0) return false;
  const shared = ka.filter((s) => kb.has(s)).length;
  return shared === ka.length || shared === kb.size;
}

/**
 * A named concept of the subject and the kind of thing it is, wherever the text names one:
 * defined terms, "structures called thylakoids", "chlorophyll, a pigment …", section headings,
 * and noun phrases that recur. Distractors for a concept are other concepts of the same kind.
 */
export interface IConcept {
  name: string;
  /** The kind of thing, singular ("structure", "pigment"), or "" when the text does not say. */
  genus: string;
  head: string;
  plural: boolean;
  source: "definition" | "called" | "appositive" | "heading" | "phrase";
  chunkKey?: string;
  /** Section the concept belongs to (its heading, or the section of the sentence naming it). */
  section?: string;
  /** The sentence that names it, to say what it is when it is offered as a wrong option. */
  gloss?: string;
}

const CALLED_IN =
  /\b((?:[\p{L}-]+,?\s+){0,3}?)([\p{L}-]+)\s+(?:called|known as|termed|named)\s+(?:an?\s+|the\s+)?([\p{L}\p{N}β-][\p{L}\p{N}'’β-]*(?:\s+[\p{L}\p{N}β-][\p{L}\p{N}'’β-]*){0,3}?)(?=\s*(?:\(|,|\.|;|$|\s(?:in|that|which|where|who|on|of|is|are|and)\b))/giu;
const APPOSITIVE =
  /\b([\p{L}][\p{L}\p{N}-]*(?:\s+[\p{L}\p{N}-]+){0,2}),\s+(?:an?)\s+((?:[\p{L}-]+\s+){0,2}?[\p{L}-]+)\s+(?:that|which|who|responsible|found|made|used|consisting|composed|involved|with|of)\b/gu;

function plural(name: string): boolean {
  const last = name.split(" ").pop()!.toLowerCase();
  return singular(last) !== last && !/(?:ss|us|is)$/.test(last);
}

const NOT_A_GENUS =
  /^(?:is|are|was|were|be|been|being|therefore|also|often|sometimes|commonly|collectively|usually|generally|now|then|thus|so|and|or|but|which|that|who|what|also|simply|formally|sometimes|frequently|typically|together|here|there)$/i;

function concept(name: string, genus: string, source: IConcept["source"], s?: ISentence): IConcept | null {
  if (
    /^(?:of|in|on|at|by|for|to|from|with|the|a|an)\b/i.test(name) ||
    /\b(?:figure|table|nm)\b|\d/i.test(name)
  )
    return null;
  if (genus && NOT_A_GENUS.test(genus)) genus = "";
  if (genus && s && !isNounIn(s.text, singular(genus))) genus = "";
  const clean = cleanTerm(name.replace(/^.*\b(?:of|in|for|the)\s+/i, ""));
  if (!clean || clean.split(" ").some((w) => w.length < 2)) return null;
  if (s && !termIsNominal(s.text, clean)) return null;
  const g = singular(genus);
  const display = /^\p{Lu}\p{Ll}/u.test(clean) && source !== "heading" ? lowerFirst(clean) : clean;
  return {
    name: display,
    genus: GENERIC_GENUS.has(g) || GENERIC.has(g) ? "" : g,
    head: headOf(clean),
    plural: plural(clean),
    source,
    ...(s ? { chunkKey: s.chunkKey, section: s.section, gloss: s.text } : {}),
  };
}

/** Concepts named in the sentences, the defined terms first; one entry per concept. */
export function extractConcepts(
  sentences: readonly ISentence[],
  terms: readonly ITerm[],
  headings: readonly { name: string; section: string }[] = [],
): IConcept[] {
  const out: IConcept[] = [];
  const seen = new Set<string>();
  const add = (c: IConcept | null) => {
    if (!c) return;
    const key = termKey(c.name);
    if (!key || seen.has(key)) return;
    seen.add(key);
    out.push(c);
  };
  for (const t of terms)
    add({
      name: t.term,
      genus: t.genus,
      head: t.head,
      plural: t.plural,
      source: "definition",
      chunkKey: t.chunkKey,
      section: sentences.find((s) => s.text === t.sentence)?.section ?? "",
      gloss: t.sentence,
    });
  for (const s of sentences) {
    if (s.sideBox) continue;
    for (const m of s.text.matchAll(CALLED_IN)) add(concept(m[3]!, m[2]!, "called", s));
    for (const m of s.text.matchAll(APPOSITIVE)) add(concept(m[1]!, headOf(m[2]!), "appositive", s));
  }
  for (const h of headings) {
    const name = h.name.replace(/^.*:\s*/, "").trim();
    if (FEATURE_BOX.test(name) || /^(?:introduction|section summary|summary|overview\b|review\b)/i.test(name))
      continue;
    const c = concept(name, "", "heading");
    if (c) add({ ...c, section: h.section });
  }
  for (const c of extractPhraseConcepts(sentences)) add(c);
  return out;
}

/** Words that never end (or start) a concept's name. */
const NOT_NAME: ReadonlySet<string> = new Set(
  `form forms forming formed make makes take takes give gives cause causes sharing transporting
  bonded enough cannot whereas inside outside within whether three-dimensional two-dimensional
  also very more most less many much such other several various certain different same new own
  first second third one two three four five each every all both some any few only main major
  important specific particular general high low large small able due like well however although
  thus then often usually example examples figure table section chapter way ways type types kind
  kinds part parts number amount result results process processes use uses called known termed`.split(/\s+/),
);

const WORD_RUN = /[\p{L}][\p{L}\p{N}'’-]*/gu;

function isNameWord(w: string, position: "first" | "last" | "inner"): boolean {
  const lower = w.toLowerCase();
  if (lower.length < 2 || isStopword(lower) || NOT_NAME.has(lower) || /ly$|['’]s$/.test(lower)) return false;
  if (!isNounPhrase(lower)) return false; // function words: "since", "whereas", "among"
  const known = senses(lower, { maxSenses: 30 });
  // Technical words WordNet lacks ("aquaporin", "glycocalyx"), but not inflected verbs.
  if (known.length === 0) return lower.length >= 5 && !/(?:ing|ed)$/.test(lower);
  // The head must be a noun first ("dissolve", "form", "stable" are not names).
  if (position === "last") return known[0]!.pos === "n";
  // A modifier is a noun or an adjective ("integral protein"), and not a plural noun
  // ("atoms form", "water molecules cause" are clauses).
  if (known[0]!.pos === "n" && singular(lower) !== lower && !/(?:ss|us|is|ics)$/.test(lower)) return false;
  return known.some((s) => s.pos === "n" || s.pos === "a");
}

/**
 * Concepts the chapter names again and again, found without a tagger: runs of one to three
 * name-like words (noun last, no function words) that recur — multi-word names twice, single
 * technical words three times — kept at their longest recurring form.
 */
export function extractPhraseConcepts(sentences: readonly ISentence[], max = 160): IConcept[] {
  const counts = new Map<
    string,
    { surface: Map<string, number>; n: number; words: number; section: string; chunkKey: string }
  >();
  for (const s of sentences) {
    if (s.sideBox) continue;
    // Phrases do not run across punctuation.
    for (const piece of s.text.split(/[,;:.()“”"?!—–]/)) {
      const tokens = [...piece.matchAll(WORD_RUN)].map((m) => m[0]);
      for (let i = 0; i < tokens.length; i++) {
        for (let n = 1; n <= 3 && i + n <= tokens.length; n++) {
          const words = tokens.slice(i, i + n);
          if (!isNameWord(words[0]!, n === 1 ? "last" : "first")) break;
          if (!isNameWord(words[n - 1]!, "last")) continue;
          if (n === 3 && !isNameWord(words[1]!, "inner")) continue;
          const key = words.map((w) => stem(w.toLowerCase())).join(" ");
          const entry = counts.get(key) ?? {
            surface: new Map(),
            n: 0,
            words: n,
            section: s.section,
            chunkKey: s.chunkKey,
          };
          entry.n++;
          const surface = words.join(" ");
          entry.surface.set(surface, (entry.surface.get(surface) ?? 0) + 1);
          counts.set(key, entry);
        }
      }
    }
  }
  const kept = [...counts].filter(([, e]) => {
    const first = [...e.surface.keys()][0]!;
    if (e.words > 1) return e.n >= 2 && !GENERIC.has(first.split(" ").pop()!.toLowerCase());
    return e.n >= 3 && usageCountOf(first) < 15 && !GENERIC.has(first.toLowerCase());
  });
  // Keep the longest recurring form: "plasma membrane" over "membrane" when they always co-occur.
  const maximal = kept.filter(
    ([key, e]) =>
      !kept.some(
        ([other, o]) =>
          other !== key && o.words > e.words && ` ${other} `.includes(` ${key} `) && o.n >= 0.7 * e.n,
      ),
  );
  return maximal
    .sort((a, b) => b[1].n - a[1].n)
    .slice(0, max)
    .map(([, e]) => {
      const surface = [...e.surface].sort((a, b) => b[1] - a[1])[0]![0];
      // Sentence-initial capitals are not part of a name; acronyms and names keep theirs.
      const name = [...e.surface.keys()].some((k) => k === k.toLowerCase()) ? surface.toLowerCase() : surface;
      const head = headOf(name);
      return {
        name,
        genus: "",
        head,
        plural: plural(name),
        source: "phrase" as const,
        chunkKey: e.chunkKey,
        section: e.section,
      };
    });
}

function usageCountOf(word: string): number {
  return usageCount(word.toLowerCase());
}

/** How the text relates concepts to each other: what are kinds of one thing, other names, kinds of what. */
export interface IConceptLinks {
  /** Members of the same list ("ectoderm, mesoderm, and endoderm"): the best wrong options. */
  siblings: Map<string, Set<string>>;
  /** Other names of the same thing ("karyokinesis, also known as mitosis"; "RER" for rough ER). */
  aliases: Map<string, Set<string>>;
  /** "Aquaporins are channel proteins": the broader term, never a wrong option for the narrower. */
  broader: Map<string, Set<string>>;
}

const link = (m: Map<string, Set<string>>, a: string, b: string) => {
  if (!a || !b || a === b) return;
  if (!m.has(a)) m.set(a, new Set());
  m.get(a)!.add(b);
};

const ALIAS_PATTERNS: RegExp[] = [
  // "antidiuretic hormone (ADH), also known as vasopressin"; "ADH (also called vasopressin)".
  /\b([\p{L}][\p{L}\p{N}' -]{2,50}?)(?:\s+\([\p{Lu}\p{N}-]{1,10}\))?,?\s+\(?(?:also|sometimes|often)\s+(?:called|known as|referred to as|termed)\s+(?:an?\s+|the\s+)?([\p{L}][\p{L}\p{N}' -]{1,50}?)(?=[,.;)]|\s(?:is|are|was|were)\b)/giu,
  /\b([\p{L}][\p{L}\p{N}' -]{2,50}?),\s+or\s+([\p{L}][\p{L}\p{N}' -]{1,40}?),\s/giu,
  /\b([\p{L}][\p{L}\p{N}' -]{2,50}?)\s+\(([\p{L}][\p{L}\p{N}' -]{0,40}?)\)/giu,
];
const LIST = /((?:[\p{L}][\p{L}\p{N}'’ -]{1,40},\s+){1,8}(?:and|or)\s+[\p{L}][\p{L}\p{N}'’ -]{1,40})/gu;

/** The longest known concept that ends a phrase ("the thick rough ER" → "rough ER"). */
function conceptAtEnd(phrase: string, known: Map<string, string>): string | undefined {
  const words = phrase.trim().split(/\s+/);
  for (let i = 0; i < words.length; i++) {
    const k = termKey(words.slice(i).join(" "));
    if (known.has(k)) return k;
  }
  return undefined;
}

function conceptAtStart(phrase: string, known: Map<string, string>): string | undefined {
  const words = phrase.trim().split(/\s+/);
  for (let i = words.length; i > 0; i--) {
    const k = termKey(words.slice(0, i).join(" "));
    if (known.has(k)) return k;
  }
  return undefined;
}

export function linkConcepts(
  sentences: readonly ISentence[],
  concepts: readonly IConcept[],
  terms: readonly ITerm[],
): IConceptLinks {
  const known = new Map(concepts.map((c) => [termKey(c.name), c.name]));
  const links: IConceptLinks = { siblings: new Map(), aliases: new Map(), broader: new Map() };
  for (const s of sentences) {
    for (const re of ALIAS_PATTERNS) {
      for (const m of s.text.matchAll(re)) {
        const a = conceptAtEnd(m[1]!, known) ?? termKey(m[1]!.split(/\s+/).slice(-3).join(" "));
        const b = termKey(m[2]!);
        if (!a || !b || /^\d/.test(m[2]!) || /\b(?:figure|table|credit|see)\b/i.test(m[2]!)) continue;
        link(links.aliases, a, b);
        link(links.aliases, b, a);
      }
    }
    for (const m of s.text.matchAll(LIST)) {
      // The first member runs back over whatever precedes the list, the sentence's subject and verb
      // included ("Peroxisomes hydrolyze fatty acids, amino acids, and some toxins"): it is read from
      // its end, or the subject would be made a sibling of what it acts on (the demo's "Peroxisomes"
      // offered for "the building blocks of proteins").
      const members = m[1]!
        .split(/,\s+(?:and\s+|or\s+)?|\s+(?:and|or)\s+/)
        .map((x, i) =>
          i === 0
            ? conceptAtEnd(x, known)
            : (conceptAtStart(x.replace(/^(?:the|a|an)\s+/i, ""), known) ?? conceptAtEnd(x, known)),
        )
        .filter((x): x is string => !!x);
      const unique = [...new Set(members)];
      if (unique.length < 2) continue;
      for (const a of unique) for (const b of unique) link(links.siblings, a, b);
    }
  }
  for (const t of terms) {
    const broader = conceptAtEnd(t.definition.replace(PREPOSITION_CUT, "").replace(/[,;:].*$/, ""), known);
    if (broader) link(links.broader, termKey(t.term), broader);
  }
  return links;
}

const kinds = new Map<string, ReadonlySet<string>>();

/**
 * The kinds a name is of by WordNet, in the name's first (most common) noun sense only: its
 * direct hypernyms and theirs ("ribosomes" → organelle; "lactose" → disaccharide, sugar). For a
 * name WordNet lacks, its head noun's. Used only to confirm that a concept is of the kind a
 * definition's genus names ("lysosomes are the digestive organelles …"), never alone: the genus
 * comes from the text.
 */
export function wordNetKinds(name: string): ReadonlySet<string> {
  const key = name.toLowerCase();
  let hit = kinds.get(key);
  if (!hit) {
    const out = new Set<string>();
    const first = senses(key, { maxSenses: 1 })[0];
    const word = first ? key : (key.split(/\s+/).pop() ?? key);
    const sense = senses(word, { maxSenses: 1 })[0];
    if (sense?.pos === "n") {
      for (const parent of hypernyms(word, { maxSenses: 1 })) {
        out.add(singular(parent));
        for (const grand of hypernyms(parent, { maxSenses: 1 })) out.add(singular(grand));
      }
    }
    hit = out;
    if (kinds.size > 20_000) kinds.clear();
    kinds.set(key, hit);
  }
  return hit;
}

/**
 * A name's kinds in WordNet, nearest first: the first noun sense's parent, that parent's parent …
 * (the first parent at each step), up to `depth`. A name WordNet lacks is a kind of its head noun
 * ("cartilaginous joints" → joint, body part …) when the head is a WordNet noun.
 */
export function wordNetChain(name: string, depth = 6): string[] {
  const key = `${name.toLowerCase()}|${depth}`;
  const hit = chains.get(key);
  if (hit) return hit;
  const out: string[] = [];
  const lower = name.toLowerCase().trim();
  let word = lower;
  let sense = senses(word, { maxSenses: 1 })[0];
  if (!sense && lower.includes(" ")) {
    const head = singular(lower.split(/\s+/).pop() ?? "");
    const headSense = senses(head, { maxSenses: 1 })[0];
    if (headSense?.pos === "n") {
      out.push(head);
      word = head;
      sense = headSense;
    }
  }
  if (sense?.pos === "n") {
    let current = word;
    while (out.length < depth) {
      const parent = hypernyms(current, { maxSenses: 1 })[0];
      if (!parent) break;
      out.push(singular(parent));
      current = parent;
    }
  }
  if (chains.size > 20_000) chains.clear();
  chains.set(key, out);
  return out;
}
const chains = new Map<string, string[]>();

/**
 * WordNet kinds specific enough that two names under one of them are options of one kind for a
 * school question (organelles, hormones, tissues, bones, worms, forms of energy, particles …).
 * Broad nodes (body part, organism, substance, process, device, group) are not here: under them
 * WordNet puts limbs beside joints and enzymes beside lipids.
 */
export const SPECIFIC_KINDS: ReadonlySet<string> = new Set(
  `organelle, hormone, steroid hormone, tissue, animal tissue, connective tissue, plant tissue, vascular tissue,
  enzyme, protein, simple protein, carbohydrate, monosaccharide, disaccharide, polysaccharide, macromolecule, lipid,
  nucleic acid, deoxyribonucleic acid, ribonucleic acid, amino acid, bone, long bone, leg bone, arm bone, muscle,
  skeletal muscle, blood vessel, gland, endocrine gland, exocrine gland, somatic cell, blood cell, leukocyte,
  lymphocyte, joint, cell division, worm, invertebrate, arthropod, insect, crustacean, arachnid, chordate,
  vertebrate, fish, bony fish, mammal, bird, reptile, amphibian, fungus, vascular plant, nonvascular organism,
  reproductive structure, plant organ, microorganism, bacteria, virus, neurotransmitter, vitamin, pigment,
  mechanical energy, electromagnetic radiation, radiation, wave, elementary particle, lepton, hadron, baryon,
  nucleon, fermion, quark, chemical element, metallic element, noble gas, optical device, electrical device,
  simple machine, planet, star`
    .split(",")
    .map((k) => k.trim()),
);

/** A phrase with its last word singular ("cartilaginous joints" → "cartilaginous joint"). */
const singularPhrase = (phrase: string) => {
  const words = phrase.toLowerCase().trim().split(/\s+/);
  return [...words.slice(0, -1), singular(words.at(-1) ?? "")].join(" ");
};

/**
 * The specific kind two names share in WordNet as near kin ("lipids" / "carbohydrates":
 * macromolecule; "flatworms" / "nematodes": worm; "kinetic" / "potential energy": mechanical
 * energy), or "": a kind of `SPECIFIC_KINDS` one or two steps above BOTH names, and neither name a
 * kind of the other (a narrower or broader term may meet the key's definition too).
 */
export function sharedKind(key: string, other: string): string {
  const k = wordNetChain(key);
  const o = wordNetChain(other);
  if (k.length === 0 || o.length === 0) return "";
  // A name and WordNet's other names for it ("seed plant" is "spermatophyte" in the chains).
  const names = (name: string) => {
    const n = singularPhrase(name);
    return [n, ...(senses(n, { maxSenses: 1 })[0]?.pos === "n" ? synonyms(n, { maxSenses: 1 }) : [])].map(
      (x) => singular(x),
    );
  };
  const kNames = names(key);
  const oNames = names(other);
  if (kNames.some((x) => oNames.includes(x) || o.includes(x)) || oNames.some((x) => k.includes(x))) return "";
  const kind = k.slice(0, 2).find((x) => SPECIFIC_KINDS.has(x) && o.slice(0, 2).includes(x)) ?? "";
  // "invertebrate chordates" (a name WordNet lacks, read as its head) beside lancelets (a kind
  // WordNet knows): a group named on the kind itself may hold the key. Two names on one head
  // ("fibrous" / "cartilaginous joints") are siblings.
  const onHead = (name: string, chain: readonly string[]) =>
    name.trim().includes(" ") && !senses(singularPhrase(name), { maxSenses: 1 })[0] && chain[0] === kind;
  const sameHead = headOf(key) === headOf(other);
  if (kind && !sameHead && onHead(key, k) !== onHead(other, o)) return "";
  return kind;
}
