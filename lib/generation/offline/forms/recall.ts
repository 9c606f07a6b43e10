import nlp from "compromise";
import type { IConcept, ITerm } from "@/lib/generation/offline/knowledge";
import { unitOfName } from "@/lib/generation/offline/knowledge/equations";
import {
  headOf,
  sameConcept,
  sharedKind,
  singular,
  termKey,
  wordNetChain,
  wordNetKinds,
} from "@/lib/generation/offline/knowledge/lexicon";
import { sameDims, type TDims } from "@/lib/generation/offline/knowledge/numeric/units";
import { dimsOfUnit, QUANTITY_UNITS } from "@/lib/generation/offline/knowledge/numeric-units";
import { kindOf, poolOptions } from "@/lib/generation/offline/knowledge/pool";
import { contentWords } from "@/lib/text/tokenize";
import { usageCount } from "@/lib/text/wordnet";
import type { TQuestion } from "@/types/generation.types";
import {
  capital,
  clip,
  conceptDistractors,
  confusionRationale,
  type IForm,
  type IFormEnv,
  keywords,
  kindOfOther,
  lower,
  mcq,
  notATerm,
  sentence,
  stripEnd,
  written,
} from "./common";
import { ABOUT_NAMES } from "./relations";

/**
 * Remember: recall a term or a definition as stated. The end-of-section questions of a textbook
 * are mostly of these shapes ("… is called ________."); the wrong options are other concepts of
 * the same kind from the chapter, so choosing needs knowing the term, not guessing by wording.
 */

const be = (t: { plural: boolean }) => (t.plural ? "are" : "is");

function byRank(env: IFormEnv, items: readonly { chunkKey: string }[]) {
  return [...items].sort((a, b) => (env.kb.rank.get(a.chunkKey) ?? 99) - (env.kb.rank.get(b.chunkKey) ?? 99));
}

/** "a molecule consisting of …": a noun phrase that can follow "What is the term for". */
function nominal(def: string): boolean {
  if (
    !/^(?:an?|the)\s+(?!(?:example|examples|type|kind|form|way|result|so|such|considered|randomly|one)\b)/i.test(
      def,
    )
  )
    return false;
  // compromise's "#Adjective*" matching nothing does not let "#Noun" match the next word ("a
  // cavity that …", "the process by which …" failed), so the bare noun is asked for on its own.
  const doc = nlp(def);
  return doc.match("^#Determiner #Adverb? #Adjective+ #Noun").found || doc.match("^#Determiner #Noun").found;
}

/** "the rate of …", "a measure of …": an article and then the genus, a noun phrase whatever the tagger says. */
function genusFirst(def: string, genus: string): boolean {
  if (!/^\p{L}{3,}$/u.test(genus)) return false;
  const words = def.toLowerCase().split(/\s+/);
  return /^(?:an?|the)$/.test(words[0] ?? "") && (words[1] === genus || words[1] === `${genus}s`);
}

/** Index of `name` in `text` as whole words, or −1. */
function wordAt(text: string, name: string): number {
  let from = 0;
  for (;;) {
    const at = text.indexOf(name, from);
    if (at < 0) return -1;
    const before = text.charAt(at - 1);
    const after = text.charAt(at + name.length);
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return at;
    from = at + 1;
  }
}

/** Sentences that lean on context a gapped sentence would lose ("also", "then", "recall that"). */
export const LEANS_ON_CONTEXT =
  /\b(?:also|then|again|still|instead|first|second|third|finally|recall|previously|too|either|likewise|similarly)\b/i;

/**
 * A definition that reads as a noun phrase before "… is called ________", never a predicate with
 * its subject cut off (round 8 readers: "Deposited during gestation and are present … are called",
 * "The most speciose group … and display … are called").
 */
export function clozeable(def: string): boolean {
  // "a mixture of gases; therefore, the partial pressure of each gas …": a second clause run on
  // (round 14 readers: a pasted fragment).
  if (/;\s|,\s*(?:therefore|thus|hence)\b/i.test(def)) return false;
  const first = nlp(def.split(/\s+/)[0] ?? "");
  if (first.has("#Verb") && !first.has("#Noun")) return false;
  // "excellent regenerators and some even reproduce asexually …": a second clause about some of them.
  // "… rRNAs, and many distinct polypeptides" is still one noun phrase.
  const doc = nlp(def);
  if (doc.match("(and|but) (some|many|most|others|all|few) #Adverb? #Verb").found) return false;
  return !doc.match("(and|but) #Adverb? #Verb").found;
}

/**
 * "Seed plants are the foundation of human diets", "Antibodies are the functional basis of humoral
 * immunity": a plural term said to be one singular thing is a claim about it, not what it is (and
 * "The foundation … are called" does not agree). "Lipids are a class of …" (an indefinite
 * collective) still defines.
 */
function claimNotKind(t: ITerm): boolean {
  if (!t.plural) return false;
  // "the most common type of neuron" (a plural term): the same disagreement through a counting word.
  if (
    /^the\s+(?:[\p{L}-]+\s+){0,2}?(?:type|kind|form|class|sort|group)\s+of\s+[\p{L}-]+(?<!s)\b(?!\s+\p{L}+s\b)/iu.test(
      t.definition,
    )
  )
    return true;
  if (!t.genus) return false;
  const m = /^the\s+(?:[\p{L}-]+\s+){0,2}?([\p{L}-]+)\b/iu.exec(t.definition);
  const word = m?.[1]?.toLowerCase() ?? "";
  return singular(word) === t.genus && word === t.genus && !/s$/.test(word);
}

/**
 * A definition that opens with a hedge ("Probably simple eucoelomates", "Usually …") states a
 * guess or a tendency, not what the term is (development Biology 28.3: "Probably simple
 * eucoelomates are called ________").
 */
const HEDGED =
  /^(?:probably|possibly|perhaps|likely|usually|often|generally|mostly|typically|sometimes|apparently|presumably)\b/i;

/**
 * The stem of a definition item: "… is/are called ________." or "What is the term for …?". None for
 * a hedged definition; a plural term after a singular indefinite definition ("A stored form of
 * energy are called ________", development Biology 3.3) is asked as "What is the term for …?",
 * which agrees, or not at all when the definition is no noun phrase.
 */
export function definitionPrompt(def: string, plural: boolean, np: boolean, variant: number): string | null {
  if (HEDGED.test(def)) return null;
  const disagrees = plural && /^an?\s/i.test(def);
  if (disagrees && !np) return null;
  return (variant % 2 === 0 || !np) && !disagrees
    ? `${capital(def)} ${plural ? "are" : "is"} called ________.`
    : `What is the term for ${lower(def)}?`;
}

/**
 * "Animals with three tissue layers are called ________", "Animals with a true coelom …": a group of
 * organisms named by a trait it has. Other groups of the chapter (vertebrates, mollusks, arthropods)
 * may have the trait too, and the text rarely says which lack it: a second right answer the options
 * cannot be checked against (development Biology 27.1–27.2, 29.1; round 13–15 readers: a stem a
 * sibling term also meets). A group named by membership ("… that belong to the order Anura") stays.
 */
export function groupByTrait(def: string, genus: string): boolean {
  if (!genus || !wordNetChain(genus).includes("organism")) return false;
  const words = def.toLowerCase().split(/\s+/);
  const at = words.findIndex((w) => singular(w.replace(/[^\p{L}-]/gu, "")) === genus.toLowerCase());
  if (at < 0 || at > 3) return false;
  const rest = words.slice(at + 1).join(" ");
  return /^(?:with|having|that\s+(?:have|has|possess(?:es)?|lack|lacks|bear|bears|show|shows))\b/i.test(rest);
}

function termToMcq(env: IFormEnv, t: ITerm, variant: number): TQuestion | null {
  const def = stripEnd(t.definition);
  // "the rate of change of velocity": the part-of-speech reader takes "rate" for a verb, but the
  // definition's genus is a noun by `extractTerms`' reading.
  // Only for a school quantity, whose options are quantities (`quantityOptions`): in Biology it
  // let through definitions whose chapter options were of another kind or also fitted (round 13).
  const np = nominal(def) || (!!quantityKey(t) && genusFirst(def, t.genus));
  if ((!np && !t.plural) || !clozeable(def) || claimNotKind(t) || groupByTrait(def, t.genus)) return null;
  const prompt = definitionPrompt(def, t.plural, np, variant);
  if (!prompt) return null;
  const chapter = conceptDistractors(env, { ...t, name: t.term }, prompt, 3, {
    samePlurality: true,
    atLeast: 0,
    definition: def,
  });
  // A key that is a school quantity takes only quantities of other dimensions from the chapter
  // ("kinematic equation", "unavailability" are no options for acceleration or entropy).
  const quantity = quantityKey(t);
  const options = chapter
    .filter((d) => {
      if (narrower(d.name, t.term)) return false;
      if (!quantity) return true;
      const unit = unitOfName(d.name);
      return !!unit && unit.unit !== "" && !sameDims(unit.dims, quantity.dims);
    })
    .map((d) => ({
      // A heading's capital ("Energy", "Time") beside lower-case options reads as a tell.
      text: quantity && /^\p{Lu}\p{Ll}+$/u.test(d.name) ? d.name.toLowerCase() : d.name,
      rationale: confusionRationale(env.kb, d, t.term, t.genus),
    }));
  if (options.length < 3) {
    // Too few of the key's kind by what the text says: concepts of the chapter that WordNet puts
    // under one specific kind with the key (carbohydrates beside lipids, nematodes beside flatworms).
    const more = kindOptions(
      env,
      t,
      prompt,
      options.map((o) => o.text),
    );
    if (more.length > 0 && !quantity) {
      // Beside WordNet's kin, the chapter's options must be of that kind too, or share the key's
      // head noun ("molecules" was left beside tracheids, xylem vessels and lateral meristems).
      const keyName = bareTerm(t.term);
      const kept = options.filter(
        (o) =>
          headOf(o.text) === headOf(keyName) ||
          !!sharedKind(keyName, o.text) ||
          more.some((m) => !!sharedKind(m.text, o.text)),
      );
      options.splice(0, options.length, ...kept, ...more.slice(0, 3 - kept.length));
    }
  }
  if (options.length < 3 && env.kb.poolTerms.length > 0) {
    // Too few of the key's kind in the chapter: terms of that kind other chapters define.
    const taken = chapter.map((d) => termKey(d.name));
    const more = poolOptions(
      env.kb.poolTerms,
      {
        name: t.term,
        genus: kindOf(t),
        head: t.head,
        definition: t.definition,
        aliases: t.aliases,
        plural: t.plural,
      },
      prompt,
      { samePlurality: true, exclude: new Set(taken), trace: env.trace },
    ).filter(
      ({ term }) => !chapter.some((d) => sameConcept(d.name, term.term)) && !narrower(term.term, t.term),
    );
    for (const { term } of more.slice(0, 3 - options.length)) {
      options.push({
        text: term.term,
        rationale: `Confuses ${t.term} with ${term.term}, which ${be(term)} ${clip(stripEnd(term.definition), 120)}.`,
      });
    }
  }
  if (options.length < 3) {
    const more = quantityOptions(
      env,
      t,
      prompt,
      options.map((o) => o.text),
    );
    if (options.length + more.length >= 3) options.push(...more.slice(0, 3 - options.length));
  }
  if (options.length < 3) return null;
  return mcq(env, {
    prompt,
    key: { text: t.term },
    distractors: options,
    explanation: `${capital(t.term)} ${be(t)} ${clip(def, 240)}.`,
    sources: [{ chunkKey: t.chunkKey, quote: t.sentence }],
  });
}

/** Ranks of a taxon in a heading ("Class Anthozoa"): the heading names a group, not an option. */
const RANK = /^(?:kingdom|phylum|division|class|order|family|genus|domain|subphylum|superclass)\s/i;

/** A Latin plural ("strobili", "gemmae", "antheridia", "bacteria"), never beside a singular key. */
const LATIN_PLURAL = /\p{L}{3,}(?:[^aeiou\s]ia|ae|[^aeiou\s]i)$/iu;

/** A heading's capitals lowered ("Fibrous Joints" → "fibrous joints"), acronyms kept. */
const lowerHeading = (name: string) =>
  name
    .split(" ")
    .map((w) => (/^\p{Lu}\p{Ll}+$/u.test(w) ? w.toLowerCase() : w))
    .join(" ");

/** Content stems of a text, for the "also fits the definition" test. */
const stemSet = (text: string) => new Set(contentWords(text).map((w) => termKey(w)));

/**
 * Wrong options of the key's kind that the text does not state but WordNet does: concepts of the
 * chapter under one specific kind with the key (`sharedKind`: lipids → carbohydrates, proteins;
 * flatworms → nematodes, annelids; cartilaginous joints → fibrous joints, synovial joints). Never a
 * narrower or broader term (by WordNet or by name), another name of the key, a name in the stem or
 * in the key's definition, a phrase with a verb ("classification divides joints"), or a concept a
 * sentence of the chapter describes in the definition's own words (tunicates are suspension
 * feeders too: a second right answer).
 */
export function kindOptions(
  env: IFormEnv,
  t: ITerm,
  prompt: string,
  taken: readonly string[],
): { text: string; rationale: string }[] {
  const key = bareTerm(t.term);
  if (wordNetChain(key).length === 0) return [];
  const stem = prompt.toLowerCase();
  const stemStems = stemSet(prompt);
  const def = stripEnd(t.definition).toLowerCase();
  const stated = kindOf(t);
  const textKind = stated && wordNetChain(key).includes(stated) ? stated : "";
  const differentiaWords = contentWords(def).filter((w) => termKey(w) !== termKey(t.genus));
  const differentia = [...new Set(differentiaWords.map((w) => termKey(w)))];
  // The rarest word of the definition is the one that tells the key apart ("cartilage", not "bones").
  const rarest = [...differentiaWords].sort(
    (a, b) => usageCount(a.toLowerCase()) - usageCount(b.toLowerCase()),
  )[0];
  const rarestKey = rarest ? termKey(rarest) : "";
  // The definition's kind in two or more words ("suspension feeders"), before what sets it apart.
  const genusWords = def
    .replace(/^(?:an?|the|any)\s+/, "")
    .split(/\s+(?:that|which|who|whose|with|of|in|on|by|for|from|to|where|when|consisting|containing)\b/)[0]!
    .replace(/[,;:].*$/, "")
    .trim();
  const genusPhrase =
    genusWords.split(/\s+/).length >= 2 && genusWords.split(/\s+/).length <= 4 ? genusWords : "";
  let lowered: string[] | null = null;
  const sentences = () => {
    lowered ??= env.kb.scopeSentences.map((s) => s.text.toLowerCase());
    return lowered;
  };
  const used = new Set([termKey(key), ...taken.map((x) => termKey(x))]);
  const found: { text: string; name: string; kind: string; score: number }[] = [];
  for (const c of env.kb.concepts) {
    // "strobili", "gemmae", "antheridia": Latin plurals the English plural test misses.
    if (c.plural !== t.plural || (!t.plural && LATIN_PLURAL.test(c.name))) continue;
    if (
      c.source === "heading" &&
      (c.name.split(" ").length > 3 || RANK.test(c.name) || /\s\p{Ll}/u.test(c.name))
    )
      continue;
    const name = c.source === "heading" ? lowerHeading(c.name) : c.name;
    const k = termKey(name);
    if (!k || used.has(k) || name.split(" ").length > 4 || /\d/.test(name) || notATerm(name)) continue;
    if (sameConcept(name, key) || t.aliases.some((a) => sameConcept(a, name))) continue;
    if (narrower(name, key) || narrower(key, name) || kindOfOther(name, key)) continue;
    // "clusters of sporangia called sori": the text gives it the key's own name as its kind.
    if (c.genus && t.head.length >= 4 && c.genus.slice(0, 6) === t.head.slice(0, 6)) continue;
    const kind = sharedKind(key, name);
    if (!kind) continue;
    if (name.includes(" ") && nlp(name).has("#Verb")) continue;
    const lowerName = name.toLowerCase();
    if (wordAt(stem, lowerName) >= 0 || wordAt(def, lowerName) >= 0) continue;
    if ([...stemSet(name)].every((w) => stemStems.has(w))) continue;
    // The kind the text states and WordNet confirms for the key ("the most common type of neuron"):
    // an option must be of it too (an oligodendrocyte is a cell, not a neuron).
    if (textKind && !wordNetChain(name).includes(textKind)) continue;
    // Said in the definition's words somewhere in the chapter: it may meet the definition too
    // ("Most tunicates … are suspension feeders" beside lancelets, "suspension feeders that …").
    const alsoFits = sentences().some((x) => {
      if (wordAt(x, lowerName) < 0) return false;
      if (genusPhrase && wordAt(x, genusPhrase) >= 0) return true;
      const xs = stemSet(x);
      const hit = differentia.filter((w) => xs.has(w)).length;
      return hit >= 2 && hit >= differentia.length / 2 && xs.has(rarestKey);
    });
    if (alsoFits) continue;
    const score =
      wordNetChain(key).indexOf(kind) +
      wordNetChain(name).indexOf(kind) +
      (c.source === "phrase" ? 0.5 : 0) +
      env.random() * 0.3;
    found.push({ text: name, name: c.name, kind, score });
  }
  const out: { text: string; rationale: string }[] = [];
  for (const f of found.sort((a, b) => a.score - b.score)) {
    if (out.some((o) => sameConcept(o.text, f.text) || termKey(o.text) === termKey(f.text))) continue;
    const own = env.kb.scopeTerms.find((x) => termKey(x.term) === termKey(f.name));
    out.push({
      text: f.text,
      rationale: own
        ? `Confuses ${t.term} with ${f.text}, another ${f.kind}, which ${be(own)} ${clip(stripEnd(own.definition), 120)}.`
        : `Confuses ${t.term} with ${f.text}, another ${f.kind} that does not fit this description.`,
    });
  }
  return out;
}

/**
 * School quantities beside `QUANTITY_UNITS` that a definition may name (speed, work, weight …):
 * the same unit test keeps each apart from its near names (work / energy, weight / force).
 */
const MORE_QUANTITIES: readonly { quantity: string; unit: string }[] = [
  { quantity: "speed", unit: "m/s" },
  { quantity: "displacement", unit: "m" },
  { quantity: "work", unit: "J" },
  { quantity: "weight", unit: "N" },
  { quantity: "wavelength", unit: "m" },
  { quantity: "period", unit: "s" },
  { quantity: "impulse", unit: "N⋅s" },
];
const QUANTITIES = [...QUANTITY_UNITS, ...MORE_QUANTITIES]
  .map((q) => ({ ...q, key: termKey(q.quantity), dims: dimsOfUnit(q.unit) }))
  .filter((q): q is typeof q & { dims: TDims } => q.dims !== null);

/** The school quantity a defined term names, when its definition does not state the quantity's own word. */
function quantityKey(t: ITerm): (typeof QUANTITIES)[number] | null {
  const keyName = bareTerm(t.term).toLowerCase();
  const key = QUANTITIES.find((q) => q.key === termKey(keyName));
  if (!key || t.plural || keyName !== key.quantity) return null;
  if (wordAt(stripEnd(t.definition).toLowerCase(), key.quantity) >= 0) return null;
  return key;
}

/** A quantity whose SI unit combines two or more base units (velocity, energy), not a base one (time). */
const derived = (dims: TDims) => dims.filter((n) => n !== 0).length >= 2;

/**
 * A name for a narrower kind of the key, built on the key's own word ("phospholipids" for lipids,
 * "glycoproteins" for proteins): the key's definition may fit it too (round 13 reading).
 */
export function narrower(option: string, key: string): boolean {
  const k = singular((key.toLowerCase().split(/\s+/).pop() ?? "").replace(/[^\p{L}]/gu, ""));
  const o = singular((option.toLowerCase().split(/\s+/).pop() ?? "").replace(/[^\p{L}]/gu, ""));
  return k.length >= 4 && o !== k && o.endsWith(k);
}

/**
 * Wrong options for "… is called ________" when the key is a school quantity the passage defines
 * ("the rate of change of velocity" → acceleration): other quantities, those the chapter names
 * first. A physical quantity is a kind the text need not state; each option has other SI
 * dimensions than the key and than each other, so none is another name of the key (speed beside
 * velocity, work beside energy, weight beside force) and none meets the definition. Never a
 * quantity the stem names, nor a key whose own head word the definition states ("the energy of
 * motion": only one option would be an energy).
 */
export function quantityOptions(
  env: IFormEnv,
  t: ITerm,
  prompt: string,
  taken: readonly string[],
): { text: string; rationale: string }[] {
  const key = quantityKey(t);
  if (!key) return [];
  const stem = prompt.toLowerCase();
  const chapter = env.kb.scopeSentences.map((s) => s.text.toLowerCase()).join(" ");
  const lesson = env.kb.sentences.map((s) => s.text.toLowerCase());
  const used = taken.map((x) => termKey(x));
  const dims = [
    key.dims,
    ...taken.map((x) => unitOfName(x)?.dims).filter((d): d is TDims => !!d && d.some((n) => n !== 0)),
  ];
  // Only quantities the chapter names: "temperature" beside velocity is an option no one picks.
  const ranked = QUANTITIES.filter(
    (q) =>
      !used.includes(q.key) &&
      q.key !== key.key &&
      wordAt(stem, q.quantity) < 0 &&
      wordAt(chapter, q.quantity) >= 0,
  )
    // The quantities the selected passages use most first (force beside torque, temperature beside
    // entropy): options a student of the lesson weighs, not any quantity of the chapter.
    .map((q) => ({
      q,
      uses: lesson.filter((x) => wordAt(x, q.quantity) >= 0).length,
      tie: env.random(),
    }))
    // Named in the selected passages themselves (round 13: "speed" and "time" offered for entropy
    // in a Biology chapter on energy); a base quantity (time, length) is no rival for a derived one
    // ("time" beside velocity or speed: readers called it an option no one picks).
    .filter(({ q, uses }) => uses > 0 && !(derived(key.dims) && !derived(q.dims)))
    .sort((a, b) => b.uses - a.uses || b.tie - a.tie);
  const out: { text: string; rationale: string }[] = [];
  for (const { q } of ranked) {
    if (dims.some((d) => sameDims(d, q.dims))) continue;
    dims.push(q.dims);
    out.push({
      text: q.quantity,
      rationale: `Confuses ${key.quantity} with ${q.quantity}, another quantity (measured in ${q.unit}, not ${key.unit}).`,
    });
    if (out.length + taken.length >= 3) break;
  }
  return out;
}

export const definitionMcq: IForm = {
  id: "definition-mcq",
  fits: (type, level) => type === "mcq" && level === "Remember",
  available: (kb) => kb.terms.length,
  *build(env) {
    let i = 0;
    for (const t of byRank(env, env.kb.terms) as ITerm[]) {
      if (env.used.has(t.sentence)) continue;
      const q = termToMcq(env, t, i++ + Math.floor(env.random() * 2));
      if (q) yield q;
      else env.trace?.("< 3 terms of the same kind for the options");
    }
  },
};

const CALLED = /\b(called|known as|termed|referred to as|named)\s+(?:an?\s+|the\s+)?/i;

/**
 * A gapped sentence: no acronym or alias right after the gap ("________ (ARS)", "________, or
 * sex cells") that would give the term away, no "(plural = …)" asides, and only the first
 * clause when a semicolon runs on.
 */
export function clozeAround(before: string, after: string): string {
  const tail = after
    .replace(/^\s*\([^)]*\)/, "")
    .replace(/^,\s*(?:or|also called|also known as)\s+[^,;.]+,?/, "")
    .replace(/\s*\((?:plural|singular)\s*=[^)]*\)/g, "")
    .split(/;\s+/)[0]!
    .replace(/[.\s]*$/, ".");
  return `${before}________${tail.startsWith(".") || tail.startsWith(",") ? "" : " "}${tail.trimStart()}`.replace(
    /\s+\./,
    ".",
  );
}

/** An MCQ whose key is the concept a gapped sentence leaves out, its options the concept's kin. */
function gapMcq(
  env: IFormEnv,
  concept: IConcept,
  prompt: string,
  source: { chunkKey: string; text: string },
  explanation: string,
): TQuestion | null {
  const distractors = conceptDistractors(env, concept, prompt, 3, { samePlurality: true });
  if (distractors.length < 3) return null;
  return mcq(env, {
    prompt,
    key: { text: concept.name },
    distractors: distractors.map((d) => ({
      text: d.name,
      rationale: confusionRationale(env.kb, d, concept.name, concept.genus),
    })),
    explanation,
    sources: [{ chunkKey: source.chunkKey, quote: source.text }],
  });
}

/** "Within the chloroplast are stacked, disc-shaped structures called ________." */
export const calledCloze: IForm = {
  id: "called-cloze",
  fits: (type, level) => type === "mcq" && level === "Remember",
  available: (kb) => kb.sentences.filter((s) => s.standalone && CALLED.test(s.text)).length,
  *build(env) {
    const candidates = byRank(
      env,
      env.kb.sentences.filter(
        (s) => s.standalone && !s.sideBox && CALLED.test(s.text) && !env.used.has(s.text),
      ),
    ) as typeof env.kb.sentences;
    for (const s of candidates) {
      const after = s.text.slice((CALLED.exec(s.text)?.index ?? 0) + (CALLED.exec(s.text)?.[0].length ?? 0));
      const concept = env.kb.concepts.find(
        (c) => after.toLowerCase().startsWith(c.name.toLowerCase()) && c.name.split(" ").length <= 4,
      );
      if (!concept) continue;
      const at = s.text.toLowerCase().indexOf(concept.name.toLowerCase(), s.text.length - after.length);
      const prompt = clozeAround(s.text.slice(0, at), s.text.slice(at + concept.name.length));
      // The term must not appear elsewhere in the sentence.
      if (prompt.toLowerCase().includes(concept.name.toLowerCase())) continue;
      const q = gapMcq(
        env,
        concept,
        prompt,
        s,
        `The text names this ${concept.genus || "concept"} ${concept.name}: “${clip(s.text, 220)}”`,
      );
      if (q) yield q;
    }
  },
};

/**
 * A cloze on a concept that opens a standalone statement ("________ change shape as they move
 * molecules across the membrane."), the concept being one the chapter names.
 */
export const conceptCloze: IForm = {
  id: "concept-cloze",
  fits: (type, level) => type === "mcq" && level === "Remember",
  available: (kb) => kb.sentences.filter((s) => s.standalone).length,
  *build(env) {
    // A gap worth filling is a term of the subject, not an everyday word ("mechanism", "molecule").
    const names = env.kb.concepts.filter(
      (c) =>
        c.source !== "heading" &&
        (c.source !== "phrase" || c.name.includes(" ") || usageCount(c.name.toLowerCase()) < 10),
    );
    const seen = new Set<string>();
    for (const s of byRank(env, env.kb.sentences) as typeof env.kb.sentences) {
      if (
        !s.standalone ||
        s.sideBox ||
        env.used.has(s.text) ||
        CALLED.test(s.text) ||
        LEANS_ON_CONTEXT.test(s.text) ||
        ABOUT_NAMES.test(s.text)
      )
        continue;
      // The concept the gap takes: named once in the sentence, on a word boundary, preferring
      // one that opens the sentence and then the longest.
      const lowerText = s.text.toLowerCase();
      const found = names
        .map((c) => ({ c, at: wordAt(lowerText, c.name.toLowerCase()) }))
        .filter(
          ({ c, at }) => at >= 0 && wordAt(lowerText.slice(at + c.name.length), c.name.toLowerCase()) < 0,
        )
        .sort((a, b) => Number(b.at <= 4) - Number(a.at <= 4) || b.c.name.length - a.c.name.length);
      const hit = found.find(({ c }) => !seen.has(termKey(c.name)));
      if (!hit) continue;
      const { c: concept, at } = hit;
      const rest = s.text.slice(at + concept.name.length);
      // Its definition: the definition form asks that better.
      const definitional = at <= 4 && /^\s+(?:is|are)\s+(?:an?|the)\s/i.test(rest);
      if (definitional && env.kb.terms.some((t) => sameConcept(t.term, concept.name))) continue;
      if (contentWords(s.text).length - contentWords(concept.name).length < 5) continue;
      seen.add(termKey(concept.name));
      const prompt = clozeAround(s.text.slice(0, at), rest);
      const q = gapMcq(env, concept, prompt, s, `${capital(stripEnd(s.text))}.`);
      if (q) yield q;
    }
  },
};

/** "Define X." with the definition and a further fact about X, in two sentences (never one copied sentence). */
export const defineWritten: IForm = {
  id: "define-written",
  fits: (type, level) => type !== "mcq" && level === "Remember",
  available: (kb) => kb.terms.length,
  *build(env) {
    for (const t of byRank(env, env.kb.terms) as ITerm[]) {
      if (env.used.has(t.sentence)) continue;
      const more = env.kb.sentences.find(
        (s) =>
          s.standalone &&
          !s.sideBox &&
          s.text !== t.sentence &&
          !env.used.has(s.text) &&
          !LEANS_ON_CONTEXT.test(s.text) &&
          s.text.toLowerCase().includes(t.term.toLowerCase()),
      );
      if (!more) continue;
      const def = stripEnd(t.definition);
      const answer = `${capital(t.term)} ${be(t)} ${def}. ${sentence(more.text)}`;
      const q = written(env, {
        prompt: `Define ${t.term} and state one further fact about ${t.plural ? "them" : "it"}.`,
        answer,
        points: [
          { point: `Defines ${t.term} as ${clip(def, 140)}`, weight: 2 },
          { point: `A correct further fact, e.g. ${clip(lower(stripEnd(more.text)), 140)}`, weight: 1 },
        ],
        keywords: keywords([t.term, def, more.text]),
        sources: [
          { chunkKey: t.chunkKey, quote: t.sentence },
          { chunkKey: more.chunkKey, quote: more.text },
        ],
      });
      if (q) yield q;
    }
  },
};

/** Share of `a`'s content stems that `b` also has. */
function stemShare(a: string, b: string): number {
  const as = new Set(contentWords(a).map((w) => termKey(w)));
  const bs = new Set(contentWords(b).map((w) => termKey(w)));
  if (as.size === 0) return 0;
  return [...as].filter((s) => bs.has(s)).length / as.size;
}

/** Whether a definition names the term (a tell: "the magnitude of velocity" is not velocity). */
const names = (definition: string, term: string) =>
  contentWords(term).every((w) => definition.toLowerCase().includes(w.toLowerCase()));

/**
 * Wrong options for "which is the definition of X": the genuine definitions of other terms the
 * chapter defines, of the same kind only (see `kinship`; none from an unrelated term, so fewer
 * than three siblings means the form does not fire), never one that names X, shares
 * most of its words with X's definition, or is an alias of X.
 */
/** A term without the symbol that follows it: "centripetal force Fc" → "centripetal force". */
const bareTerm = (term: string) =>
  term.replace(/(?:\s+[^\s]*[\p{Lu}\p{Script=Greek}Δ][^\s]*)+$/u, "").trim() || term;

/** A definition that reads as a noun phrase ("a measure of …"), not a clause ("that there's …"). */
const NOUN_PHRASE_DEFINITION =
  /^(?:an?|the|any)\s+(?!(?:interesting|dangerous|fun|great|good|famous|popular|familiar|simple|nice|exciting|example)\b)\p{L}(?!.*\bexamples?\b)/iu;

export function siblingDefinitions(
  env: IFormEnv,
  t: ITerm,
  n = 3,
  candidates: readonly ITerm[] = definitionCandidates(env, t),
): ITerm[] {
  return candidates
    .map((o, i) => ({ o, score: Math.max(kinship(t, o), wordNetKin(t, o)) * 100 - i }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, n)
    .map((x) => x.o);
}

/**
 * Definitions of terms the chapter defines that WordNet puts under one specific kind with the key
 * (`sharedKind`: "a class of macromolecules …" for proteins beside lipids), after `have`: the same
 * tells refused as in `siblingDefinitions`.
 */
function kindDefinitions(t: ITerm, candidates: readonly ITerm[], have: readonly ITerm[]): ITerm[] {
  const taken = new Set(have.map((o) => termKey(bareTerm(o.term))));
  return candidates.filter(
    (o) =>
      !taken.has(termKey(bareTerm(o.term))) &&
      !narrower(o.term, t.term) &&
      !narrower(t.term, o.term) &&
      !!sharedKind(bareTerm(t.term), bareTerm(o.term)),
  );
}

/** The chapter's definitions that may stand as wrong options for `t`'s: no tell, no restatement, no alias. */
function definitionCandidates(env: IFormEnv, t: ITerm): ITerm[] {
  const key = termKey(bareTerm(t.term));
  const aliases = t.aliases.map((a) => termKey(a));
  const seen = new Set<string>([termKey(stripEnd(t.definition))]);
  const terms = new Set<string>([key]);
  return env.kb.scopeTerms.filter((o) => {
    if (!NOUN_PHRASE_DEFINITION.test(o.definition)) return false;
    // "A biomarker; whereas, a set of proteins …": a run-on definition is no option (development
    // Biology 17.5).
    if (/;\s|,\s*(?:therefore|thus|hence|whereas)\b/i.test(o.definition)) return false;
    const k = termKey(bareTerm(o.term));
    if (terms.has(k)) return false;
    terms.add(k);
    if (k === key || aliases.includes(k) || sameConcept(o.term, t.term)) return false;
    if (names(o.definition, t.term)) return false;
    if (stemShare(o.definition, t.definition) >= 0.6 || stemShare(t.definition, o.definition) >= 0.6)
      return false;
    const d = termKey(stripEnd(o.definition));
    if (seen.has(d)) return false;
    seen.add(d);
    return true;
  });
}

/**
 * Definitions of the key's kind from other chapters of the subject (`kb.poolTerms`), to make up
 * what the chapter lacks: the same tells are refused as for the chapter's (`siblingDefinitions`),
 * and the kind test is the strict one of `sameKind`.
 */
function poolDefinitions(env: IFormEnv, t: ITerm, have: readonly ITerm[]): ITerm[] {
  const need = 3 - have.length;
  const seen = new Set([...have.map((o) => termKey(stripEnd(o.definition)))]);
  const out: ITerm[] = [];
  const found = poolOptions(
    env.kb.poolTerms,
    { name: bareTerm(t.term), genus: kindOf(t), head: t.head, definition: t.definition, aliases: t.aliases },
    t.term,
    { exclude: new Set(have.map((o) => termKey(bareTerm(o.term)))), trace: env.trace },
  );
  for (const { term: o } of found) {
    if (!NOUN_PHRASE_DEFINITION.test(o.definition) || names(o.definition, t.term)) continue;
    if (have.some((h) => sameConcept(h.term, o.term))) continue;
    const d = termKey(stripEnd(o.definition));
    if (seen.has(d)) continue;
    seen.add(d);
    out.push(o);
    if (out.length >= need) break;
  }
  return out;
}

/**
 * 2 when WordNet makes `o` a kind of what `t`'s definition says `t` is (lysosomes, "the digestive
 * organelles …": ribosomes are organelles), else 0. The genus comes from the text, WordNet only
 * confirms the other term is of that kind; a generic genus ("part", "cell") confirms nothing.
 */
function wordNetKin(t: ITerm, o: ITerm): number {
  if (!t.genus || LOOSE.has(t.genus)) return 0;
  return wordNetKinds(bareTerm(o.term)).has(t.genus) ? 2 : 0;
}

/** Words too common to make two definitions kin ("a cell that …" / "a structure in the cell"). */
const LOOSE = new Set(
  `cell cells organism organisms body thing things way ways part parts type types kind kinds form forms process
  processes change changes result results group groups number amount one ones object objects point points two three
  four many several other others same different`.split(/\s+/),
);

const stems = (text: string) =>
  new Set(
    contentWords(text)
      .filter((w) => w.length > 2 && !LOOSE.has(w.toLowerCase()))
      .map((w) => termKey(w)),
  );

/**
 * How surely `o` is a term of the same kind as `t` (0 = unrelated, never a distractor): the same
 * genus ("the rate of …" / "the rate of …") 3; the same head noun ("kinetic energy" / "potential
 * energy") or one definition naming the other term (the passage relates them) 2; the two
 * definitions sharing two category words ("organic molecule …" / "organic molecule …") 1; one
 * shared word is not enough ("molecule" alone put water and the mole against macromolecules). Round 7 reader O
 * rejected 24 of 39 `defines-mcq` items whose options defined unrelated terms (macromolecule
 * against benzene, matter, atom): the key stood out, so an unrelated term is no sibling.
 */
export function kinship(t: ITerm, o: ITerm): number {
  if (t.genus && o.genus === t.genus && !LOOSE.has(t.genus)) return 3;
  if (t.head && o.head === t.head) return 2;
  const tTerm = bareTerm(t.term).toLowerCase();
  const oTerm = bareTerm(o.term).toLowerCase();
  if (wordAt(t.definition.toLowerCase(), oTerm) >= 0 || wordAt(o.definition.toLowerCase(), tTerm) >= 0)
    return 2;
  const a = stems(t.definition);
  return [...stems(o.definition)].filter((w) => a.has(w)).length >= 2 ? 1 : 0;
}

/**
 * Remember: "Which of the following is the definition of entropy?" The key is the definition the
 * passage states; the wrong options are the genuine definitions of other terms of the chapter
 * (velocity ↔ displacement, speed, average speed), so choosing needs knowing the term, and each
 * rationale names the term the option really defines. Replaces the cloze forms readers rejected.
 */
export const definesMcq: IForm = {
  id: "defines-mcq",
  fits: (type, level) => type === "mcq" && level === "Remember",
  available: (kb) => kb.terms.length,
  *build(env) {
    for (const t of byRank(env, env.kb.terms) as ITerm[]) {
      if (env.used.has(t.sentence)) continue;
      if (!NOUN_PHRASE_DEFINITION.test(t.definition)) {
        env.trace?.("definition is not a noun phrase");
        continue;
      }
      const def = stripEnd(t.definition);
      // The chapter's candidate definitions, read once for both kin tests.
      const candidates = definitionCandidates(env, t);
      const others = siblingDefinitions(env, t, 3, candidates);
      if (others.length < 3)
        others.push(...kindDefinitions(t, candidates, others).slice(0, 3 - others.length));
      if (others.length < 3 && env.kb.poolTerms.length > 0) others.push(...poolDefinitions(env, t, others));
      if (others.length < 3) {
        env.trace?.("< 3 definitions of the same kind in the chapter or the subject");
        continue;
      }
      const prompt =
        env.random() < 0.5
          ? `Which of the following is the definition of ${t.term}?`
          : `Which of the following describes what ${t.plural ? "" : /^[aeiou]/i.test(t.term) ? "an " : "a "}${t.term} ${be(t)}?`.replace(
              /what (?:an? )?(\S+(?:\s\S+)*) (is|are)\?$/,
              (_m, term: string, verb: string) =>
                `what ${t.plural ? "" : "the term "}${term} ${t.plural ? verb : "means"}?`,
            );
      const q = mcq(env, {
        prompt,
        key: { text: capital(def) },
        distractors: others.map((o) => ({
          text: capital(stripEnd(o.definition)),
          rationale: `This defines ${o.term}, not ${t.term}: it confuses the two ${t.genus && o.genus === t.genus ? `${t.genus}s` : "terms"}.`,
        })),
        explanation: `${capital(t.term)} ${be(t)} ${clip(def, 240)}, as the passage defines ${t.plural ? "them" : "it"}.`,
        sources: [{ chunkKey: t.chunkKey, quote: t.sentence }],
      });
      if (q) yield q;
    }
  },
};
