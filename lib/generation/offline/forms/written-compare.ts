import type { ISentence, ITerm } from "@/lib/generation/offline/knowledge";
import { headOf, pluralOf, sameConcept, singular, termKey } from "@/lib/generation/offline/knowledge/lexicon";
import { needsContext } from "@/lib/generation/offline/knowledge/sentences";
import { contentWords, stem } from "@/lib/text/tokenize";
import {
  capital,
  clip,
  formUseKey,
  type IForm,
  type IFormEnv,
  keywords,
  kindClash,
  lower,
  NO_KIND,
  POSITION_ONLY,
  PRONOUN,
  stripEnd,
  written,
} from "./common";
import { LEANS_ON_CONTEXT } from "./recall";
import { subjectOf } from "./written-exception";

/**
 * "Compare A and B" (written Understand) from ordinary exposition: two sibling terms — named
 * together in one list of the passages, or both defined with the same genus — of one stated kind,
 * each with one thing the passages state of it. Round 10–11 readers rejected comparisons of
 * arbitrary pairs ("testes and labia majora"), of bare positions ("outermost layer") and schemes
 * with a hollow "states it as a contrast" mark, so:
 *
 * - the kind must be read from the text: a shared head noun ("kinetic / potential energy"), the
 *   list's own words ("three types of muscle tissue: …", "tissues such as …", "… are all
 *   conductors"), or the genus both definitions share;
 * - each side's feature is its own sentence (its definition, or a sentence it opens as subject)
 *   that does not name the other, and the two features say the same kind of thing (both
 *   definitions of the kind, or the same verb with a shared content word), so the difference is
 *   real and stated;
 * - every mark is a stated fact: A's feature, B's feature, and the kind they share (the
 *   similarity) read from the list or the definitions.
 *
 * Kinds too broad to make two things counterparts ("cells", "things", "a pair of …") are refused.
 */

export interface ISiblingSide {
  name: string;
  /** What the passages state of it, as a predicate ("is energy of motion"). */
  feature: string;
  sentence: ISentence;
  /** The feature is its definition ("is a …"), not any sentence about it. */
  defined: boolean;
}

export interface ISiblingPair {
  a: ISiblingSide;
  b: ISiblingSide;
  /** The kind both are, plural ("types of muscle tissue", "conductors"). */
  kind: string;
  /** Where the kind is stated (the list sentence, or a definition); undefined for a shared head noun. */
  kindSentence?: ISentence;
}

/** Kinds that make no counterparts ("both are cells", "both are things"). */
const BROAD =
  /^(?:cell|thing|part|type|kind|form|way|process|structure|molecule|factor|group|organism|animal|plant|system|region|area|side|end|layer|stage|step|example|substance|material|object|body|quantity|property|feature|unit|term|word|name|method|feature|event|change|one|other|member|component|element|item)s?$/i;

/** Whole-word, case-insensitive place of a name in a text (−1 when absent). */
export function indexOfName(text: string, name: string): number {
  return indexOfLower(text.toLowerCase(), name.toLowerCase());
}

/** `indexOfName` on texts already lower-cased (long texts are lower-cased once, not per name). */
function indexOfLower(t: string, n: string): number {
  let at = t.indexOf(n);
  while (at >= 0) {
    const before = t.charAt(at - 1) || " ";
    const after = t.charAt(at + n.length) || " ";
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after.replace(/s$/, " "))) return at;
    at = t.indexOf(n, at + 1);
  }
  return -1;
}

/** Words that open a kind phrase without being its kind ("some methods", "the main types"). */
const KIND_FILLER =
  /^(?:the|a|an|some|all|both|two|three|four|five|several|many|main|major|common|other|different|these|of|numerous|important|known)$/i;

/** Modifiers that do not narrow a broad head into a kind ("small molecules", "key structures"). */
const VAGUE_MODIFIER =
  /^(?:small|large|big|simple|complex|basic|key|new|same|similar|first|second|last|final|various|specific|certain|particular|general|special|useful|living|whole|single|individual|separate|distinct|additional|further|such|own|entire|total|overall|natural|normal|typical|primary|secondary)$/i;

/**
 * A broad head narrowed by a content modifier is a kind the text names: "heat transfer methods"
 * (conduction, convection, radiation), "temperature scales", "connective tissues". "Small
 * molecules" or "key structures" are not.
 */
const namedBroad = (words: readonly string[]) =>
  words.length >= 2 &&
  words.slice(0, -1).every((w) => /^\p{L}[\p{L}-]*$/u.test(w) && !VAGUE_MODIFIER.test(w));

/** A noun phrase read as a kind: fillers dropped, a plural head that is not a broad word. */
function asKind(phrase: string, qualified = false): string | null {
  const words = phrase.trim().split(/\s+/);
  while (words.length > 0 && KIND_FILLER.test(words[0]!)) words.shift();
  const head = words[words.length - 1] ?? "";
  if (words.length === 0 || words.length > 4 || !/\p{Ll}s$/u.test(head) || /(?:ss|us|is)$/.test(head))
    return null;
  if (
    (!qualified && BROAD.test(head) && !namedBroad(words)) ||
    NO_KIND.test(head) ||
    words.some((w) =>
      /^(?:is|are|was|were|be|been|not|which|that|called|named|into|in|by|out|to|as|from|with|on|at|for|and|or)$/i.test(
        w,
      ),
    )
  )
    return null;
  return words.join(" ").toLowerCase();
}

/**
 * The kind a list sentence names for its members, read next to the list: "There are three
 * types of muscle tissue: skeletal, …" → "types of muscle tissue"; "common disaccharides include
 * lactose, maltose, …" → "disaccharides"; "Glucose, galactose, and fructose are common
 * monosaccharides" → "monosaccharides"; "Grafting, layering, and micropropagation are some
 * methods used for artificial asexual reproduction" → "methods used for artificial asexual
 * reproduction". Null when the sentence names none.
 */
export function listKind(text: string, a: string, b: string): string | null {
  const t = text.replace(/\s*\([^)]*\)/g, "");
  const ia = indexOfName(t, a);
  const ib = indexOfName(t, b);
  if (ia < 0 || ib < 0) return null;
  const before = t.slice(0, Math.min(ia, ib));
  // The list's end and its "are …" sit close behind the later member.
  const after = t.slice(Math.max(ia + a.length, ib + b.length)).slice(0, 300);
  // "… types of muscle tissue: " / "two kinds of energy, " / "forms of energy are "
  const typed =
    /\b(types?|kinds?|forms?|classes|class|categories|category)\s+of\s+((?:[\p{L}-]+\s+){0,2}[\p{L}-]+)\s*(?::|—|,|\s(?:are|include|includes|called))\s*(?:the\s+)?$/iu.exec(
      before,
    );
  if (typed && !/^(?:the|a|an|this|these|it)$/i.test(typed[2]!))
    return `${typed[1]!
      .toLowerCase()
      .replace(/^(type|kind|form|category|class)$/, "$1s")
      .replace(/^categorys$/, "categories")
      .replace(/^classs$/, "classes")} of ${typed[2]!.toLowerCase()}`;
  // "… tissues such as ", "… conductors, including ", "… disaccharides include ", "… three tissues: "
  const named =
    /((?:[\p{L}-]+\s+){0,3}[\p{L}-]+)\s*(?:,\s*)?(?:such as|including|include|namely|:)\s*(?:the\s+)?$/iu.exec(
      before,
    );
  if (named) {
    const k = asKind(named[1]!);
    if (k) return k;
  }
  // "A, B, and C are (some / common) K [used for …]": the members end the list, "are" follows.
  // One word per step (members of several words are several steps): nested word groups made
  // the match backtrack exponentially on long sentences.
  const trailing =
    /^(?:(?:,\s*|\s+)(?:and\s+|or\s+)?[\p{L}-]+)*?\s*,?\s+(?:are|were)\s+((?:[\p{L}-]+\s+){0,3}?[\p{L}-]+s)\b((?:\s+(?:used|found|involved))?\s+(?:for|of|in)\s+[\p{L} -]{3,50})?\s*[.,;]/u.exec(
      after,
    );
  if (trailing) {
    const k = asKind(trailing[1]!, !!trailing[2]);
    if (k) return `${k}${trailing[2] ? trailing[2].toLowerCase().replace(/\s+/g, " ").trimEnd() : ""}`;
  }
  return null;
}

/**
 * The words two definitions of one genus share up to it ("plant hormones that promote …" twice →
 * "plant hormones"; "a six-carbon sugar …" twice → "six-carbon sugars"), plural; the bare genus
 * when they differ before it.
 */
export function genusPhrase(
  a: Pick<ITerm, "definition" | "genus">,
  b: Pick<ITerm, "definition" | "genus">,
): string {
  const words = (d: string) => d.replace(/^(?:an?|the)\s+/i, "").split(/\s+/);
  const wa = words(a.definition);
  const wb = words(b.definition);
  const at = wa.findIndex((w) => singular(w.replace(/[^\p{L}-]/gu, "")) === a.genus);
  if (
    at >= 0 &&
    at < 4 &&
    wa
      .slice(0, at + 1)
      .join(" ")
      .toLowerCase() ===
      wb
        .slice(0, at + 1)
        .join(" ")
        .toLowerCase()
  ) {
    const phrase = wa.slice(0, at + 1).map((w) => w.replace(/[^\p{L}-]/gu, ""));
    phrase[at] = pluralOf(singular(phrase[at]!));
    return phrase.join(" ").toLowerCase();
  }
  return pluralOf(a.genus);
}

/** A shared head noun that is a kind ("kinetic energy" / "potential energy" → "kinds of energy"). */
function headKind(a: string, b: string): string | null {
  const ha = headOf(a);
  const hb = headOf(b);
  if (!ha || ha !== hb || ha.length < 3 || BROAD.test(ha) || NO_KIND.test(ha)) return null;
  // The head must not be the whole of either name ("energy" and "kinetic energy" are not siblings).
  if (termKey(a) === termKey(ha) || termKey(b) === termKey(hb)) return null;
  if (/\bof\b/i.test(a) || /\bof\b/i.test(b)) return null;
  return `kinds of ${ha}`;
}

/** A sentence the reader can take on its own, from the lesson's own text. */
const usable = (s: ISentence) =>
  s.standalone &&
  !s.sideBox &&
  !LEANS_ON_CONTEXT.test(s.text) &&
  !needsContext(s.text) &&
  s.text.split(/\s+/).length <= 40;

/** A definition that is a noun phrase with no second clause ("a biomarker; whereas, …" is not one). */
const definedAsThing = (definition: string) =>
  !/^(?:\p{L}+ing|been|not)\b/iu.test(definition) && !/\b(?:whereas|while|unlike)\b|;/i.test(definition);

/** What the passages state of one name: its definition, else a sentence it opens as subject. */
function sideOf(env: Pick<IFormEnv, "kb" | "used">, name: string, other: string): ISiblingSide | null {
  const term = env.kb.terms.find(
    (t: ITerm) => sameConcept(t.term, name) && termKey(t.term) === termKey(name),
  );
  if (term && indexOfName(term.definition, other) < 0 && !PRONOUN.test(term.definition)) {
    const s = env.kb.sentences.find((x) => x.text === term.sentence);
    if (s && usable(s) && !env.used.has(s.text))
      return {
        name,
        feature: `${term.plural ? "are" : "is"} ${stripEnd(term.definition)}`,
        sentence: s,
        defined: true,
      };
  }
  const n = name.toLowerCase();
  for (const s of env.kb.sentences) {
    if (!usable(s) || env.used.has(s.text)) continue;
    const t = s.text.toLowerCase();
    const lead = t.startsWith(`the ${n} `)
      ? 4
      : t.startsWith(`${n} `)
        ? 0
        : t.startsWith(`an ${n} `)
          ? 3
          : t.startsWith(`a ${n} `)
            ? 2
            : -1;
    if (lead < 0) continue;
    let predicate = stripEnd(s.text.slice(lead + n.length).trim()).replace(/\s*\([^)]*\)/g, "");
    // "Kinetic energy, the energy of motion, is …": drop a leading aside.
    predicate = predicate.replace(/^,[^,]{1,60},\s*/, "");
    if (!/^\p{Ll}/u.test(predicate)) continue;
    const words = predicate.split(/\s+/);
    if (words.length < 4 || words.length > 30) continue;
    if (PRONOUN.test(predicate) || indexOfName(predicate, other) >= 0) continue;
    // The subject must be the name, not "the X of …" / "X and Y" / "X renewal".
    if (/^(?:of|and|or|in|on|at|to|for|with|from|,)\b/i.test(predicate)) continue;
    if (!namesSubject(s.text, name)) continue;
    return { name, feature: predicate, sentence: s, defined: false };
  }
  return null;
}

const verbOf = (feature: string) =>
  (feature.split(/\s+/)[0] ?? "")
    .toLowerCase()
    .replace(/^(?:are|were|was)$/, "is")
    .replace(/^have$/, "has");

/**
 * Two features say the same kind of thing: both definitions, or the same verb with a content word
 * in common ("has a thick wall" / "has a thin wall"). "is found in the heart" and "contracts
 * voluntarily" tell nothing apart.
 */
export function comparable(a: ISiblingSide, b: ISiblingSide): boolean {
  if (a.defined && b.defined) return true;
  if (verbOf(a.feature) !== verbOf(b.feature)) return false;
  const sb = new Set(contentWords(b.feature.split(/\s+/).slice(1).join(" ")).map(stem));
  const sa = contentWords(a.feature.split(/\s+/).slice(1).join(" ")).map(stem);
  const own = new Set([...contentWords(a.name), ...contentWords(b.name)].map(stem));
  return sa.some((w) => sb.has(w) && !own.has(w));
}

/** Sibling pairs of the selection, each with its stated kind and one stated feature per side. */
export function siblingPairs(env: Pick<IFormEnv, "kb" | "used" | "trace">): ISiblingPair[] {
  const out: ISiblingPair[] = [];
  const seen = new Set<string>();
  const names = new Map<string, string>();
  for (const c of [...env.kb.concepts].sort(
    (x, y) => Number(x.source === "heading") - Number(y.source === "heading"),
  ))
    if (!names.has(termKey(c.name))) names.set(termKey(c.name), c.name);
  for (const t of env.kb.terms) if (!names.has(termKey(t.term))) names.set(termKey(t.term), t.term);
  const candidates: { a: string; b: string; listed: boolean; head?: boolean }[] = [];
  for (const [key, sibs] of env.kb.links.siblings)
    for (const other of sibs) {
      const a = names.get(key);
      const b = names.get(other);
      if (a && b && key < other) candidates.push({ a, b, listed: true });
    }
  // Defined terms of one genus ("a … tissue that …" twice) are siblings without a list.
  const terms = env.kb.terms;
  for (let i = 0; i < terms.length; i++)
    for (let j = i + 1; j < terms.length; j++) {
      const x = terms[i]!;
      const y = terms[j]!;
      if (
        x.genus &&
        x.genus === y.genus &&
        !NO_KIND.test(x.genus) &&
        !BROAD.test(x.genus) &&
        definedAsThing(x.definition) &&
        definedAsThing(y.definition)
      )
        candidates.push({ a: x.term, b: y.term, listed: false });
    }
  // Named things of one head with different modifiers ("kinetic / static friction", "transverse /
  // longitudinal waves"), each opening a lesson sentence of the selection: siblings by their
  // names, kept below only with a stated feature each, of one kind, and neither a part or a stage
  // of the other.
  for (const [a, b] of headPairs(env, [...names.values()]))
    candidates.push({ a, b, listed: false, head: true });
  // First mention in the passages first ("glucose and fructose", as the list reads).
  const text = env.kb.sentences
    .map((x) => x.text)
    .join(" ")
    .toLowerCase();
  const places = new Map<string, number>();
  const at = (n: string) => {
    let i = places.get(n);
    if (i === undefined) {
      i = indexOfLower(text, n.toLowerCase());
      if (i < 0) i = Number.MAX_SAFE_INTEGER;
      places.set(n, i);
    }
    return i;
  };
  for (const c of candidates) {
    const { listed } = c;
    const id = [termKey(c.a), termKey(c.b)].sort().join("|");
    if (seen.has(id)) continue;
    seen.add(id);
    const [a, b] = at(c.a) <= at(c.b) ? [c.a, c.b] : [c.b, c.a];
    if (sameConcept(a, b) || POSITION_ONLY.test(a) || POSITION_ONLY.test(b)) continue;
    if (env.kb.links.aliases.get(termKey(a))?.has(termKey(b))) continue;
    if (
      env.kb.links.broader.get(termKey(a))?.has(termKey(b)) ||
      env.kb.links.broader.get(termKey(b))?.has(termKey(a))
    )
      continue;
    if (PRONOUN.test(`${a} ${b}`) || /\d/.test(`${a}${b}`)) continue;
    // The kind: the list sentence's own words, a shared head noun, or the genus both definitions share.
    let kind: string | null = null;
    let kindSentence: ISentence | undefined;
    if (listed) {
      for (const s of env.kb.sentences) {
        if (indexOfName(s.text, a) < 0 || indexOfName(s.text, b) < 0) continue;
        const k = listKind(s.text, a, b);
        if (k) {
          kind = k;
          kindSentence = s;
          break;
        }
      }
    }
    if (!kind && !listed) {
      const ta = env.kb.terms.find((t) => t.term === a);
      const tb = env.kb.terms.find((t) => t.term === b);
      if (ta && tb && ta.genus && ta.genus === tb.genus) kind = genusPhrase(ta, tb);
    }
    if (!kind) kind = headKind(a, b);
    if (!kind) {
      env.trace?.(`compare: the passages name no kind the two share (list words, head noun or genus)`);
      continue;
    }
    const sa = sideOf(env, a, b);
    const sb = sideOf(env, b, a);
    if (!sa || !sb) {
      env.trace?.(`compare: < 2 of the pair with a stated feature of their own`);
      continue;
    }
    if (c.head && partOrStage({ subject: a, predicate: sa.feature }, { subject: b, predicate: sb.feature })) {
      env.trace?.(
        "compare: one is a part or a stage of the other (“human / axial skeleton”, “semi-solid / solid waste”)",
      );
      continue;
    }
    if (sa.sentence.text === sb.sentence.text) {
      env.trace?.("compare: both features in one sentence (a copy, not a comparison)");
      continue;
    }
    if (!comparable(sa, sb)) {
      env.trace?.("compare: the two stated features are not of one kind (nothing to set side by side)");
      continue;
    }
    out.push({ a: sa, b: sb, kind, kindSentence });
  }
  for (const p of parallelPairs(env)) {
    const id = [termKey(p.a.name), termKey(p.b.name)].sort().join("|");
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(p);
  }
  return out;
}

/**
 * Names of one head noun with different modifiers ("kinetic friction" / "static friction"), each
 * the subject of a lesson sentence of the selection; not one name inside the other ("net force" /
 * "net external force"), at most three words each.
 */
export function headPairs(env: Pick<IFormEnv, "kb" | "used">, names: readonly string[]): [string, string][] {
  const openers = env.kb.sentences
    .filter((s) => usable(s) && !env.used.has(s.text))
    .map((s) => s.text.toLowerCase().replace(/^(?:the|an?)\s+/, ""));
  const byHead = new Map<string, string[]>();
  for (const name of names) {
    const words = name.toLowerCase().split(/\s+/);
    if (words.length < 2 || words.length > 3 || !/^[\p{L}\s-]+$/u.test(name)) continue;
    // A heading's title case ("Thyroid Gland") is no name for a question: the parallel-sentence
    // reading names it as the text does ("the thyroid gland").
    if (/\s\p{Lu}/u.test(name)) continue;
    const n = `${name.toLowerCase()} `;
    if (!openers.some((t) => t.startsWith(n))) continue;
    const h = headOf(name);
    if (termKey(h) !== termKey(words[words.length - 1]!)) continue;
    const group = byHead.get(h) ?? [];
    group.push(name);
    byHead.set(h, group);
  }
  const out: [string, string][] = [];
  for (const group of byHead.values())
    for (let i = 0; i < group.length; i++)
      for (let j = i + 1; j < group.length; j++) {
        const a = group[i]!;
        const b = group[j]!;
        if (!nested(a, b) && headKind(a, b)) out.push([a, b]);
      }
  return out;
}

/** A sentence's subject and predicate, the subject a short noun phrase ("Cardiac muscle" | "is found …"). */
function split(text: string): { subject: string; predicate: string; the: boolean } | null {
  const t = stripEnd(text).replace(/\s*\([^)]*\)/g, "");
  const subject = subjectOf(t);
  const words = subject.split(/\s+/);
  if (words.length < 2 || words.length > 4 || !/^[\p{L}\s-]+$/u.test(subject) || PRONOUN.test(subject))
    return null;
  if (
    /^(?:in|on|at|for|when|if|as|after|before|during|because|although|while|unlike|like|both|each|all|most|many|some|one|two|other|another|such|every|no)$/i.test(
      words[0]!,
    )
  )
    return null;
  const predicate = t.slice(subject.length).trim();
  if (!/^\p{Ll}/u.test(predicate)) return null;
  const n = predicate.split(/\s+/).length;
  if (n < 4 || n > 28 || PRONOUN.test(predicate)) return null;
  // "The thyroid gland is …": the name keeps its article in the question ("the thyroid gland").
  const the = /^the\s/i.test(subject);
  return { subject: subject.replace(/^(?:the|a|an)\s+/i, ""), predicate, the };
}

/**
 * Counterparts the passages describe in parallel sentences of one passage, a few sentences apart:
 * subjects of one head noun with different modifiers, predicates of one verb with a content word
 * in common ("Skeletal muscle is attached to bones …" / "Smooth muscle is found in the walls of
 * hollow organs …"). The kind is the shared head ("kinds of muscle").
 */
function parallelPairs(env: Pick<IFormEnv, "kb" | "used" | "trace">): ISiblingPair[] {
  const out: ISiblingPair[] = [];
  const ss = env.kb.sentences.filter((s) => usable(s) && !env.used.has(s.text));
  const parts = ss.map((s) => split(s.text));
  // Near pairs first (one passage, ≤ 4 sentences apart), then subjects of one head anywhere in the
  // selection ("Kinetic friction acts on …" in one passage, "Static friction acts on …" three
  // passages on): the selection is one section, and the features must still be of one kind.
  const heads = parts.map((p) => (p ? headOf(p.subject) : ""));
  const near: [number, number][] = [];
  const far: [number, number][] = [];
  for (let i = 0; i < ss.length; i++)
    for (let j = i + 1; j < ss.length; j++) {
      if (!heads[i] || heads[i] !== heads[j]) continue;
      (ss[i]!.chunkKey === ss[j]!.chunkKey && j < i + 5 ? near : far).push([i, j]);
    }
  for (const [i, j] of [...near, ...far]) {
    const x = parts[i];
    const y = parts[j];
    if (!x || !y) continue;
    if (sameConcept(x.subject, y.subject) || nested(x.subject, y.subject)) continue;
    if (POSITION_ONLY.test(x.subject) || POSITION_ONLY.test(y.subject)) continue;
    // "the simplest collision", "the most common form": a superlative picks one case, not a kind.
    if (SUPERLATIVE.test(x.subject) || SUPERLATIVE.test(y.subject)) continue;
    const kind = headKind(x.subject, y.subject);
    if (!kind) continue;
    if (indexOfName(x.predicate, y.subject) >= 0 || indexOfName(y.predicate, x.subject) >= 0) continue;
    if (partOrStage(x, y)) {
      env.trace?.(
        "compare: one is a part or a stage of the other (“human / axial skeleton”, “semi-solid / solid waste”)",
      );
      continue;
    }
    const a: ISiblingSide = {
      name: `${x.the ? "the " : ""}${inner(x.subject)}`,
      feature: x.predicate,
      sentence: ss[i]!,
      defined: false,
    };
    const b: ISiblingSide = {
      name: `${y.the ? "the " : ""}${inner(y.subject)}`,
      feature: y.predicate,
      sentence: ss[j]!,
      defined: false,
    };
    if (!comparable(a, b)) {
      env.trace?.("compare: parallel sentences whose features are not of one kind");
      continue;
    }
    out.push({ a, b, kind });
  }
  return out;
}

const SUPERLATIVE =
  /\b(?:most|least|best|worst|simplest|largest|smallest|greatest|highest|lowest|\p{L}+iest)\b/iu;

/**
 * The sentence's subject is the name itself (with an article or a leading aside at most): "Bone
 * renewal continues after birth" is about renewal, not bone. True when the tagger finds no verb.
 */
export function namesSubject(text: string, name: string): boolean {
  let subject = subjects.get(text);
  if (subject === undefined) {
    subject = subjectOf(stripEnd(text).replace(/\s*\([^)]*\)/g, ""))
      .replace(/,[^,]*,?$/, "")
      .replace(/^(?:the|an?)\s+/i, "")
      .trim();
    if (subjects.size > 5_000) subjects.clear();
    subjects.set(text, subject);
  }
  return !subject || termKey(subject) === termKey(name);
}
/** Subjects by sentence text: the tagger is slow and one sentence is tried for many names. */
const subjects = new Map<string, string>();

/** One name's words all inside the other's ("net force" / "net external force"): one is narrower. */
function nested(a: string, b: string): boolean {
  const wa = a.toLowerCase().split(/\s+/);
  const wb = b.toLowerCase().split(/\s+/);
  return wa.every((w) => wb.includes(w)) || wb.every((w) => wa.includes(w));
}

/**
 * Not counterparts: one names a part of the other ("the human skeleton is composed of the axial
 * and appendicular skeleton"), or one modifier holds the other ("semi-solid / solid waste": one
 * thing at two stages).
 */
function partOrStage(
  x: { subject: string; predicate: string },
  y: { subject: string; predicate: string },
): boolean {
  const mods = (s: string) => s.toLowerCase().split(/\s+/).slice(0, -1);
  const mx = mods(x.subject);
  const my = mods(y.subject);
  if (mx.some((w) => indexOfName(y.predicate, w) >= 0) || my.some((w) => indexOfName(x.predicate, w) >= 0))
    return true;
  // "striated / unstriated", "polar / non-polar", "aerobic / anaerobic" are opposites, not stages.
  const opposite = (a: string, b: string) => new RegExp(`^(?:un|non-?|in|im|an?)${b}$`).test(a);
  return mx.some((a) =>
    my.some((b) => a !== b && ((a.includes(b) && !opposite(a, b)) || (b.includes(a) && !opposite(b, a)))),
  );
}

/** A name inside a sentence: lower-cased unless it starts with an acronym or a proper name. */
const inner = (name: string) => lower(name);

/** "Both are types of muscle tissue" from the kind, with a singular head when the kind is one thing. */
const bothAre = (kind: string) => `Both are ${kind}`;

const cached = new WeakMap<object, ISiblingPair[]>();
/** The pairs before anything is used, once per knowledge base (the planner's cheap count). */
const pairsOf = (kb: IFormEnv["kb"]) => {
  let hit = cached.get(kb);
  if (!hit) {
    hit = siblingPairs({ kb, used: new Set() });
    cached.set(kb, hit);
  }
  return hit;
};

/** Understand, written: compare two sibling terms, one stated feature each, and the kind they share. */
export const compareSiblings: IForm = {
  id: "compare-siblings",
  fits: (type, level) => type !== "mcq" && level === "Understand",
  available: (kb) => pairsOf(kb).length,
  *build(env) {
    const pairs = siblingPairs(env);
    for (const p of pairs) {
      const { a, b } = p;
      if (env.used.has(formUseKey("compare-siblings", a.sentence.text))) continue;
      const long = env.slot.type === "long";
      if (long) {
        env.trace?.("compare: long answers need more than one stated feature a side");
        continue;
      }
      // "Both are expression of operons" for repressors and activators: a kind WordNet files apart
      // from both names (a process for two substances) is no kind of theirs.
      const kindHead = p.kind
        .replace(/^(?:types?|kinds?|forms?|sorts?|classes?)\s+of\s+/i, "")
        .split(/\s+of\s+/)[0]!;
      const bare = (n: string) => n.replace(/^the\s+/i, "");
      if (
        kindClash({ name: kindHead }, { name: bare(a.name) }) &&
        kindClash({ name: kindHead }, { name: bare(b.name) })
      ) {
        env.trace?.("compare: the shared kind is of another sort than both names");
        continue;
      }
      const points = [
        { point: `${capital(a.name)} ${clip(a.feature, 130)}` },
        { point: `${capital(b.name)} ${clip(b.feature, 130)}` },
        { point: `Similarity: ${lower(bothAre(p.kind))}` },
      ];
      const q = written(env, {
        prompt: `Compare ${a.name} and ${b.name}: state one thing they have in common and one way in which they differ.`,
        answer: `${bothAre(p.kind)}. ${capital(a.name)} ${a.feature}, whereas ${b.name} ${b.feature}.`,
        points,
        keywords: [a.name, b.name, ...keywords([a.feature, b.feature], 4)],
        sources: [
          { chunkKey: a.sentence.chunkKey, quote: a.sentence.text },
          { chunkKey: b.sentence.chunkKey, quote: b.sentence.text },
          ...(p.kindSentence &&
          p.kindSentence.text !== a.sentence.text &&
          p.kindSentence.text !== b.sentence.text
            ? [{ chunkKey: p.kindSentence.chunkKey, quote: p.kindSentence.text }]
            : []),
        ],
      });
      if (q) yield q;
    }
  },
};
