import nlp from "compromise";
import type { IConcept, ISentence } from "@/lib/generation/offline/knowledge";
import { sameConcept, singular, termKey, wordNetKinds } from "@/lib/generation/offline/knowledge/lexicon";
import { LOOSE } from "@/lib/generation/offline/knowledge/pool";
import { isNounPhrase } from "@/lib/text/phrases";
import { escapeRegExp } from "@/lib/text/regex";
import { contentWords, stem } from "@/lib/text/tokenize";
import type { TQuestion } from "@/types/generation.types";
import {
  clip,
  conceptDistractors,
  confusionRationale,
  formUseKey,
  type IForm,
  type IFormEnv,
  lower,
  mcq,
  PRONOUN,
  stripEnd,
} from "./common";
import { LEANS_ON_CONTEXT } from "./recall";
import { ABOUT_NAMES } from "./relations";
import { fragmentReason, SWEEPING } from "./statements";

/**
 * Remember MCQ from a stated function: "Ribosomes synthesize proteins" → "Which of the following
 * synthesize proteins?" with ribosomes and three things of the same kind the chapter names
 * (siblings in a list, the same genus or head noun: `conceptDistractors`). Ordinary exposition
 * states what a structure, molecule, hormone, device or force does far more often than it
 * defines three terms of one kind or holds three reversible statements, so this recall item has
 * material where the definition and statement MCQs have none.
 *
 * A wrong option must be definitely wrong: an option the chapter itself says does the same
 * ("Chloroplasts also produce ATP") is dropped (`statedOf`), the predicate must be specific (an
 * object of at least two content words, not "energy"), and the key's name is never in the stem.
 */

/**
 * Verbs that state what a thing does, is for, or where it acts (third person, either number), in
 * groups of near-synonyms: an option the chapter says does anything of the group ("lysosomes …
 * break down proteins" for "Which … hydrolyze fatty acids?") may be a second right answer.
 */
const VERB_GROUPS: readonly (readonly string[])[] = [
  [
    "produces?",
    "secretes?",
    "releases?",
    "synthesi[sz]es?",
    "generates?",
    "makes?",
    "manufactures?",
    "(?:is|are) produced by",
    "(?:is|are) secreted by",
    "(?:is|are) released by",
    "(?:is|are) made by",
  ],
  ["stores?", "holds?"],
  ["carr(?:y|ies)", "transports?", "delivers?", "moves?", "drains?", "returns?", "sends?", "transmits?"],
  [
    "breaks? down",
    "digests?",
    "hydrolyz(?:es?)",
    "degrades?",
    "catalyz(?:es?)",
    "absorbs?",
    "filters?",
    "removes?",
  ],
  ["controls?", "regulates?", "stimulates?", "inhibits?", "activates?", "triggers?"],
  ["converts?", "modifies|modify", "packages?", "translates?", "transcribes?"],
  ["protects?", "surrounds?", "encloses?", "covers?", "lines?", "anchors?"],
  ["detects?", "senses?", "measures?", "receives?"],
  ["connects?", "links?", "binds? to", "attaches? to", "joins?"],
  // Not "causes": many things cause a disease or a change, so a wrong option is rarely definitely wrong.
  // Not "uses", "requires", "functions in", "supports": true of too many things ("Prokaryotes use
  // different sources of energy …", "Protists function in various ecological niches").
  ["opposes?"],
  ["feeds? on", "lives? in", "grows? in", "develops? into", "gives? rise to"],
  [
    "(?:is|are) the sites? of",
    "(?:is|are) found in",
    "(?:is|are) located in",
    "occurs? in",
    "takes? place in",
  ],
  ["(?:is|are) responsible for", "(?:is|are) required for"],
];
const FUNCTION_VERB = VERB_GROUPS.flat().join("|");
/** Word roots of each group, to find the group in any inflection ("breaking down", "secreted"). */
const ROOTS: readonly string[] = [
  "produc|secret|releas|synthes|generat|mak|made|manufactur|form",
  "stor|hold|held",
  "carr|transport|deliver|mov|drain|return|send|sent|transmi|circulat",
  "break|broke|digest|hydroly|degrad|cataly|absorb|filter|remov|recycl",
  "control|regulat|stimulat|inhibit|activat|trigger",
  "conver|modif|packag|translat|transcrib",
  "protect|surround|enclos|cover|line|anchor|support",
  "detect|sens|measur|receiv",
  "connect|link|bind|bound|attach|join",
  "oppos",
  "feed|fed|live|grow|develop|give|gave",
  "site|found|locat|occur|place",
  "responsib|involv|requir|function|role|aid",
];
const groupOf = (verb: string): RegExp => {
  const at = VERB_GROUPS.findIndex((vs) => vs.some((v) => new RegExp(`^(?:${v})$`, "i").test(verb)));
  return at < 0 ? /$^/ : new RegExp(`\\b(?:${ROOTS[at]})`, "i");
};

/** "<Name> <verb> <object>", the name with or without an article, at most four words. */
const FUNCTION_SENTENCE = new RegExp(
  String.raw`^(?:the |an? )?([\p{L}\p{N}-]+(?: [\p{L}\p{N}-]+){0,3}) (${FUNCTION_VERB}) (.+)$`,
  "iu",
);

/** Where an object stops being the stated fact and a second clause begins ("… and is composed of …"). */
const OBJECT_END =
  /(?:,\s*(?:which|where|while|whereas|and|but|so|as|although|because|thus|then|such as|including)\b|;|:|\s[–—]\s|\(|\s+and\s+(?:is|are|has|have|also|they|it)\b)/i;

/** An object that says little on its own ("energy", "it", "many things"): a second right option waits. */
const VAGUE_OBJECT =
  /^(?:(?:the |a |an )?(?:energy|heat|substances?|materials?|things?|molecules?|cells?|signals?|information|it|them|many|various|several|different|other|others|some|most|all)\b[^,]{0,12}$)|\b(?:etc|such as|including|and so on|among others)\b/i;

/** Words that name a reader, a figure or a lab step: the sentence is not a fact of the subject. */
const OFF_SUBJECT =
  /\b(?:fig|figures?|tables?|we|our|us|you|your|diagram|shown|photo|image|experiment|student)\b/i;

export interface IFunction {
  /** The thing named as the subject ("ribosomes", "the Golgi apparatus" → "Golgi apparatus"). */
  name: string;
  /** Its concept of the chapter (kind, head, number), when the chapter names it as one. */
  concept: IConcept;
  /** The verb as stated ("synthesize", "is the site of"). */
  verb: string;
  /** What it acts on, cut before a second clause ("proteins"). */
  object: string;
  sentence: ISentence;
}

const stemsOf = (t: string) => new Set(contentWords(t).map(stem));

/**
 * A subject the chapter does not list as a concept but that reads as a name ("a uniporter",
 * "primase"): its head noun and number, no kind. Its options still need kin the text gives
 * (a list it shares, a head noun): `conceptDistractors`.
 */
function namedThing(name: string): IConcept | null {
  const words = name.toLowerCase().split(/\s+/);
  if (!isNounPhrase(name) || words.length > 3 || !/^\p{L}/u.test(name)) return null;
  const last = words[words.length - 1]!;
  const head = singular(last);
  return { name, genus: "", head, plural: head !== last && !/(?:ss|us|is)$/.test(last), source: "phrase" };
}

/**
 * The object of the function, up to a second clause: a list ("fatty acids, amino acids, and some
 * toxins") is kept whole, any other comma ends it; null when it starts a second predicate
 * ("filters and exchanges …").
 */
function objectOf(rest: string): string | null {
  let object = rest.split(OBJECT_END)[0]!.trim();
  if (/^(?:and|or|but|also|out)\b/i.test(object)) return null;
  const comma = object.indexOf(",");
  if (comma >= 0) {
    const tail = object.slice(comma);
    const list =
      /^(?:,\s*[\p{L}\p{N}'’-]+(?:\s+[\p{L}\p{N}'’-]+){0,3})*,?\s+(?:and|or)\s+[\p{L}\p{N}'’-]+(?:\s+[\p{L}\p{N}'’-]+){0,3}$/iu;
    if (!list.test(tail) || /\b(?:is|are|was|were|has|have)\b/i.test(tail)) object = object.slice(0, comma);
  }
  object = object.replace(/,$/, "").trim();
  // "require two different": the object stops before its noun.
  return object && nlp(object).terms().last().has("#Noun") ? object : null;
}

/** A concept of the chapter named exactly as the sentence's subject. */
function conceptNamed(concepts: readonly IConcept[], name: string): IConcept | null {
  const k = termKey(name);
  return concepts.find((c) => termKey(c.name) === k) ?? null;
}

/**
 * The stated function of a sentence, or null. The sentence must stand alone (no pointer back, no
 * pronoun, no hedge) and open with a concept the chapter names, followed by a function verb.
 */
export function readFunction(s: ISentence, concepts: readonly IConcept[]): IFunction | null {
  if (!s.standalone || s.sideBox) return null;
  const text = stripEnd(s.text);
  const words = text.split(/\s+/).length;
  if (words < 4 || words > 30) return null;
  if (OFF_SUBJECT.test(text) || ABOUT_NAMES.test(text) || LEANS_ON_CONTEXT.test(text)) return null;
  if (
    /\b(?:not|no|never|cannot|may|might|can|could|must|should|often|usually|sometimes|generally|only)\b|n't|[=%?!+]/i.test(
      text,
    )
  )
    return null;
  // The pattern first: the fragment test tags the sentence, and most sentences state no function.
  const m = FUNCTION_SENTENCE.exec(text);
  if (!m) return null;
  if (SWEEPING.test(text) || fragmentReason(text) !== null) return null;
  const [, rawName, verb, rest] = m as unknown as [string, string, string, string];
  // "Some cells secrete …": a claim about part of a kind; "Once a ligand binds …", "Fungi that
  // feed on …": a clause, not a subject.
  if (
    /\b(?:some|many|most|few|several|certain|other|once|when|if|as|because|although|while|after|before|that|which|who|whose|where)\b/i.test(
      rawName,
    )
  )
    return null;
  if (!isNounPhrase(rawName) || /\b(?:and|or|to|of|in|for|with|by)$|\band\b/i.test(rawName)) return null;
  if (/^(?:of|to|for|with|by|from|in|on|at|about)\b/i.test(rest)) return null;
  const concept = conceptNamed(concepts, rawName) ?? namedThing(rawName);
  if (!concept) return null;
  // The verb is read as a verb in its sentence ("Active transport of …", "the excessive use of …"
  // name a process), and the name ends in a noun.
  // The verb word is no noun ("the simian line includes …": "line" is the name's head).
  if (/^(?:is|are|was|were|has|have|includes?|contains?|consists?)\b/i.test(rest)) return null;
  const object = objectOf(rest);
  if (!object) return null;
  if (contentWords(object).length < 2 || object.split(/\s+/).length > 18) return null;
  if (VAGUE_OBJECT.test(object) || PRONOUN.test(object)) return null;
  // A specific object: it names something the chapter names ("somites and the notochord", "the
  // hormone inhibin"), not a vague one ("metabolic functions", "various ecological niches").
  const objectStems = stemsOf(object);
  const specific = concepts.some((c) => {
    const cs = stemsOf(c.name);
    return (
      c.source !== "heading" &&
      cs.size > 0 &&
      [...cs].every((w) => objectStems.has(w)) &&
      !sameConcept(c.name, rawName)
    );
  });
  if (!specific) return null;
  // The object names the subject again ("the nucleus … of the nucleus"): the key is in the stem.
  const own = stemsOf(rawName);
  if ([...stemsOf(object)].some((w) => own.has(w))) return null;
  return { name: rawName, concept, verb, object, sentence: s };
}

/**
 * The chapter states that `option` does what the stem asks too ("Chloroplasts also produce
 * ATP"): a sentence naming the option with the verb and most of the object's content.
 */
export function statedOf(
  sentences: readonly ISentence[],
  option: string,
  f: Pick<IFunction, "verb" | "object">,
): boolean {
  const name = new RegExp(`\\b${escapeRegExp(option.slice(0, Math.max(4, option.length - 2)))}`, "i");
  const group = groupOf(f.verb);
  const object = stemsOf(f.object);
  if (object.size === 0) return false;
  return sentences.some((s) => {
    if (!name.test(s.text)) return false;
    const said = stemsOf(s.text);
    let hit = 0;
    for (const w of object) if (said.has(w)) hit++;
    const share = hit / object.size;
    // The same object, or a verb of the same kind on any part of it.
    return share >= 0.5 || (hit > 0 && group.test(s.text));
  });
}

/** The name as an option: lower case unless an acronym or a name ("ATP", "Golgi apparatus"). */
const asOption = (name: string) => lower(name.replace(/^(?:the|an?)\s+/i, ""));

/**
 * WordNet kinds too broad to make two names the same kind of thing ("organ" for a kidney and an
 * organelle, "agent", "compound", "process", "device").
 */
const BROAD_KIND = new Set(
  [
    "organ|agent|compound|chemical compound|organic compound|process|organic process|biological process",
    "device|unit|metric linear unit|secretion|internal secretion|endocrine|macromolecule|supermolecule",
    "fluid|liquid|conflict|group action|growth|matter|substance|material|object|whole|entity|abstraction",
    "attribute|property|quantity|measure|act|activity|event|state|condition|relation|communication",
    "cognition|artifact|artefact|instrumentality|person|organism|living thing|being|causal agent",
  ].flatMap((l) => l.split("|")),
);

/** Two names with one head noun, one of them more than a word ("follicle cells" / "muscle cells"). */
const sameHead = (a: string, b: string) => {
  const ha = singular(a.toLowerCase().split(/\s+/).pop() ?? "");
  const hb = singular(b.toLowerCase().split(/\s+/).pop() ?? "");
  // "cell" is loose as a genus, but "follicle cells" / "muscle cells" are two kinds of cell.
  return ha === hb && ha.length > 2 && (/\s/.test(a) || /\s/.test(b)) && (ha === "cell" || !LOOSE.has(ha));
};

/** A kind WordNet gives both names that says what they are ("hormone", "organelle", "meter"). */
function sharedKind(a: string, b: string): boolean {
  const ka = wordNetKinds(a);
  if (ka.size === 0) return false;
  for (const k of wordNetKinds(b)) if (ka.has(k) && !BROAD_KIND.has(k) && !LOOSE.has(k)) return true;
  return false;
}

const subjectsCache = new WeakMap<object, string[]>();
/** Names the chapter states a function of (the subjects of its function sentences). */
function functionSubjects(env: IFormEnv): string[] {
  let out = subjectsCache.get(env.kb);
  if (!out) {
    const names = new Map<string, string>();
    for (const s of [...env.kb.sentences, ...env.kb.scopeSentences]) {
      // Cheap first: a function verb in the sentence at all.
      if (!FUNCTION_SENTENCE.test(stripEnd(s.text))) continue;
      const f = readFunction(s, env.kb.concepts);
      if (f) names.set(termKey(asOption(f.name)), asOption(f.name));
    }
    out = [...names.values()];
    subjectsCache.set(env.kb, out);
  }
  return out;
}

/**
 * Wrong options for a function question: things of the key's kind the chapter names — the
 * concept options (`conceptDistractors`: a list shared with the key, the same genus or head), then
 * other things the chapter states a function of that WordNet puts under the same specific kind
 * (prolactin, oxytocin, estrogen: hormones). Never one the chapter says does the same.
 */
function functionOptions(
  env: IFormEnv,
  f: IFunction,
  key: string,
  prompt: string,
  all: readonly ISentence[],
) {
  const fromConcepts = conceptDistractors(
    env,
    { name: key, genus: f.concept.genus, head: f.concept.head, plural: f.concept.plural },
    prompt,
    8,
    { atLeast: 0 },
  ).map((c) => ({ name: asOption(c.name), concept: c as IConcept | null }));
  const promptStems = stemsOf(prompt);
  const keyStems = stemsOf(key);
  const fromFunctions = functionSubjects(env)
    .filter((n) => {
      const ns = stemsOf(n);
      return (
        ns.size > 0 &&
        ![...ns].every((w) => promptStems.has(w)) &&
        ![...ns].every((w) => keyStems.has(w)) &&
        !sameConcept(n, key) &&
        sharedKind(key, n)
      );
    })
    .map((n) => ({ name: n, concept: null as IConcept | null }));
  const out: { name: string; concept: IConcept | null }[] = [];
  for (const o of [...fromConcepts, ...fromFunctions]) {
    // A name, not a clause read as one ("classification divides joints").
    if (!isNounPhrase(o.name) || nlp(o.name).has("#Verb")) continue;
    // Of the key's kind by its head noun ("ground / dermal tissue") or a specific WordNet kind
    // (endoderm, ectoderm: germ layers); a list shared with the key is not enough ("blood,
    // arterioles and systole"), and never the key's own kind ("germ layer" for the mesoderm).
    if (!sameHead(o.name, key) && !sharedKind(key, o.name)) continue;
    if (wordNetKinds(key).has(o.name.toLowerCase()) || wordNetKinds(key).has(singular(o.name.toLowerCase())))
      continue;
    if (
      sameConcept(o.name, key) ||
      out.some((x) => sameConcept(x.name, o.name) || termKey(x.name) === termKey(o.name))
    )
      continue;
    if (statedOf(all, o.name, f)) continue;
    out.push(o);
    if (out.length === 3) break;
  }
  return out;
}

function functionQuestion(env: IFormEnv, f: IFunction, all: readonly ISentence[]): TQuestion | null {
  const prompt = `Which of the following ${lower(f.verb)} ${f.object}?`;
  const key = asOption(f.name);
  const picked = functionOptions(env, f, key, prompt, all);
  if (picked.length < 3) {
    env.trace?.("function: < 3 things of the same kind not also stated to do it");
    return null;
  }
  return mcq(env, {
    prompt,
    key: { text: key },
    distractors: picked.map((o) => ({
      text: o.name,
      rationale: o.concept
        ? confusionRationale(env.kb, o.concept, key, f.concept.genus)
        : `Confuses ${key} with ${o.name}, a thing of the same kind the chapter describes, which the text does not say ${lower(f.verb)} ${clip(f.object, 80)}.`,
    })),
    explanation: `The text states: “${clip(stripEnd(f.sentence.text), 220)}.” The other options are things of the same kind the chapter names, which it does not say ${lower(f.verb)} ${clip(f.object, 80)}.`,
    sources: [{ chunkKey: f.sentence.chunkKey, quote: f.sentence.text }],
  });
}

const MAX_CANDIDATES = 16;
const functionsCache = new WeakMap<object, IFunction[]>();
/** The selection's stated functions, best-ranked passage first: read once per knowledge base. */
function functionsOf(kb: IFormEnv["kb"]): IFunction[] {
  let out = functionsCache.get(kb);
  if (!out) {
    out = kb.sentences
      .map((s) => readFunction(s, kb.concepts))
      .filter((f): f is IFunction => f !== null)
      .sort(
        (a, b) =>
          (kb.rank.get(a.sentence.chunkKey) ?? 99) - (kb.rank.get(b.sentence.chunkKey) ?? 99) ||
          a.sentence.position - b.sentence.position,
      );
    functionsCache.set(kb, out);
  }
  return out;
}

export const functionMcq: IForm = {
  id: "function-mcq",
  fits: (type, level) => type === "mcq" && level === "Remember",
  available: (kb) => functionsOf(kb).length,
  *build(env) {
    const { kb } = env;
    const found = functionsOf(kb).filter(
      (f) => !env.used.has(f.sentence.text) && !env.used.has(formUseKey("function-mcq", f.sentence.text)),
    );
    if (found.length === 0) {
      env.trace?.("function: no sentence stating what a named thing does");
      return;
    }
    const all = [...kb.sentences, ...kb.scopeSentences];
    let n = 0;
    for (const f of found) {
      if (n >= MAX_CANDIDATES) return;
      const q = functionQuestion(env, f, all);
      if (q) {
        n++;
        yield q;
      }
    }
  },
};
