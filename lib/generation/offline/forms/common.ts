import type { IConcept, IKnowledge } from "@/lib/generation/offline/knowledge";
import {
  capital,
  sameConcept,
  singular,
  termKey,
  wordNetChain,
  wordNetKinds,
} from "@/lib/generation/offline/knowledge/lexicon";
import { dimsOfUnit, readUnit } from "@/lib/generation/offline/knowledge/numeric-units";
import { LOOSE as LOOSE_GENUS } from "@/lib/generation/offline/knowledge/pool";
import { contextRef } from "@/lib/generation/offline/knowledge/sentences";
import { largestRemainder } from "@/lib/generation/plan";
import { contentWords, stem } from "@/lib/text/tokenize";
import { senses, synset, usageCount } from "@/lib/text/wordnet";
import type { EBloomLevel } from "@/types/bloom.types";
import type { EQuestionType, IContextRef, ISlot, TQuestion } from "@/types/generation.types";

/** What a question form gets to build candidates for one slot. */
export interface IFormEnv {
  kb: IKnowledge;
  slot: ISlot;
  random: () => number;
  /** Position (0–3) the key should take in an MCQ, so keys spread over A–D across a set. */
  keyAt: number;
  /** Source sentences already used by accepted questions of the set. */
  used: ReadonlySet<string>;
  /** Diagnostics only (`eval:generation --why`): a form reports the step at which it gave up. */
  trace?: (step: string) => void;
}

/**
 * A question form: one way of asking that an algorithm can do well, at the Bloom level its demand
 * really has. `build` yields complete candidates, best first; the quality gate decides which (if
 * any) is good enough. `available` is a cheap count of what the form could build from, for the
 * planner.
 */
export interface IForm {
  id: string;
  fits(type: EQuestionType, level: EBloomLevel): boolean;
  available(kb: IKnowledge): number;
  build(env: IFormEnv): Iterable<TQuestion>;
}

/** The key in a set's `used` recording that `form` wrote an accepted question on `quote`. */
export const formUseKey = (form: string, quote: string) => `form:${form}\u0000${quote}`;

export { capital };
/** Lower-cases the first letter unless it starts an acronym or a name-like word ("ATP", "DNA", "Mendel"). */
export const lower = (s: string) =>
  /^\p{Lu}(?:\p{Ll}|\s)/u.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s;

/** A heading as a phrase inside a sentence: "Water’s Heat of Vaporization" → "water’s heat of vaporization". */
export function topicName(heading: string): string {
  return heading
    .replace(/^(?:\d+(?:\.\d+)*\s+)/, "")
    .replace(/:\s+/, " — ")
    .split(/\s+/)
    .map((w) => (/^\p{Lu}\p{Ll}+(?:[’'-]\p{Ll}+)*$/u.test(w) ? w.toLowerCase() : w))
    .join(" ");
}
/** A pronoun that points outside its clause (a feature or claim that has one needs its context). */
export const PRONOUN = /\b(?:it|they|them|this|these|those)\b/i;

/** Items joined as prose: "a", "a and b", "a, b and c". */
export const andList = (xs: readonly string[]): string =>
  xs.length <= 1 ? (xs[0] ?? "") : `${xs.slice(0, -1).join(", ")} and ${xs.at(-1)}`;

export const clip = (s: string, n = 200) =>
  s.length <= n ? s : `${s.slice(0, s.lastIndexOf(" ", n)).trim()}…`;
export const stripEnd = (s: string) => s.replace(/[.;:!?]+$/, "").trim();
export const sentence = (s: string) => `${capital(stripEnd(s))}.`;
const stemCache = new Map<string, Set<string>>();
/** Content stems of a text, memoised: options are compared with every concept of a chapter. */
const stemsOf = (s: string): Set<string> => {
  let hit = stemCache.get(s);
  if (!hit) {
    hit = new Set(contentWords(s).map(stem));
    if (stemCache.size > 20_000) stemCache.clear();
    stemCache.set(s, hit);
  }
  return hit;
};

export function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VALIDATION = { citationsOk: true, supported: true, bloomAgreed: true, regenerated: false, flags: [] };

export function refs(env: IFormEnv, sources: readonly { chunkKey: string; quote: string }[]): IContextRef[] {
  const seen = new Set<string>();
  const out: IContextRef[] = [];
  for (const s of sources) {
    const chunk = env.kb.byKey.get(s.chunkKey);
    if (!chunk) continue;
    const key = `${s.chunkKey}|${s.quote}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(contextRef(chunk, s.quote));
  }
  return out;
}

export interface IOption {
  text: string;
  /** Why a student would pick it, and why it is wrong (distractors only). */
  rationale?: string;
}

/** An MCQ with the key at `env.keyAt` (or at `keyAt` when the form fixes the option order). */
export function mcq(
  env: IFormEnv,
  p: {
    prompt: string;
    key: IOption;
    distractors: readonly IOption[];
    explanation: string;
    sources: readonly { chunkKey: string; quote: string }[];
    /** Options in a fixed order (assertion–reason): the key's index in `fixed`. */
    fixed?: { options: string[]; keyIndex: number; rationales: string[] };
  },
): TQuestion | null {
  let options: string[];
  let correctIndex: number;
  let rationales: string[];
  if (p.fixed) {
    options = p.fixed.options;
    correctIndex = p.fixed.keyIndex;
    rationales = p.fixed.rationales;
  } else {
    // Two names the passages give one thing ("antidiuretic hormone (vasopressin)") are never two
    // options: a student rules both out at once, or both are right (wave-14 blind readers).
    const kept: IOption[] = [];
    for (const d of p.distractors) {
      if (
        namesOneThing(env.kb, d.text, p.key.text) ||
        kept.some((k) => namesOneThing(env.kb, k.text, d.text))
      )
        continue;
      kept.push(d);
    }
    if (kept.length < 3) return null;
    const wrong = kept.slice(0, 3);
    correctIndex = env.keyAt % 4;
    options = wrong.map((d) => d.text);
    options.splice(correctIndex, 0, p.key.text);
    rationales = wrong.map((d) => d.rationale ?? "");
  }
  return {
    id: env.slot.id,
    type: "mcq",
    bloomLevel: env.slot.bloomLevel,
    promptText: p.prompt,
    marks: env.slot.marks,
    difficulty: env.slot.difficulty,
    options,
    correctIndex,
    explanation: p.explanation,
    distractorRationales: rationales,
    contextRefs: refs(env, p.sources),
    validation: VALIDATION,
    source: "offline",
  };
}

/** Splits `marks` over the points in order (largest remainder on weights), dropping zero-mark points. */
export function allot(points: readonly { point: string; weight?: number }[], marks: number) {
  const ids = points.map((_, i) => String(i));
  const split = largestRemainder(
    Object.fromEntries(points.map((p, i) => [String(i), p.weight ?? 1])),
    marks,
    ids,
  );
  return points.map((p, i) => ({ point: p.point, marks: split[String(i)] ?? 0 })).filter((p) => p.marks > 0);
}

export function keywords(texts: readonly string[], max = 6): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const t of texts) {
    for (const w of contentWords(t)) {
      const s = stem(w);
      if (seen.has(s) || /^\d+$/.test(w) || w.length < 4) continue;
      seen.add(s);
      out.push(w);
      if (out.length >= max) return out;
    }
  }
  return out;
}

/** A short or long answer with its model answer and a marking scheme that adds up to the marks. */
export function written(
  env: IFormEnv,
  p: {
    prompt: string;
    answer: string;
    /** Separate, checkable ideas, most important first; weights share out the marks. */
    points: readonly { point: string; weight?: number }[];
    keywords: readonly string[];
    sources: readonly { chunkKey: string; quote: string }[];
  },
): TQuestion | null {
  const { slot } = env;
  const scheme = allot(p.points.slice(0, Math.max(1, slot.marks)), slot.marks);
  if (scheme.length === 0) return null;
  const base = {
    id: slot.id,
    bloomLevel: slot.bloomLevel,
    promptText: p.prompt,
    marks: slot.marks,
    difficulty: slot.difficulty,
    suggestedAnswer: p.answer,
    evaluatorKeywords: [...p.keywords],
    contextRefs: refs(env, p.sources),
    validation: VALIDATION,
    source: "offline" as const,
  };
  if (slot.type === "long") return { ...base, type: "long", markingScheme: scheme };
  if (slot.type === "short") return { ...base, type: "short", markingScheme: scheme };
  return null;
}

/** "a"/"an" for a word, by sound where the spelling misleads (an hour, a unit, an MRI). */
export function article(word: string): string {
  return /^(?:[aeio]|u(?!ni|se|su|ro|ra|te|ti)|hour|honest|heir|[fhlmnrsx](?:\b|-|\d)|mri|rna|fsh|lh|hiv|nadh|nadph)/i.test(
    word,
  )
    ? "an"
    : "a";
}

const has = (m: ReadonlyMap<string, ReadonlySet<string>>, a: string, b: string) => m.get(a)?.has(b) ?? false;
/** Two names the passages state as aliases of one thing (words only: numbers and formulas never). */
export function namesOneThing(kb: IFormEnv["kb"], a: string, b: string): boolean {
  const named = (s: string) => /\p{L}/u.test(s) && !/\d/.test(s);
  if (!named(a) || !named(b)) return false;
  const ka = termKey(a);
  const kb2 = termKey(b);
  return ka !== "" && kb2 !== "" && (has(kb.links.aliases, ka, kb2) || has(kb.links.aliases, kb2, ka));
}

/** Two names of one thing, or one a kind of the other: either would make a second right answer. */
function overlapping(kb: IFormEnv["kb"], a: string, b: string): boolean {
  const ka = termKey(a);
  const kb2 = termKey(b);
  if (sameConcept(a, b)) return true;
  if (has(kb.links.aliases, ka, kb2) || has(kb.links.broader, ka, kb2) || has(kb.links.broader, kb2, ka))
    return true;
  // "protozoa" / "protozoan": the same word in two forms.
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  return (
    la.length >= 6 &&
    lb.length >= 6 &&
    la.slice(0, 6) === lb.slice(0, 6) &&
    Math.abs(la.length - lb.length) <= 3
  );
}

/** A title-case heading used as a concept ("Movement at Synovial Joints"), not a term of the subject. */
const headingLike = (c: IConcept) => c.source === "heading" && /\s/.test(c.name) && /^\p{Lu}/u.test(c.name);

/**
 * Wrong options for a concept: things of the same kind, best first — members of a list the key
 * belongs to ("ectoderm, mesoderm and endoderm"), then terms the chapter defines with the same
 * genus ("a pigment …"), then names with the same head noun ("saddle / hinge joints"). Never the
 * key again, another name for it, a broader or narrower term, a name visible in the stem, a
 * section heading, or a term whose own definition also fits the stem. Fewer than `n` such
 * options (or `atLeast`, for a caller that tops them up from the subject's pool) means none.
 */
/** Units are not concepts: "km minute", read from "0.5 km/minute" (round 11 readers: nonsense option). */
export const unitPhrase = (name: string) =>
  name.split(/\s+/).every((w) => readUnit(w) !== null || dimsOfUnit(w) !== null);

/**
 * WordNet's coarse kinds of a name: the lexicographer files of its first three noun senses, folded
 * into "abstract" (acts, processes, attributes, states …), "living" (body parts, organelles,
 * animals, plants) and "matter" (substances, food, natural objects); an artifact sense is
 * compatible with any physical kind ("cell" is filed as an artifact first). Tops, groups and
 * locations say nothing. A name WordNet lacks is read through its head noun, then its genus.
 * Empty: unknown.
 */
const LEX_KIND: Readonly<Record<number, "abstract" | "living" | "matter" | "artifact">> = {
  4: "abstract",
  7: "abstract",
  9: "abstract",
  10: "abstract",
  11: "abstract",
  12: "abstract",
  16: "abstract",
  19: "abstract",
  21: "abstract",
  22: "abstract",
  23: "abstract",
  24: "abstract",
  25: "abstract",
  26: "abstract",
  28: "abstract",
  5: "living",
  8: "living",
  18: "living",
  20: "living",
  13: "matter",
  17: "matter",
  27: "matter",
  6: "artifact",
};
function nounKinds(word: string): Set<string> {
  const out = new Set<string>();
  const w = word
    .toLowerCase()
    .trim()
    .replace(/^(?:the|a|an)\s+/, "");
  if (!w) return out;
  for (const s of senses(w, { maxSenses: 8 })
    .filter((x) => x.pos === "n")
    .slice(0, 3)) {
    const k = LEX_KIND[synset(s).lexFile];
    if (k === "artifact") for (const x of ["living", "matter", "artifact"]) out.add(x);
    else if (k) out.add(k);
  }
  return out;
}
const coarseCache = new Map<string, ReadonlySet<string>>();
export function coarseKinds(name: string, genus = ""): ReadonlySet<string> {
  const key = `${name}|${genus}`;
  let hit = coarseCache.get(key);
  if (!hit) {
    hit = readCoarseKinds(name, genus);
    if (coarseCache.size > 20_000) coarseCache.clear();
    coarseCache.set(key, hit);
  }
  return hit;
}
function readCoarseKinds(name: string, genus: string): ReadonlySet<string> {
  const whole = nounKinds(name);
  if (whole.size > 0 || senses(name.toLowerCase(), { maxSenses: 1 }).length > 0) return whole;
  const head = name.trim().split(/\s+/).at(-1) ?? "";
  const byHead = head !== name.trim() ? nounKinds(head) : new Set<string>();
  if (byHead.size > 0) return byHead;
  if (!genus) return byHead;
  // The genus as written ("organelles"), else its head noun ("small, round organelles").
  const byGenus = nounKinds(genus);
  return byGenus.size > 0 ? byGenus : nounKinds(genus.trim().split(/\s+/).at(-1) ?? "");
}
/**
 * Whether WordNet files the key and an option under kinds that cannot meet: a process beside an
 * organelle ("hydrolysis" / "hydrogen atom", "phagocytosis" / "vesicle"), an organelle beside a
 * substance ("peroxisomes" for "the building blocks of proteins"). Unknown to WordNet: no clash.
 */
export function kindClash(
  key: { name: string; genus?: string },
  option: { name: string; genus?: string },
): boolean {
  const k = coarseKinds(key.name, key.genus);
  const o = coarseKinds(option.name, option.genus);
  if (k.size === 0 || o.size === 0) return false;
  for (const x of o) if (k.has(x)) return false;
  return true;
}
/**
 * A sentence of the chapter that says of `name` what the key's definition says: three of the
 * definition's content words, the rarest among them or half of all ("The penis contains three tubes of erectile
 * tissue …" beside "a structure with erectile tissue that contains …" for the clitoris; round
 * 13–15 readers: a stem a sibling term also meets). The genus and the key's own words do not count.
 */
export function describedAlike(
  kb: Pick<IKnowledge, "scopeSentences">,
  name: string,
  definition: string,
  keyName: string,
  genus = "",
): boolean {
  const skip = new Set([...stemsOf(keyName), ...stemsOf(genus), ...stemsOf(name)]);
  const words = contentWords(definition).filter((w) => w.length > 2 && !skip.has(stem(w)));
  const wanted = new Set(words.map(stem));
  if (wanted.size < 3) return false;
  const rarest = [...words].sort((a, b) => usageCount(a.toLowerCase()) - usageCount(b.toLowerCase()))[0];
  if (!rarest) return false;
  const rare = stem(rarest);
  const lowerName = name.toLowerCase();
  const escaped = lowerName.replace(/[.*+?^$()|[\]\\{}]/g, "\\$&");
  const nameRe = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, "u");
  return kb.scopeSentences.some((x) => {
    const text = x.text.toLowerCase();
    if (!nameRe.test(text)) return false;
    const xs = stemsOf(x.text);
    let hit = 0;
    for (const w of wanted) if (xs.has(w)) hit++;
    return hit >= 3 && (xs.has(rare) || hit * 2 >= wanted.size);
  });
}

/**
 * A name that is no term of the subject: a phrase opening with a word about words ("word
 * momentum", from "the word momentum …"; "term", "symbol") or with a modifier that picks no kind
 * out ("total momentum", "same species", "other cells": the key in general, or any of them). Round
 * 14–15 readers rejected such options beside "linear momentum". "net force", "initial velocity"
 * and "alternating current" name kinds and stay.
 */
const NO_TERM_OPENING =
  /^(?:word|words|term|terms|name|names|symbol|symbols|letter|phrase|notation|label|total|whole|entire|same|other|overall|given|such|certain|particular|various|different|respective|actual|own|similar|usual|typical|many|several|some|most|few|each|every|any|both|all|this|that|these|those)\s/i;
export function notATerm(name: string): boolean {
  // "particles called hadrons": the sentence's naming phrase, not a name (development Physics 23.2).
  return NO_TERM_OPENING.test(name.trim()) || /\s(?:called|termed|known\s+as|named)\s/i.test(` ${name} `);
}

/**
 * One name a kind of the other by WordNet's first sense, within three steps ("baryons" are hadrons,
 * "mesons" are hadrons): offered beside each other, the broader one also fits the key's
 * definition, or the narrower one names a case of it (round 14–15 readers: "hadrons" offered for
 * "particles with three quarks"). Deeper steps are too loose ("organs" → meat → food).
 */
export function kindOfOther(a: string, b: string): boolean {
  const name = (x: string) =>
    x
      .toLowerCase()
      .trim()
      .split(/\s+/)
      .map((w, i, ws) => (i === ws.length - 1 ? singular(w) : w))
      .join(" ");
  const na = name(a);
  const nb = name(b);
  if (!na || !nb || na === nb) return false;
  return wordNetChain(a, 3).includes(nb) || wordNetChain(b, 3).includes(na);
}

/**
 * The genus a concept's gloss states when the concept itself has none (a heading's name):
 * "Peroxisomes are small, round organelles enclosed by single membranes." → "organelles". The
 * words after "is/are (a/an/the)", cut at a preposition, relative or comma-free participle, read by
 * their last noun. Empty when the gloss does not open by defining the name.
 */
export function glossGenus(c: { name: string; genus?: string; gloss?: string }): string {
  if (c.genus) return c.genus;
  const g = c.gloss ?? "";
  const name = c.name.toLowerCase();
  if (!g.toLowerCase().startsWith(`${name} `)) return "";
  const m = /^\s*(?:is|are)\s+(?:an?\s+|the\s+)?([^.;:()]{2,80})/i.exec(g.slice(name.length));
  if (!m) return "";
  const words = m[1]!
    .split(
      /\s+(?:that|which|who|whose|with|of|in|on|by|for|from|to|where|when|and|or|than|because|present|found|located|known|called|responsible|able|capable|involved|made|used)\b/i,
    )[0]!
    .replace(/,/g, " ")
    .trim()
    .split(/\s+/);
  while (words.length > 1 && /(?:ed|ing|ly)$/i.test(words.at(-1) ?? "")) words.pop();
  return words.length <= 5 ? (words.at(-1) ?? "") : "";
}

/**
 * "year-round", "long-term", "cold-blooded": one hyphenated word that WordNet does not know as a
 * noun, and either ends in a word that is not first a noun ("-blooded", "-wide", "-free") or opens
 * the way English adjectival compounds of time, extent and degree do ("year-", "long-", "all-",
 * "high-"), is a modifier, not a name (round 14 readers: "year-round" offered as a term). A
 * hyphenated noun of the text ("cross-bridge", "self-pollination") stays an option.
 */
const MODIFIER_OPENING =
  /^(?:year|all|long|short|full|part|day|night|life|world|large|small|high|low|well|ever|half|multi|non|semi|so)-/;
export function modifierCompound(name: string): boolean {
  const w = name.trim().toLowerCase();
  if (!/^[a-z]+(?:-[a-z]+)+$/.test(w)) return false;
  if (
    [w, w.replace(/-/g, " "), w.replace(/-/g, "_"), w.replace(/-/g, "")].some((f) =>
      senses(f, { maxSenses: 4 }).some((x) => x.pos === "n"),
    )
  )
    return false;
  const last = w.split("-").pop() ?? "";
  return MODIFIER_OPENING.test(w) || senses(last, { maxSenses: 1 })[0]?.pos !== "n";
}

/**
 * An option word that is another form of a stem word ("Anurans" for a stem naming "the order
 * Anura", "Chordata" / "chordates"): the stem names the option, which is then the key's other name
 * or a giveaway. One word a prefix of the other, the shorter of five letters or more, at most three
 * letters apart (the stemmer leaves "anura" and "anuran" apart).
 */
export function formOfStemWord(name: string, stemWords: readonly string[]): boolean {
  const words = name.toLowerCase().match(/\p{L}+/gu) ?? [];
  return words.some((w) =>
    stemWords.some((s) => {
      const [a, b] = w.length <= s.length ? [w, s] : [s, w];
      return a !== b && a.length >= 5 && b.startsWith(a) && b.length - a.length <= 3;
    }),
  );
}

export function conceptDistractors(
  env: IFormEnv,
  key: { name: string; genus: string; head: string; plural: boolean; aliases?: readonly string[] },
  stemText: string,
  n = 3,
  opts: { samePlurality?: boolean; atLeast?: number; definition?: string } = {},
): IConcept[] {
  const { kb } = env;
  const stemStems = stemsOf(stemText);
  const stemWords = stemText.toLowerCase().match(/\p{L}+/gu) ?? [];
  const keyKey = termKey(key.name);
  const aliases = (key.aliases ?? []).map((a) => a.toLowerCase());
  const keyIsGenus = key.genus !== "" && wordNetKinds(key.head || key.name).has(key.genus);
  const scored = kb.concepts
    .filter((c) => {
      if (headingLike(c) || overlapping(kb, c.name, key.name)) return false;
      if (unitPhrase(c.name) || modifierCompound(c.name)) return false;
      if (aliases.some((a) => a === c.name.toLowerCase() || sameConcept(a, c.name))) return false;
      const cs = stemsOf(c.name);
      if (cs.size === 0 || [...cs].every((s) => stemStems.has(s))) return false;
      if (formOfStemWord(c.name, stemWords)) return false;
      if (opts.samePlurality && c.plural !== key.plural) return false;
      if (kindOfOther(c.name, key.name) || notATerm(c.name)) return false;
      // "hydrogen ions" for "positive ions that form by losing electrons" (cations), "vertebrate
      // animals" for "animals that secrete urea": a name that is itself a kind of the definition's
      // genus may meet the definition too (a second defensible option).
      if (key.genus && c.name.includes(" ") && c.head === key.genus) return false;
      const def = kb.scopeTerms.find((t) => termKey(t.term) === termKey(c.name))?.definition;
      if (def && overlapShare(def, stemText) >= 0.7) return false;
      // A definition stem another option's own description also meets: a second right answer.
      if (opts.definition && describedAlike(kb, c.name, opts.definition, key.name, key.genus)) return false;
      return true;
    })
    .map((c) => {
      const ck = termKey(c.name);
      // WordNet knows the key as a kind of its genus and knows the candidate as something else:
      // a list the two share does not make them the same kind ("lysosomes" listed with "lipids"
      // and "nucleic acids", round 10 and 11 readers), unless the text gives the candidate that genus.
      if (keyIsGenus && c.genus !== key.genus) {
        const kinds = wordNetKinds(c.name);
        if (kinds.size > 0 && !kinds.has(key.genus)) return { c, kin: 0, score: 0 };
      }
      // Same kind, by what the text says: a list it shares with the key, the genus of both
      // definitions, or a shared head noun ("saddle joint" / "hinge joint"). WordNet's coarse
      // categories alone proved too loose (graded: "seawater" offered as an element).
      const kin = has(kb.links.siblings, keyKey, ck)
        ? 4
        : key.genus && c.genus === key.genus
          ? 3
          : c.head === key.head && c.head.length > 2 && (c.name.includes(" ") || key.name.includes(" "))
            ? 2.5
            : // The key's genus, from its definition, is the option's kind in WordNet ("lysosomes are
              // the digestive organelles …" → ribosomes, mitochondria), unless the text gives it another.
              // A loose genus confirms nothing: every measure is a "quantity" to WordNet (round 11
              // readers: "time interval" and "time period" offered beside average speed).
              key.genus &&
                !LOOSE_GENUS.has(key.genus) &&
                (!c.genus || c.genus === key.genus) &&
                wordNetKinds(c.name).has(key.genus)
              ? 2
              : 0;
      const named = c.source === "definition" || c.source === "called" || c.source === "appositive" ? 0.5 : 0;
      const ratio = Math.min(c.name.length, key.name.length) / Math.max(c.name.length, key.name.length);
      // A list the text shares, or WordNet's kinship, does not survive a clash of WordNet's coarse
      // kinds (a process listed beside an organelle); a shared genus or head noun is the text's word.
      // A heading's concept has no genus of its own: its gloss may state it ("Peroxisomes are small,
      // round organelles …").
      if ((kin === 4 || kin === 2) && kindClash(key, { name: c.name, genus: glossGenus(c) }))
        return { c, kin: 0, score: 0 };
      return { c, kin, score: kin * 2 + named + ratio * 0.5 + env.random() * 0.3 };
    })
    .filter(({ kin }) => kin > 0)
    .sort((a, b) => b.score - a.score);
  const out: IConcept[] = [];
  for (const { c } of scored) {
    if (out.some((o) => overlapping(kb, o.name, c.name))) continue;
    out.push(c);
    if (out.length >= n) break;
  }
  return out.length >= (opts.atLeast ?? n) ? out : [];
}

function overlapShare(a: string, b: string): number {
  const sa = stemsOf(a);
  const sb = stemsOf(b);
  if (sa.size === 0) return 0;
  let hit = 0;
  for (const s of sa) if (sb.has(s)) hit++;
  return hit / sa.size;
}

export const definitionOf = (kb: IKnowledge, name: string) =>
  kb.scopeTerms.find((t) => termKey(t.term) === termKey(name));

/** The definition without its genus: what sets the term apart ("… that span the membrane"). */
function differentia(definition: string, genus: string): string {
  const d = stripEnd(definition);
  const at = genus ? d.toLowerCase().indexOf(genus.toLowerCase()) : -1;
  return at >= 0
    ? d
        .slice(at + genus.length)
        .replace(/^[a-z]*\s*/i, "")
        .trim()
    : "";
}

/**
 * A rationale that names the confusion: the distractor is the same kind of thing as the key, and
 * what tells them apart; without a definition, the sentence that says what the distractor is.
 */
export function confusionRationale(
  kb: IKnowledge,
  distractor: IConcept,
  keyName: string,
  genus: string,
): string {
  const def = definitionOf(kb, distractor.name);
  const keyDef = definitionOf(kb, keyName);
  const kind = genus && distractor.genus === genus ? genus : "";
  if (def && kind && keyDef) {
    const theirs = differentia(def.definition, kind);
    const ours = differentia(keyDef.definition, kind);
    if (theirs && ours)
      return `Both are ${kind}s, but ${distractor.name} ${def.plural ? "are" : "is"} the one ${clip(theirs, 90)}; the question describes the one ${clip(ours, 90)}.`;
  }
  if (def)
    return `Confuses ${keyName} with ${distractor.name}, which ${def.plural ? "are" : "is"} ${clip(stripEnd(def.definition), 120)}.`;
  if (distractor.gloss)
    return `Confuses ${keyName} with ${distractor.name}: “${clip(stripEnd(distractor.gloss), 140)}.”`;
  return `Confuses ${keyName} with ${distractor.name}, a related ${distractor.head || "term"} that does not fit this description.`;
}

/**
 * A genus that counts or groups ("a pair of …", "a set of …") says nothing of what the thing is:
 * testes ("a pair of male reproductive organs") and labia majora ("a pair of elongated folds")
 * are not siblings (round 9 and 10 readers rejected the pair).
 */
export const NO_KIND =
  /^(?:pair|set|group|number|kind|type|form|sort|series|collection|piece|part|portion|variety|class)s?$/i;
/**
 * "outermost layer", "middle layer", "first stage": a position or an order, not a term; without
 * its whole ("of the meninges") the question does not say what it asks (readers: vague stem).
 */
export const POSITION_ONLY =
  /^(?:the\s+)?(?:outer(?:most)?|inner(?:most)?|middle|upper(?:most)?|lower(?:most)?|top|bottom|first|second|third|fourth|fifth|final|last|central|front|back|outside|inside)\s+(?:layer|part|region|stage|phase|step|side|portion|zone|surface|section|end|half|level|membrane|wall|sheet)s?$/i;
