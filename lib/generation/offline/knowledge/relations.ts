import nlp from "compromise";
import { isNounPhrase } from "@/lib/text/phrases";
import { escapeRegExp } from "@/lib/text/regex";
import { contentWords } from "@/lib/text/tokenize";
import { ANAPHORA, type ISentence, isStandalone } from "./sentences";

/**
 * Relationships the passages state between quantities and events:
 *  - monotonic: "as the density of a solvent increases, the diffusion rate decreases" (x ↑ → y ↓);
 *  - causal: "phospholipids form a bilayer because their tails are hydrophobic" (cause → effect).
 * A relationship is what Apply (predict a change), Analyze (assertion–reason, cause and effect),
 * Evaluate (a reversed relationship as a misconception) and Create (an investigation that varies x
 * and measures y) questions are made of.
 */
export interface IMonotonic {
  kind: "monotonic";
  /** The quantity that changes first ("the density of a solvent"). */
  x: string;
  /** The quantity that follows ("the diffusion rate"). */
  y: string;
  /** +1: y rises with x; −1: y falls as x rises. */
  sign: 1 | -1;
  /** Stated as "(directly / inversely) proportional to": doubling x doubles (or halves) y. */
  proportional?: boolean;
  sentence: string;
  chunkKey: string;
}

/**
 * A stated dependence without a direction: "kinetic energy depends on the mass of an object and
 * its velocity" (y on each x). Enough for a fair test (vary one x, keep the others the same).
 */
export interface IDependence {
  kind: "dependence";
  y: string;
  xs: string[];
  sentence: string;
  chunkKey: string;
}

export interface ICausal {
  kind: "causal";
  cause: string;
  effect: string;
  sentence: string;
  chunkKey: string;
  /**
   * Cause and effect stated in two sentences ("S1. Therefore, S2."), not two halves of one
   * "because" sentence: relating them is analysis, while recognising a "because" is understanding.
   */
  across: boolean;
}

const UP =
  "increases?|increased|increasing|rises?|rising|goes up|grows?|growing|climbs?|gets? (?:larger|bigger|higher|greater)";
const DOWN =
  "decreases?|decreased|decreasing|falls?|falling|drops?|dropping|declines?|declining|goes down|shrinks?|gets? (?:smaller|lower|less)|is reduced|diminishes";
const MORE =
  "higher|greater|larger|bigger|more|faster|stronger|longer|warmer|hotter|heavier|wider|deeper|thicker";
const LESS =
  "lower|smaller|less|fewer|slower|weaker|shorter|cooler|colder|lighter|narrower|shallower|thinner";

const direction = (word: string): 1 | -1 =>
  new RegExp(`^(?:${UP}|${MORE})$`, "i").test(word.trim()) ? 1 : -1;

const NP = String.raw`((?:the |a |an )?[\p{L}][\p{L}\p{N}'’ -]{2,60}?)`;

const AS_X_Y = new RegExp(
  String.raw`^(?:as|when|if|whenever) ${NP} (${UP}|${DOWN})(?: in ([\p{L}-]+))?(?: [^,]{0,30})?, ${NP} (?:also |then |will |tends? to |generally |usually )?(${UP}|${DOWN})\b`,
  "iu",
);
const Y_AS_X = new RegExp(String.raw`^${NP} (${UP}|${DOWN}) (?:as|when) ${NP} (${UP}|${DOWN})\b`, "iu");
const THE_MORE = new RegExp(
  String.raw`^the (${MORE}|${LESS}) ((?:the )?[\p{L}][\p{L}\p{N}'’ -]{2,50}?),? the (${MORE}|${LESS}) ((?:the )?[\p{L}][\p{L}\p{N}'’ -]{2,50}?)(?:[,.;]|$)`,
  "iu",
);
const X_CHANGES_Y = new RegExp(
  String.raw`^(?:having |an? )?${NP} (increases?|raises?|boosts?|enhances?|speeds? up|decreases?|reduces?|lowers?|slows?(?: down)?) (the (?:rate|amount|level|number|speed|size|concentration|intensity|activity|strength|frequency|pressure|temperature|volume|mass|energy|force|risk|efficiency|likelihood|chance)s? of [\p{L}\p{N}'’ -]{2,40}?|the [\p{L}-]+ (?:rate|amount|level|speed|concentration|pressure|temperature))(?:[,.;]|$| (?:by|in|and|that|which|from)\b)`,
  "iu",
);
/** "the greater the speed, the greater the shift and the greater the frequency". */
const THE_MORE_ALSO = new RegExp(
  String.raw`^the (${MORE}|${LESS}) ((?:the )?[\p{L}][\p{L}\p{N}'’ -]{2,50}?),? ((?:(?:and )?the (?:${MORE}|${LESS}) (?:the )?[\p{L}][\p{L}\p{N}'’ -]{2,50}?(?:,? (?=and the )|$))+)`,
  "iu",
);
const THE_MORE_EACH = new RegExp(
  String.raw`the (${MORE}|${LESS}) ((?:the )?[\p{L}][\p{L}\p{N}'’ -]{2,50}?)(?=,? and the |$)`,
  "giu",
);
const INCREASE_IN = new RegExp(
  `^an? (increase|decrease|rise|fall|drop|reduction) in ${NP} (?:causes|leads to|results in|produces|means) an? (increase|decrease|rise|fall|drop|reduction) in ${NP}(?:[,.;]|$)`,
  "iu",
);
const PROPORTIONAL = new RegExp(
  `(?:^|\\bthat |, )${NP} is (directly |inversely )?proportional to ${NP}(?:,? and (directly |inversely )?proportional to ${NP}(?:[,.;]|$)|[,.;]|$)`,
  "iu",
);
/** A proportion whose second quantity is long or a square ("… to the square of the distance from …"). */
const PROPORTIONAL_LONG = new RegExp(
  `(?:^|\\bthat |, )${NP} is (directly |inversely )?proportional to (?:the )?((?:square|cube) of )?(?:the )?([^;:,]{3,120}?)(?:[,.;]|$)`,
  "iu",
);
const DEPENDS = new RegExp(
  `^${NP} (?:also |only |largely |mainly |strongly )?depends? (?:only |largely |mainly |strongly |both |directly )?(?:up)?on (?:(?:two|three|four|several) factors ?[:—–] ?|both )?(?:the following: )?([^;:]{3,120}?)$`,
  "iu",
);

/** "the pressure increases with increasing temperature", "energy also increases with frequency". */
const Y_WITH_X = new RegExp(
  `^${NP} (?:also |generally |usually )?(increases|decreases|rises|falls|grows|drops) with (increasing |decreasing |rising |falling |an increase in |a decrease in |a rise in |a fall in |a drop in )?${NP}(?:,|$)`,
  "iu",
);
/** "a larger angular velocity means a greater linear velocity"; "more waste heat leads to less work output". */
const MORE_MEANS = new RegExp(
  String.raw`^(?:an? )?(${MORE}|${LESS}) ([\p{L}][\p{L}\p{N}'’ -]{2,50}?) (?:means|leads to|results in|causes|gives|produces) (?:an? )?(${MORE}|${LESS}) ([\p{L}][\p{L}\p{N}'’ -]{2,50}?)$`,
  "iu",
);
/** "the speed of sound varies with the temperature", "capacitance is determined by the geometry …". */
const VARIES = new RegExp(
  `^${NP} (?:also |only |largely |mainly |strongly )?(?:varies with|changes with|is (?:affected|determined|influenced|controlled) by|are (?:affected|determined|influenced|controlled) by) (?:a combination of |both )?([^;:]{3,120}?)$`,
  "iu",
);

/**
 * "y varies directly as x", "y varies inversely with x" (a stated proportion), "y is directly /
 * inversely related to x" (a direction, not a factor).
 */
const VARIES_AS = new RegExp(
  `^${NP} (?:varies (directly|inversely) (?:as|with)|is (directly|inversely) related to) (?:the )?(?:(?:square|cube|square root) of )?([^;:]{3,120}?)$`,
  "iu",
);
/**
 * "increased temperature causes the affinity of hemoglobin for oxygen to be reduced", "a higher
 * concentration of X leads to a faster rate of Y", "lower pressure results in a lower boiling
 * point": a quantity changed in one direction, the other in a stated direction.
 */
const CHANGED_CAUSES = new RegExp(
  String.raw`^(?:an? )?(increased|decreased|reduced|raised|lowered|${MORE}|${LESS}) ([\p{L}][\p{L}\p{N}'’ -]{2,50}?)(?:, [^,]{3,60},)? (?:causes|leads to|results in|produces) (?:(?:an? )?(increased|decreased|reduced|${MORE}|${LESS}) ([\p{L}][\p{L}\p{N}'’ -]{2,60}?)|((?:the |an? )?[\p{L}][\p{L}\p{N}'’ -]{2,60}?) to (?:be )?(increase|decrease|rise|fall|drop|be reduced|reduced|increased|decreased|lowered|raised))$`,
  "iu",
);
/**
 * "the faster the ambulance moves" → "the speed of the ambulance": a comparative that qualifies a
 * verb names the quantity it compares (sign −1 when the word measures the opposite: "closer").
 */
const COMPARED: [RegExp, string, 1 | -1][] = [
  [/^(?:faster|quicker)$/i, "speed", 1],
  [/^slower$/i, "speed", -1],
  [/^(?:hotter|warmer)$/i, "temperature", 1],
  [/^(?:colder|cooler)$/i, "temperature", -1],
  [/^heavier$/i, "mass", 1],
  [/^(?:closer|nearer)$/i, "distance", -1],
  [/^(?:farther|further)$/i, "distance", 1],
  [/^denser$/i, "density", 1],
  [/^brighter$/i, "brightness", 1],
  [/^louder$/i, "loudness", 1],
];
const THE_MORE_CLAUSE = new RegExp(
  String.raw`^the (\p{L}+) ((?:the |a |an )?[\p{L}][\p{L}\p{N}'’ -]{2,40}?) (?:is|are|moves?|travels?|goes|spins?|rotates?|gets?|becomes?)(?: [\p{L} ]{2,30})?, the (${MORE}|${LESS}) ((?:the )?[\p{L}][\p{L}\p{N}'’ -]{2,50}?)(?:[,.;]|$| and the (?:${MORE}|${LESS}) )`,
  "iu",
);

/** "the plane’s speed, vs, the greater …" → "the plane’s speed, the greater …": a symbol after a name. */
const SYMBOL_APPOSITIVE =
  /,\s+(?!(?:a|an|as|at|be|by|do|he|if|in|is|it|me|my|no|of|on|or|so|to|up|us|we)\b)[\p{L}Δ]{1,2}(?:_[\p{L}\p{N}]{1,3}|\p{N}{1,2})?,\s+/giu;

const SIGN_OF_NOUN = (w: string): 1 | -1 => (/^(?:increase|rise)$/i.test(w) ? 1 : -1);

/** A quantity's name that ends in a word compromise does not read as a noun on its own. */
const AMBIGUOUS_QUANTITY = /\b(?:force|current|charge|work|power|heat|light|stretch|load)$/i;

/** A noun phrase worth naming in a question: a noun in it, no pronoun, not too long. */
function quantity(raw: string): string | null {
  const t = raw
    .trim()
    .replace(/^(?:the|a|an)\s+/i, "")
    .replace(/[,;:.]+$/, "")
    .trim();
  const words = t.split(/\s+/);
  if (words.length > 7 || words.length === 0 || ANAPHORA.test(t)) return null;
  if (/^(?:it|they|this|that|these|those|which|one|there|he|she|we|you|its|their)$/i.test(words[0]!))
    return null;
  if (contentWords(t).length === 0 || !isNounPhrase(t) || /^(?:to|of|in|for|by)\b/i.test(t)) return null;
  // "the value of fobs", "the value of g": a symbol, not a quantity named in words.
  if (/^value of \S+$/i.test(t)) return null;
  // "force", "current", "charge", "work", "power", "heat", "light": quantities compromise reads as
  // verbs or adjectives alone (wave 12); after "the" they are nouns.
  if (!nlp(t).has("#Noun") && !(AMBIGUOUS_QUANTITY.test(t) && nlp(`the ${t}`).has("#Noun"))) return null;
  // "the path of light bends" is a clause, not a quantity: it ends in a verb.

  const clean = t.replace(/\s+(?:typically|usually|often|also|generally)$/i, "");
  // A capital after "the" is a name ("the Doppler shift"); a capital with none opened the sentence.
  const named = /^(?:the|a|an)\s+\p{Lu}/u.test(raw.trim());
  return `the ${!named && /^\p{Lu}\p{Ll}/u.test(clean) ? clean.charAt(0).toLowerCase() + clean.slice(1) : clean}`;
}

/**
 * The quantity after "the greater": "its inertia" → "the inertia"; null for an adjective before a
 * noun phrase ("the more sudden the shift": "sudden" qualifies the change, it names no quantity).
 */
function comparedQuantity(raw: string): string | null {
  const t = raw.trim().replace(/^(?:its|their)\s+/i, "the ");
  if (/^\p{L}+ (?:the|a|an)\b/iu.test(t)) return null;
  const q = quantity(t);
  if (q) return q;
  // "the greater the shift": one word that reads as a verb alone ("shift") is the noun after "the".
  const one = t.replace(/^(?:the|a|an)\s+/i, "");
  return /^\p{Ll}{3,}$/u.test(one) && isNounPhrase(one) && nlp(`the ${one}`).has("#Noun")
    ? `the ${one}`
    : null;
}

/** "the distance from the center of rotation" → "the distance"; "its mass" → "the mass". */
function looseQuantity(raw: string): string | null {
  const t = raw.replace(/^(?:its|their)\s+/i, "the ");
  const q =
    quantity(t) ??
    quantity(t.replace(/\s+(?:from|at|in|on|for|with|along|between|through|across)\b.*$/i, "")) ??
    // "the force applied to it", "the current that runs through the path", "the net external
    // force acting on the system" (wave 12): the quantity is the noun phrase before the modifier.
    quantity(t.replace(POST_MODIFIER, ""));
  // "the tangential speed v" → "the tangential speed" (a symbol is not part of the name).
  return q?.replace(/(\p{L}{3,})\s+[\p{L}Δ]{1,2}[′']?$/u, "$1") ?? null;
}

/** A participle or relative clause after a quantity's noun: cut to name the quantity alone. */
const POST_MODIFIER =
  /\s+(?:that|which|applied|acting|exerted|flowing|running|produced|experienced|transferred|supplied|measured)\b.*$/i;

/** "the gills disappear and lungs": a verb that is not a participle means a clause, not a quantity. */
function hasFiniteVerb(np: string): boolean {
  return (nlp(np).verbs().out("array") as string[]).some((v) => !/(?:ing|ed|en)$/i.test(v.trim()));
}

/** Sentences with each clause of a "…; …" sentence as a sentence of its own (same source). */
function withClauses(sentences: readonly ISentence[]): { s: ISentence; text: string }[] {
  return sentences.flatMap((s) => {
    const parts = s.text.replace(/[.!]$/, "").split(/;\s+/);
    return [{ s, text: s.text }, ...(parts.length > 1 ? parts.slice(1).map((text) => ({ s, text })) : [])];
  });
}

export function extractMonotonic(sentences: readonly ISentence[]): IMonotonic[] {
  const out: IMonotonic[] = [];
  for (const { s, text: raw } of withClauses(sentences)) {
    if (s.sideBox) continue;
    const text = raw
      .replace(/^(?:therefore|thus|so|in general|generally|similarly|consequently),?\s+/i, "")
      .replace(/^we can see (?:from [^,]{3,40} )?that /i, "")
      // "directly proportional to and in the same direction as the net external force" (wave 12).
      .replace(/\bproportional to and in the same direction as\b/i, "proportional to")
      .replace(SYMBOL_APPOSITIVE, ", ")
      .replace(/[.!]$/, "");
    const push = (x: string | null, y: string | null, sign: 1 | -1) => {
      if (!x || !y || hasFiniteVerb(x) || hasFiniteVerb(y)) return;
      // "the voltage and the current": two quantities, each related to y.
      const xs = / and /.test(x) ? x.split(/ and /).map((p) => quantity(p)) : [x];
      for (const one of xs)
        if (one && one !== y)
          out.push({ kind: "monotonic", x: one, y, sign, sentence: s.text, chunkKey: s.chunkKey });
    };
    let m = AS_X_Y.exec(text);
    if (m) {
      // "as a cell increases in size" → "the size of a cell"; "as the tadpole grows" → "the size
      // of the tadpole" (a thing that grows is not itself a quantity to lower).
      const grows = /^grow/i.test(m[2]!) && !OBSERVABLE.test(m[1]!);
      const x = m[3]
        ? quantity(`the ${m[3]} of ${m[1]!.replace(/^(?:the|a|an)\s+/i, "the ")}`)
        : grows
          ? quantity(`the size of ${m[1]!.replace(/^(?:the|a|an)\s+/i, "the ")}`)
          : quantity(m[1]!);
      const y = quantity(m[4]!.replace(/^(?:its|their|his|her)\s+/i, "the "));
      push(x, y, (direction(m[2]!) * direction(m[5]!)) as 1 | -1);
      continue;
    }
    m = Y_AS_X.exec(text);
    if (m) {
      push(quantity(m[3]!), quantity(m[1]!), (direction(m[2]!) * direction(m[4]!)) as 1 | -1);
      continue;
    }
    const found = out.length;
    // "the faster the ambulance moves, …": the speed of the ambulance, before "the ambulance moves" is read as x.
    m = THE_MORE_CLAUSE.exec(text);
    if (m) {
      const named = COMPARED.find(([re]) => re.test(m![1]!));
      const who = quantity(m[2]!);
      if (named && who)
        push(`the ${named[1]} of ${who}`, comparedQuantity(m[4]!), (named[2] * direction(m[3]!)) as 1 | -1);
      if (out.length > found) continue;
    }
    m = THE_MORE.exec(text);
    // "the more the path of light bends": "more" qualifies a verb, and what follows is a clause.
    if (m && /^(?:more|less)$/i.test(m[3]!) && new RegExp(`\\bthe ${m[3]} the `, "i").test(text)) continue;
    if (m && !new RegExp(`\\band the (?:${MORE}|${LESS})\\b`, "i").test(m[4]!))
      push(comparedQuantity(m[2]!), comparedQuantity(m[4]!), (direction(m[1]!) * direction(m[3]!)) as 1 | -1);
    // A "the more …, the more …" sentence none of whose readings names two quantities tries the next.
    if (out.length > found) continue;
    m = THE_MORE_ALSO.exec(text);
    if (m) {
      // "the greater the speed, the greater the shift and the greater the frequency": each y.
      const sign = direction(m[1]!);
      for (const [, word, y] of m[3]!.matchAll(THE_MORE_EACH))
        push(comparedQuantity(m[2]!), comparedQuantity(y!), (sign * direction(word!)) as 1 | -1);
      if (out.length > found) continue;
    }
    m = CHANGED_CAUSES.exec(text);
    if (m) {
      const up = (w: string) => /^(?:increased?|raised?|rise|increase)$/i.test(w) || direction(w) > 0;
      const xSign = up(m[1]!) ? 1 : -1;
      if (m[4]) push(quantity(m[2]!), quantity(m[4]!), (xSign * (up(m[3]!) ? 1 : -1)) as 1 | -1);
      else if (m[5]) push(quantity(m[2]!), quantity(m[5]!), (xSign * (up(m[6]!) ? 1 : -1)) as 1 | -1);
      continue;
    }
    m = VARIES_AS.exec(text);
    if (m) {
      const sign = /inversely/i.test(m[2] ?? m[3] ?? "") ? -1 : 1;
      const from = out.length;
      const x = looseQuantity(m[4]!.replace(/^(?:the )?(?:square|cube|square root) of /i, "the "));
      push(x, looseQuantity(m[1]!), sign);
      // "varies directly as x" is a proportion; "is directly related to", or a square, only a direction.
      if (m[2] && !/\b(?:square|cube|root|squared|cubed)\b/i.test(text))
        for (const r of out.slice(from)) r.proportional = true;
      continue;
    }
    m = INCREASE_IN.exec(text);
    if (m) {
      push(quantity(m[2]!), quantity(m[4]!), (SIGN_OF_NOUN(m[1]!) * SIGN_OF_NOUN(m[3]!)) as 1 | -1);
      continue;
    }
    m = PROPORTIONAL.exec(text);
    if (m) {
      const y = looseQuantity(m[1]!);
      const from = out.length;
      const power = /\b(?:square|squared|cube|cubed|root|product)\b/i;
      const plain = (x: string | null) => x?.replace(/\s+(?:squared|cubed)$/i, "") ?? null;
      push(plain(looseQuantity(m[3]!)), y, m[2]?.trim() === "inversely" ? -1 : 1);
      if (m[5]) push(plain(looseQuantity(m[5])), y, m[4]?.trim() === "inversely" ? -1 : 1);
      // "proportional to the square of …" is not a doubling rule: only plain proportion counts.
      const squared = [m[3], m[5]].some((x) => x && power.test(x));
      for (const r of out.slice(from)) if (!squared && !power.test(r.x)) r.proportional = true;
      continue;
    }
    m = PROPORTIONAL_LONG.exec(text);
    if (m) {
      // "inversely proportional to the square of the distance from the point charge or …": the
      // direction holds (a square rises with its base), the plain factor does not.
      const from = out.length;
      push(looseQuantity(`the ${m[4]!}`), looseQuantity(m[1]!), m[2]?.trim() === "inversely" ? -1 : 1);
      if (!m[3] && !/\b(?:squared|cubed|product)\b/i.test(m[4]!))
        for (const r of out.slice(from)) r.proportional = true;
      continue;
    }
    m = Y_WITH_X.exec(text);
    if (m && s.standalone) {
      const against = /^(?:decreasing|falling|a decrease|a fall|a drop)/i.test(m[3] ?? "") ? -1 : 1;
      push(looseQuantity(m[4]!), quantity(m[1]!), (direction(m[2]!) * against) as 1 | -1);
      continue;
    }
    m = MORE_MEANS.exec(text);
    if (m && s.standalone) {
      push(looseQuantity(m[2]!), looseQuantity(m[4]!), (direction(m[1]!) * direction(m[3]!)) as 1 | -1);
      continue;
    }
    if (changedAgent(text, push, s.standalone)) continue;
    m = X_CHANGES_Y.exec(text);
    // "the loss of carbon dioxide reduces the size of the molecule": a one-off event, not a
    // quantity one could lower.
    if (
      m &&
      s.standalone &&
      !/^(?:the |an? )?(?:loss|addition|removal|release|formation|breakdown|binding|transfer|conversion|use) of\b/i.test(
        m[1]!,
      )
    ) {
      const up = /^(?:increases?|raises?|boosts?|enhances?|speeds? up)$/i.test(m[2]!);
      push(quantity(m[1]!), quantity(m[3]!), up ? 1 : -1);
    }
  }
  return out;
}

/**
 * "Many factors can affect the diffusion rate, such as concentration gradient, particle sizes, and
 * the system's temperature" (wave 12): y, then the factors named after "such as".
 */
const FACTORS_SUCH_AS = new RegExp(
  `^(?:many|several|a number of|various) factors (?:can |may |also )?(?:affect|influence|determine|change) ${NP},? (?:such as|including) ([^;:]{3,120}?)$`,
  "iu",
);

/**
 * A quantity named before a setting or a modifier ("the water potential in plant solutions", "the
 * concentration of solutes in a solution", "the heat transferred to or from a substance"), unless
 * what is left is a change or a kind, which names no quantity ("the change in …" → "the change").
 */
function namedQuantity(raw: string): string | null {
  // "the materials that it is made from": a pronoun in the modifier leans on the sentence.
  if (PRONOUN_WORD.test(raw)) return null;
  const q = looseQuantity(raw);
  return q &&
    !/^the (?:change|difference|rise|fall|increase|decrease|amount|type|kind|number|presence|absence)$/i.test(
      q,
    )
    ? q
    : null;
}

/** A factor cut to its name only when that name is a measure ("the concentration of solutes in …"). */
function measureNamed(raw: string): string | null {
  const q = namedQuantity(raw);
  return q &&
    /\b(?:concentrations?|temperatures?|sizes?|numbers?|rates?|pressures?|mass|volumes?|lengths?|areas?|diameters?|intensity|speeds?|amounts?|levels?|ph|humidity|gradients?|density|thickness|depth|width)\b/i.test(
      q,
    ) &&
    !/ed$/.test(q)
    ? q
    : null;
}

/** "Y depends on A and B": the quantities a fair test could vary, each with the others kept the same. */
export function extractDependences(sentences: readonly ISentence[]): IDependence[] {
  const out: IDependence[] = [];
  for (const s of sentences) {
    if (s.sideBox || !s.standalone) continue;
    const text = s.text
      .replace(/[.!]$/, "")
      // "Experiments show that the heat transferred … depends on three factors" (wave 12).
      .replace(/^(?:experiments|observations|measurements|studies) (?:show|have shown|showed) that /i, "");
    const such = FACTORS_SUCH_AS.exec(text);
    const m = such ? [such[0], such[1]!, such[2]!] : (DEPENDS.exec(text) ?? VARIES.exec(text));
    // "… is determined by comparing it with …": a method, not a quantity.
    if (!m || /^(?:\p{L}+ing)\b/u.test(m[2]!)) continue;
    const y = quantity(m[1]!) ?? namedQuantity(m[1]!);
    const xs = m[2]!
      .split(/,\s*(?:and\s+)?(?:on\s+)?|\s+and\s+(?:on\s+)?/)
      .map((x) => x.replace(/^(?:its|their)\s+/i, "the "))
      .map((x) => quantity(x) ?? measureNamed(x))
      .filter((x): x is string => x !== null);
    if (y && xs.length > 0 && !xs.includes(y))
      out.push({ kind: "dependence", y, xs: [...new Set(xs)], sentence: s.text, chunkKey: s.chunkKey });
  }
  return out;
}

const BECAUSE = /^(.{15,}?),?\s+(?:because|since)\s+(.{15,})$/i;
const BECAUSE_FIRST = /^(?:because|since)\s+(.{12,}?),\s+(.{15,})$/i;
const LEADS =
  /^(.{12,}?)\s+(?:causes|leads to|results in|gives rise to|is responsible for|is the reason for)\s+(.{10,})$/i;
const THEREFORE = /^(.{15,}?)(?:;\s+(?:therefore|thus|hence|as a result|consequently),|,\s+so)\s+(.{15,})$/i;

/** A clause that reads as a sentence of its own: a subject, a verb, no pointer back, no loose end. */
export function isFullClause(clause: string): boolean {
  const t = clause.trim();
  const words = t.split(/\s+/).length;
  if (words < 4 || words > 25 || contentWords(t).length < 3 || ANAPHORA.test(t)) return false;
  if (/\b(?:but|although|though|while|whereas|respectively|unless|until)$|^\p{L}+ly,|^\d/iu.test(t))
    return false;
  if (/,\s*(?:but|although|while|and)\b/i.test(t) && words > 18) return false;
  if (/\b(?:that|which|who|also|and|or|the|a|an|of|to|be|been|is|are|with|by|e\.g|i\.e|etc)\.?$/i.test(t))
    return false;
  if ((t.match(/\(/g) ?? []).length !== (t.match(/\)/g) ?? []).length) return false;
  const doc = nlp(t);
  const first = (doc.terms().json() as { terms: { tags: string[] }[] }[])[0]?.terms[0]?.tags ?? [];
  const opensWithSubject = [
    "Determiner",
    "Noun",
    "Adjective",
    "Value",
    "ProperNoun",
    "Plural",
    "Singular",
  ].some((tag) => first.includes(tag));
  return (
    opensWithSubject &&
    !first.includes("Conjunction") &&
    !first.includes("Preposition") &&
    doc.has("#Noun") &&
    doc.has("#Verb")
  );
}

/** Openers that say when or how often a clause holds, not what it states (wave 14). */
const CLAUSE_OPENER =
  /^(?:in (?:many|most|some|all) (?:cases|situations|materials|circuits)|in general|in practice|in everyday life|generally|usually|normally|typically),\s+/i;

/**
 * A short clause a "because" sentence gives as its cause or its effect (wave 14, OpenStax Physics
 * 3.2, 8.3, 18.2): "momentum is conserved", "the force is repulsive", "acceleration is not
 * uniform" — a noun subject, a form of "be" and one complement word; fewer words than
 * `isFullClause` asks of a sentence of its own.
 */
function isShortClause(clause: string): boolean {
  const t = clause.trim();
  const words = t.split(/\s+/);
  if (words.length < 3 || words.length > 5 || ANAPHORA.test(t) || contentWords(t).length < 2) return false;
  const m = /^((?:the |a |an )?[\p{L}-]+(?: [\p{L}-]+)?) (?:is|are|was|were)(?: not)? ([\p{L}-]+)$/iu.exec(t);
  if (!m || /^(?:the|a|an|of|to|in|on|at|by|for|that|which|this|also|very|more|less|so)$/i.test(m[2]!))
    return false;
  return nlp(m[1]!).has("#Noun") && !nlp(m[1]!).has("#Pronoun");
}

/** A cause or effect half: a sentence of its own, or a short "X is Y" clause, after its opener. */
const causeHalf = (clause: string) => {
  const t = clause.trim().replace(CLAUSE_OPENER, "");
  return isFullClause(t) || isShortClause(t);
};

/** A noun phrase (the subject of "… is responsible for X") is not a clause; keep clauses only. */
const CONSEQUENCE =
  /^(?:therefore|thus|as a result|consequently|for this reason|because of this|hence|as a consequence),\s+(.{15,})$/i;

export function extractCausal(sentences: readonly ISentence[]): ICausal[] {
  const out: ICausal[] = [];
  // "S1. Therefore, S2.": the cause is the whole earlier sentence of the same paragraph block.
  sentences.forEach((s, i) => {
    const prev = sentences[i - 1];
    const m = CONSEQUENCE.exec(s.text.replace(/[.!]$/, ""));
    if (!m || !prev || s.sideBox || prev.chunkKey !== s.chunkKey || prev.heading !== s.heading) return;
    if (prev.position !== s.position - 1 || !prev.standalone) return;
    const effect = m[1]!.charAt(0).toUpperCase() + m[1]!.slice(1);
    if (!isStandalone(`${effect}.`)) return;
    const cause = prev.text.replace(/[.!]$/, "");
    if (isFullClause(cause) && isFullClause(effect))
      out.push({
        kind: "causal",
        cause,
        effect,
        sentence: `${prev.text} ${s.text}`,
        chunkKey: s.chunkKey,
        across: true,
      });
  });
  for (const s of sentences) {
    if (!s.standalone || s.sideBox) continue;
    const text = s.text.replace(/[.!]$/, "");
    const push = (cause: string, effect: string) => {
      // An opener ("In many cases, …") stays in the half it qualifies; the half is judged without it.
      const c = cause.trim().replace(/^(?:and|but)\s+/i, "");
      const e = effect.trim();
      if (causeHalf(c) && causeHalf(e))
        out.push({
          kind: "causal",
          cause: c,
          effect: e,
          sentence: s.text,
          chunkKey: s.chunkKey,
          across: false,
        });
    };
    let m = BECAUSE_FIRST.exec(text);
    if (m) {
      push(m[1]!, m[2]!);
      continue;
    }
    m = BECAUSE.exec(text);
    if (m) {
      push(m[2]!, m[1]!);
      continue;
    }
    m = THEREFORE.exec(text);
    if (m) {
      push(m[1]!, m[2]!);
      continue;
    }
    m = LEADS.exec(text);
    if (m) push(m[1]!, m[2]!);
  }
  return out;
}

/**
 * A stated mechanism, purpose or consequence beyond "because": "a transformer changes the
 * voltage by inducing …" (how), "the spreading of light is due to the limited diameter of the
 * beam" (what causes it), "salt is added so that the ice melts" (what for), "friction, which
 * causes heating" (what it brings about). Cause and effect are both in the one sentence.
 */
export interface IMechanism {
  kind: "mechanism";
  /** What brings the effect about (a clause, a noun phrase or a gerund phrase: "inducing …"). */
  cause: string;
  /** What happens or what is wanted: a clause when `effectIsClause`, else a noun phrase. */
  effect: string;
  effectIsClause: boolean;
  /** How the sentence links them: what the question asks for follows from it. */
  link: "by" | "due to" | "because of" | "so that" | "in order to" | "causes" | "prevents" | "as a result of";
  sentence: string;
  chunkKey: string;
}

const GERUND = /^(?:[a-z]+ly\s+)?[a-z]{3,}ing\b/;
/** "by" that names a means ("by inducing"), not an agent, a factor or an amount ("by a factor of", "by 2 m"). */
const BY_MEANS = /^(.{12,}?)\s+by\s+((?:[a-z]+ly\s+)?[a-z]{3,}ing\b.{6,})$/;
const DUE_TO_NP =
  /^((?:the |a |an )?[\p{L}][\p{L}\p{N}'’ -]{2,60}?) (?:is|are|was|were) (?:mainly |largely |mostly |partly |primarily )?due to (.{6,})$/iu;
const DUE_TO_CLAUSE =
  /^(.{20,}?),? (?:mainly |largely |mostly |partly |primarily )?(?:due to|because of) (.{6,})$/i;
const PURPOSE = /^(.{20,}?),? (so that|in order to) (.{10,})$/i;
const WHICH_CAUSES = /^(.{20,}?),? which (?:causes|leads to|results in|produces) (.{6,})$/i;
// Not "leads to" after a noun: in anatomy it is a path ("the renal pelvis leads to the ureter").
const NP_CAUSES = /^((?:the |a |an )?[\p{L}][\p{L}\p{N}'’ -]{2,60}?) (?:causes|results in) (.{6,})$/iu;
const PREVENTS =
  /^((?:the |a |an )?[\p{L}][\p{L}\p{N}'’ -]{2,60}?) prevents (.{4,60}?) from ((?:[a-z]+ing)\b.{3,})$/iu;
const AS_RESULT_OF = /^as a (?:result|consequence) of (.{6,}?), (.{15,})$/i;

/** A noun phrase to name in a question: no pronoun, no clause, not too long (≤ 12 words). */
function phrase(raw: string): string | null {
  const t = raw.trim().replace(/[,;:.]+$/, "");
  if (/^(?:if|when|as|while|whenever|although|because|since|nothing)\b/i.test(t)) return null;
  const words = t.split(/\s+/);
  if (words.length === 0 || words.length > 12 || contentWords(t).length === 0 || ANAPHORA.test(t))
    return null;
  if (/\b(?:it|its|they|them|their|this|these|those|he|she|which|who)\b/i.test(t)) return null;
  // "force", "current", "charge", "work", "power", "heat", "light": quantities compromise reads as
  // verbs or adjectives alone (wave 12); after "the" they are nouns.
  if (!nlp(t).has("#Noun") && !(AMBIGUOUS_QUANTITY.test(t) && nlp(`the ${t}`).has("#Noun"))) return null;
  // A noun phrase, not a clause: no finite verb of its own ("the beam is limited").
  if (/\b(?:is|are|was|were|has|have|had|does|do|did|can|will|would|must)\b/i.test(t)) return null;
  return t;
}

/** Cause and effect parts short and plain enough to name in a question and a marking point. */
function plainPart(t: string, maxWords: number): boolean {
  return (
    t.split(/\s+/).length <= maxWords &&
    !/[,;:()—–=_^]/.test(t) &&
    !/^(?:if|when|as|while|although|some|many|most|one|a common|first|second|third|finally|knowing|scientists|students)\b/i.test(
      t,
    ) &&
    !/\b(?:usually|often|sometimes|generally|typically|such as|misconception|just|only|also|for example|e\.g|i\.e|respectively|because|discovered|shows?|shown|problems?|found|derived|calculated|solved|convenient)\b/i.test(
      t,
    )
  );
}

/** A clause, also of three words ("torque is maximized"), which `isFullClause` leaves out as too short. */
const shortClause = (e: string) =>
  isFullClause(e) || (e.split(/\s+/).length === 3 && isFullClause(`${e} in practice`));

const COPULA_DEFINITION =
  /^(?:the |a |an )?[\p{L}' -]{2,40}? (?:is|are) (?:the|a|an|defined as|called|known as)\b/iu;

export function extractMechanisms(sentences: readonly ISentence[]): IMechanism[] {
  const out: IMechanism[] = [];
  for (const s of sentences) {
    if (!s.standalone || s.sideBox || /\d/.test(s.text)) continue;
    // "… is determined by …; more waste heat leads to less work output": each clause on its own.
    for (const part of s.text.replace(/[.!]$/, "").split(/;\s+/)) mechanismOf(part, s, out);
  }
  return out;
}

function mechanismOf(clause: string, s: ISentence, out: IMechanism[]): void {
  {
    const text = clause
      .replace(/^(?:in general|generally|in fact),?\s+/i, "")
      .replace(/^according to [^,]{3,60}, /i, "");
    const push = (
      cause: string | null,
      effect: string | null,
      effectIsClause: boolean,
      link: IMechanism["link"],
    ) => {
      if (!cause || !effect) return;
      const c = cause.trim();
      const e = effect.trim();
      if (!plainPart(c, 22) || !plainPart(e, effectIsClause ? 16 : 12)) return;
      // "Heat is the transfer of energy due to …": a definition, not an effect to explain.
      if (effectIsClause && (!shortClause(e) || COPULA_DEFINITION.test(e))) return;
      out.push({
        kind: "mechanism",
        cause: c,
        effect: e,
        effectIsClause,
        link,
        sentence: s.text,
        chunkKey: s.chunkKey,
      });
    };
    let m = AS_RESULT_OF.exec(text);
    if (m) {
      push(phrase(m[1]!), m[2]!, true, "as a result of");
      return;
    }
    m = PREVENTS.exec(text);
    if (m) {
      const who = phrase(m[2]!);
      // "friction prevents the block from sliding": what is prevented, as a noun phrase.
      push(phrase(m[1]!), who ? `${who} from ${m[3]!}` : null, false, "prevents");
      return;
    }
    m = WHICH_CAUSES.exec(text);
    if (m) {
      if (isFullClause(m[1]!)) push(m[1]!, phrase(m[2]!), false, "causes");
      return;
    }
    m = DUE_TO_NP.exec(text);
    if (m) {
      push(phrase(m[2]!), phrase(m[1]!), false, "due to");
      return;
    }
    m = DUE_TO_CLAUSE.exec(text);
    if (m) {
      push(phrase(m[2]!), m[1]!, true, /because of/i.test(text) ? "because of" : "due to");
      return;
    }
    m = PURPOSE.exec(text);
    if (m) {
      // The action is the clause to explain; the purpose is the answer ("… so that the ice melts").
      const purpose = m[2]!.toLowerCase() === "so that" ? m[3]! : m[3]!;
      if (
        isFullClause(m[1]!) &&
        (m[2]!.toLowerCase() === "so that" ? isFullClause(purpose) : /^[a-z]+\b/.test(purpose))
      )
        push(purpose, m[1]!, true, m[2]!.toLowerCase() as "so that" | "in order to");
      return;
    }
    m = NP_CAUSES.exec(text);
    // "more waste heat leads to less work output" is a monotonic relation, not a cause to name.
    if (m && !/^(?:more|less|fewer|greater|higher|lower)\b/i.test(m[1]!)) {
      push(phrase(m[1]!), phrase(m[2]!), false, "causes");
      return;
    }
    m = BY_MEANS.exec(text);
    // "… is characterized by having …": a description, not a means.
    if (
      m &&
      GERUND.test(m[2]!) &&
      !/\b(?:is|are|was|were|be|been|being|characteri[sz]ed|defined|described|classified|identified|known|named|represented|denoted|marked|distinguished)$/i.test(
        m[1]!,
      )
    )
      push(m[2]!, m[1]!, true, "by");
  }
}

/**
 * A stated effect of one thing on a quantity or process, in the wording of descriptive science:
 * "FSH stimulates the development of egg cells", "the cuticle reduces the rate of water loss",
 * "phytochrome activity is inhibited by far-red light", "calcium is required for muscle
 * contraction". The agent is a thing (a hormone, a structure, a drug), not a quantity to set, so
 * the new situation a question can pose is the agent removed or blocked: the target then moves
 * against the stated direction.
 */
export interface IEffect {
  kind: "effect";
  /** What acts ("the cuticle", "FSH"). */
  agent: string;
  /** The quantity or process it changes ("the rate of water loss", "the development of egg cells"). */
  target: string;
  /** +1: the agent raises or brings about the target; −1: it lowers or stops it. */
  sign: 1 | -1;
  /** Stated as a need ("is required for", "without X, … cannot"): without the agent the target stops. */
  required: boolean;
  sentence: string;
  chunkKey: string;
  /**
   * The sentence as read when its opening pronoun was put back to the previous sentence's subject
   * ("It stimulates …" → "Oxytocin stimulates …"); `sentence` is then both sentences, as quoted.
   */
  stated?: string;
}

const RAISE_V =
  "increases?|raises?|elevates?|boosts?|enhances?|stimulates?|promotes?|activates?|accelerates?|speeds? up|induces?|triggers?";
const LOWER_V =
  "decreases?|reduces?|lowers?|inhibits?|blocks?|suppress(?:es)?|slows?(?: down)?|represses?|diminish(?:es)?|prevents?|impairs?";
const RAISED_P =
  "increased|raised|elevated|boosted|enhanced|stimulated|promoted|activated|accelerated|induced|triggered";
const LOWERED_P =
  "decreased|reduced|lowered|inhibited|blocked|suppressed|slowed(?: down)?|repressed|diminished|prevented|impaired";
const AGENT_NP = String.raw`((?:the |an? )?[\p{L}\p{N}][\p{L}\p{N}'’+-]*(?: [\p{L}\p{N}'’+-]+){0,5}?)`;
const TARGET_NP = String.raw`((?:the |an? )?[\p{L}][\p{L}\p{N}'’ -]{2,70}?)`;
const TARGET_END = String.raw`(?=[,;:]|$| (?:in|into|by|during|when|which|that|so|because|through|as|via|while|and|or|but|at|within|until|if|without|from|with|across|between|over)\b)`;
/** "ANP acts on the kidneys to reduce …", "auxin helps to promote …", "glucagon can raise …". */
const ACTS_TO = String.raw`(?:(?:can|helps?(?: to)?|serves? to|works? to)|(?:acts?|works?|binds?) (?:on|to|at|with) (?:the |an? )?[\p{L}-]+(?: [\p{L}-]+){0,3} to) `;
const EFFECT_ACTIVE = new RegExp(
  String.raw`^${AGENT_NP} (?:also |directly |strongly |greatly |further |indirectly |then |thus |therefore |in turn )?(?:${ACTS_TO})?(${RAISE_V}|${LOWER_V}) ${TARGET_NP}${TARGET_END}`,
  "iu",
);
const EFFECT_PASSIVE = new RegExp(
  String.raw`^${TARGET_NP} (?:is|are) (?:also |strongly |greatly |further )?(${RAISED_P}|${LOWERED_P}) by ${AGENT_NP}(?=[,;:]|$)`,
  "iu",
);
const REQUIRED = new RegExp(
  String.raw`^${AGENT_NP} (?:is|are) (?:also |absolutely )?(?:required|needed|necessary|essential) for ${TARGET_NP}(?=[,;:]|$| (?:in|by|during|to|and)\b)`,
  "iu",
);
const WITHOUT = new RegExp(
  String.raw`^without ${AGENT_NP}, ${TARGET_NP} (?:cannot|can ?not|could not|would not|will not|does not|do not) (?:occur|take place|proceed|happen|form|be made|be produced|function|work)(?=[,;:]|$)`,
  "iu",
);

/**
 * "Follicle cells produce the hormone inhibin, which inhibits FSH production", "the hypothalamus
 * produces GnRH, which stimulates the release of FSH" (wave 12): the thing named right before
 * ", which" acts on the target (`whichAgent` reads it from the words before the comma).
 */
const EFFECT_WHICH = new RegExp(
  String.raw`, which (?:also |then |in turn |directly )?(${RAISE_V}|${LOWER_V}) ${TARGET_NP}${TARGET_END}`,
  "iu",
);

/**
 * A quantity or a process one can measure or observe: a measure word ("rate", "level",
 * "activity", "growth"), or a noun made from a verb ("secretion", "synthesis", "development").
 */
const OBSERVABLE =
  /\b(?:rate|rates|level|levels|amount|concentration|activity|production|secretion|release|synthesis|growth|development|uptake|absorption|loss|pressure|temperature|number|size|volume|flow|output|yield|expression|speed|frequency|strength|intensity|risk|efficiency|formation|breakdown|movement|transport|diffusion|respiration|photosynthesis|digestion|contraction|germination|elongation|division|permeability|acidity|ph|sensitivity|resistance|reproduction|fertility|response)\b/iu;
/** A noun made from a verb heading the phrase ("the conversion of starch", "cell elongation"). */
const PROCESS_HEAD = /\p{L}{3,}(?:tion|sion|sis|ment|ance|ence)$/iu;
/** An agent that is itself a change or a condition ("increasing …", "exposure to …"): not a thing to remove. */
const NOT_AGENT =
  /^(?:the )?(?:increas|decreas|rais|lower|reduc|high|low|more|less|greater|fewer|rising|falling|cold|hot|warm|cool|dry|wet|bright|dim|strong|weak|excess|extra|too\b|exposure|presence|absence|addition|lack|loss|use|amount|level|concentration|rate|process|ability|fact|result|effect|change|way|one|each|both|all|some|many|most|other|another|such)/i;
const PRONOUN_WORD = /\b(?:it|its|they|them|their|this|these|those|he|she|his|her|which|who|whose)\b/i;

/** An agent worth naming: a short noun phrase, no pronoun, not a change or a condition itself. */
function agentOf(raw: string): string | null {
  const t = raw.trim();
  const np = t.replace(/^(?:an?)\s+/i, "");
  if (PRONOUN_WORD.test(t) || NOT_AGENT.test(np) || /^\p{L}+ing\b/iu.test(np) || t.split(/\s+/).length > 5)
    return null;
  // "administration of pure oxygen", "exposure to light": an action or a condition, not a thing to remove.
  if (/^(?:the )?[\p{L}-]+(?:tion|sion|ment|ure|al|ing) (?:of|to)\b/iu.test(np)) return null;
  // "negative selection", "phosphorylation": a process, not a thing one removes or blocks.
  if (PROCESS_HEAD.test(np.split(/\s+/).pop() ?? "")) return null;
  // "unsaturated fats help to": a verb in the agent means the match began mid-clause.
  if (
    /\b(?:to|is|are|was|were|be|has|have|can|may|will|help|helps|serve|serves|act|acts|results?|leads?|causes?)\b/i.test(
      t,
    )
  )
    return null;
  const q = quantity(t);
  if (!q) return null;
  // A name opening the sentence keeps its capital ("FSH", "Auxin" → "auxin"; "ADH" stays).
  const bareName = q.replace(/^the /, "");
  return /^(?:the|a|an)\s/i.test(t) ? q : /^\p{Lu}{2}/u.test(bareName) ? bareName : bareName;
}

/**
 * The agent before ", which": the longest run of the last three words with no verb and no
 * preposition in it ("produce the hormone inhibin" → "the hormone inhibin", "Plants release
 * ethylene" → "ethylene"); null when none is left or the words hold a number.
 */
function whichAgent(before: string): string | null {
  const words = before.trim().split(/\s+/).slice(-3);
  // The verbs as the whole clause tags them ("The pancreas secretes insulin": "secretes").
  const verbs = new Set(
    (nlp(before).match("#Verb").out("array") as string[])
      .flatMap((v) => v.toLowerCase().split(/\s+/))
      .filter((v) => !/-/.test(v)),
  );
  for (let i = 0; i < words.length; i++) {
    const rest = words.slice(i);
    if (/\d/.test(rest.join(" ")) || /[,;:()]/.test(rest.join(" "))) continue;
    const bad =
      rest.some(
        (w, j) =>
          verbs.has(w.toLowerCase()) ||
          (nlp(w).has("#Verb") && !nlp(w).has("#Noun")) ||
          // "pancreas secretes insulin": a verb in -s that compromise reads as a plural noun.
          (j < rest.length - 1 && /[^s]s$/i.test(w) && nlp(`it ${w}`).has("#Verb")),
      ) ||
      rest.some(
        (w, j) =>
          /^(?:of|in|on|at|by|for|from|to|with|and|or|as|into|than|that|is|are|was|were)$/i.test(w) ||
          (j > 0 && /^(?:the|an?)$/i.test(w)),
      );
    if (!bad) return rest.join(" ");
  }
  return null;
}

/** A target worth asking about: a measurable or observable quantity or process, named in words. */
function targetOf(raw: string): string | null {
  const t = raw.trim().replace(/\s+(?:from|of|in|on|at|for|with)$/i, "");
  const head =
    t
      .split(/\s+of\s+/)[0]!
      .split(/\s+/)
      .pop() ?? "";
  if (PRONOUN_WORD.test(t) || !(OBSERVABLE.test(t) || PROCESS_HEAD.test(head))) return null;
  // "the pancreas to produce alkaline bicarbonate solution" (wave 12): an organ and an infinitive
  // clause, not a quantity or process to measure.
  const infinitive = / to (\p{Ll}+)/u.exec(t);
  if (infinitive && nlp(`to ${infinitive[1]}`).has("#Verb")) return null;
  // "reproduction prior to formation of a zygote": a stage, not a quantity or process to measure.
  if (/\b(?:prior|before|after|during|until)\b/i.test(t)) return null;
  const q = quantity(t);
  if (!q) return null;
  return /^(?:the|a|an)\s/i.test(t) || /\bof\b/.test(t) ? q : q.replace(/^the /, "");
}

/**
 * The clauses of a sentence that may state an effect on their own: each side of "while" or
 * "whereas" ("FSH stimulates egg maturation, while LH stimulates …"), without an opening
 * setting ("In females, …") or an appositive after the subject ("Insulin, a hormone made in the
 * pancreas, lowers …").
 */
function effectClauses(text: string): string[] {
  return text
    .split(/,?\s+(?:while|whereas)\s+|;\s*(?:whereas|while),?\s+/i)
    .map((c) =>
      c
        .replace(/^(?:in|during|at|under|within|in response to) [^,]{3,40}, /i, "")
        .replace(
          /^([^,]{2,40}), (?:an? |the |which |that |(?:produced|made|secreted|released|synthesized|found|located|formed) )[^,]{3,60}, /i,
          "$1 ",
        ),
    );
}

/** The subject of a sentence that says what it is: "Oxytocin is …", "Growth hormone (GH) is produced …". */
const DEFINED_SUBJECT =
  /^((?:The )?\p{L}[\p{L}\p{N}-]*(?: [\p{L}\p{N}-]+){0,3}?)(?: \([^()]{1,20}\))? (is|are|was|were) /u;
/** "It …", "They …", "This hormone …", "These enzymes …" opening a sentence, then a verb (lower case). */
const LEAD_PRONOUN = /^(?:(It|They)|(This|These) ([a-z][a-z-]{2,}))\s+(?=[a-z])/;

/**
 * A sentence opening with "It", "They", "This hormone" or "These enzymes" right after a sentence
 * (same passage and block) whose subject says what it is, and that subject agrees in number and,
 * for "This X", is an X ("Oxytocin is a hormone …" before "This hormone stimulates …"): the
 * sentence with that subject put in, and the two sentences as the quote. Null when the reading
 * is not that sure, or the sentence still leans on its context once the subject is put in.
 */
export function resolveLead(
  s: ISentence,
  sentences: readonly ISentence[],
): { text: string; quote: string } | null {
  const m = LEAD_PRONOUN.exec(s.text);
  if (!m) return null;
  const prev = sentences.find(
    (p) => p.chunkKey === s.chunkKey && p.heading === s.heading && p.position === s.position - 1,
  );
  if (!prev?.standalone || prev.sideBox) return null;
  const d = DEFINED_SUBJECT.exec(prev.text);
  if (!d) return null;
  const subject = d[1]!;
  const plural = /^(?:are|were)$/.test(d[2]!);
  if (ANAPHORA.test(subject) || /^(?:a|an|some|many|most|all|each|every|both|there|one|two)\b/i.test(subject))
    return null;
  if (plural !== (m[1] === "They" || m[2] === "These")) return null;
  const kind = m[3];
  if (kind) {
    // "This hormone": the subject is a hormone, by its name or by what the sentence says it is.
    const isKind =
      subject.toLowerCase().split(/\s+/).pop() === kind ||
      new RegExp(`^${escapeRegExp(d[0])}(?:an?|the|one of the)? ?(?:[\\p{L}-]+ ){0,3}${kind}\\b`, "u").test(
        prev.text,
      );
    if (!isKind) return null;
  }
  const text = `${subject} ${s.text.slice(m[0].length)}`;
  if (!isStandalone(text)) return null;
  return { text, quote: `${prev.text} ${s.text}` };
}

/**
 * The stated effects of the sentences. `why` (diagnostics only, `eval:generation --why`) hears the
 * step at which a clause worded like an effect was given up.
 */
export function extractEffects(sentences: readonly ISentence[], why?: (step: string) => void): IEffect[] {
  const out: IEffect[] = [];
  const seen = new Set<string>();
  const clauses = withClauses(sentences).flatMap(({ s, text }) =>
    effectClauses(text).map((c) => ({ s, text: c })),
  );
  for (const clause of clauses) {
    const { s } = clause;
    let raw = clause.text;
    // "It stimulates …" right after "Oxytocin is a hormone …": read with the subject put back.
    const lead = !s.standalone && raw === s.text ? resolveLead(s, sentences) : null;
    if (lead) raw = lead.text;
    if (s.sideBox || (!s.standalone && !lead) || /\d/.test(raw)) {
      if (why && EFFECT_WORD.test(raw))
        why(
          `effects: ${s.sideBox ? "in a side box" : !s.standalone ? "leans on its context" : "has a number"}`,
        );
      continue;
    }
    const text = raw
      .replace(
        /^(?:therefore|thus|so|in general|generally|similarly|consequently|in addition|also|however|in turn|for example|in this way),?\s+/i,
        "",
      )
      .replace(/\s*\((?:[^()]*)\)/g, "")
      .replace(/[.!]$/, "")
      .trim();
    const push = (agentRaw: string, targetRaw: string, sign: 1 | -1, required: boolean) => {
      const agent = agentOf(agentRaw);
      const target = targetOf(targetRaw);
      if (!agent || !target) {
        why?.(
          !agent
            ? "effects: the agent is not a thing to remove"
            : "effects: the target is no measurable quantity or process",
        );
        return;
      }
      const a = agent.replace(/^the /i, "").toLowerCase();
      const t = target.toLowerCase();
      // "enzymes increase the rate of enzyme reactions": the agent named in the target is no new situation.
      if (t.includes(a) || a.includes(t.replace(/^the /, ""))) return;
      const id = `${a}|${t}`;
      if (seen.has(id)) return;
      seen.add(id);
      out.push({
        kind: "effect",
        agent,
        target,
        sign,
        required,
        sentence: lead ? lead.quote : s.text,
        chunkKey: s.chunkKey,
        ...(lead ? { stated: lead.text } : {}),
      });
    };
    let m = WITHOUT.exec(text);
    if (m) {
      push(m[1]!, m[2]!, 1, true);
      continue;
    }
    m = REQUIRED.exec(text);
    if (m) {
      push(m[1]!, m[2]!, 1, true);
      continue;
    }
    m = EFFECT_PASSIVE.exec(text);
    if (m) {
      push(m[3]!, m[1]!, new RegExp(`^(?:${RAISED_P})$`, "i").test(m[2]!) ? 1 : -1, false);
      continue;
    }
    m = EFFECT_ACTIVE.exec(text);
    if (m) {
      push(m[1]!, m[3]!, new RegExp(`^(?:${RAISE_V})$`, "i").test(m[2]!) ? 1 : -1, false);
      continue;
    }
    m = EFFECT_WHICH.exec(text);
    // "which stimulates the production and release of FSH": the target is cut at "and", so no reading.
    const cut = m ? /^ and\b/i.test(text.slice(m.index + m[0].length)) : true;
    const named = m && !cut ? whichAgent(text.slice(0, m.index)) : null;
    if (m && named) push(named, m[2]!, new RegExp(`^(?:${RAISE_V})$`, "i").test(m[1]!) ? 1 : -1, false);
    else if (why && EFFECT_WORD.test(text)) why("effects: effect verb, but not as subject–verb–object");
  }
  return out;
}

/**
 * A quantity changed, or set higher or lower, stated as acting on an observable target: "a higher
 * concentration of IAA inhibits cell elongation", "an increase in gonad hormone levels inhibits
 * GnRH production", "PTH release is inhibited by rising blood calcium levels". The agent is a
 * quantity, not a thing, so the relation is monotonic (x set higher → y in the verb's direction).
 */
const LEVEL_WORD =
  "an? (?:increase|rise|decrease|fall|drop|reduction) in|rising|falling|increasing|decreasing|increased|decreased|elevated|reduced|(?:an? )?(?:higher|lower)";
const CHANGED_AGENT_ACTIVE = new RegExp(
  String.raw`^(?:the )?(${LEVEL_WORD}) ([\p{L}][\p{L}\p{N}'’ -]{2,60}?) (?:also |strongly |greatly |further )?(${RAISE_V}|${LOWER_V}) ${TARGET_NP}${TARGET_END}`,
  "iu",
);
const CHANGED_AGENT_PASSIVE = new RegExp(
  String.raw`^${TARGET_NP} (?:is|are) (?:also |strongly |greatly |further )?(${RAISED_P}|${LOWERED_P}) by (${LEVEL_WORD}) ([\p{L}][\p{L}\p{N}'’ -]{2,60}?)$`,
  "iu",
);
/** A quantity to set: a measure word in it ("the concentration of IAA", "blood calcium levels", "temperature"). */
const SETTABLE =
  /\b(?:concentrations?|levels?|amounts?|temperatures?|intensity|pH|pressure|humidity|salinity|acidity|light intensity|doses?)\b/i;

function changedAgent(
  text: string,
  push: (x: string | null, y: string | null, sign: 1 | -1) => void,
  standalone: boolean,
): boolean {
  if (!standalone) return false;
  // "In roots, a higher concentration of IAA inhibits …": the setting stays with the target.
  const opening = /^in ([\p{L} -]{3,30}), /iu.exec(text);
  // "In this case, …" leans on its context; "In addition, …" is a connective, not a setting.
  if (opening && /\b(?:this|that|these|those|such)\b/i.test(opening[1]!)) return false;
  const connective =
    opening &&
    /^(?:addition|contrast|general|fact|particular|turn|short|summary|practice|other words|most cases|some cases|many cases)$/i.test(
      opening[1]!,
    );
  const setting = connective ? null : opening;
  const clause = opening ? text.slice(opening[0].length) : text;
  const active = CHANGED_AGENT_ACTIVE.exec(clause);
  const passive = active ? null : CHANGED_AGENT_PASSIVE.exec(clause);
  const m = active ?? passive;
  if (!m) return false;
  const [level, xRaw, verb, yRaw] = active ? [m[1]!, m[2]!, m[3]!, m[4]!] : [m[3]!, m[4]!, m[2]!, m[1]!];
  if (!SETTABLE.test(xRaw) || PRONOUN_WORD.test(xRaw)) return false;
  // "a high concentration of IAA inhibits …" (no comparative) is stated for high values only, not
  // read as a monotonic relation (enzymes, auxins and temperatures have optima); LEVEL_WORD has no "high".
  const up = /^(?:an? )?(?:increase|rise|rising|increasing|increased|elevated|higher)\b/i.test(level)
    ? 1
    : -1;
  const raises = new RegExp(`^(?:${RAISE_V}|${RAISED_P})$`, "i").test(verb) ? 1 : -1;
  const target = targetOf(yRaw);
  const x = quantity(xRaw)
    ?.replace(/\blevels$/, "level")
    .replace(/^the (temperature|concentration|dose)s$/, "the $1");
  if (!target || !x) return false;
  // A name's own capitals stay ("GnRH production", not "gnRH production").
  const first = yRaw.trim().replace(/^the /i, "").split(/\s+/)[0]!;
  const named = /\p{Lu}.*\p{Lu}/u.test(first)
    ? target.replace(first.toLowerCase(), first).replace(lowerFirst(first), first)
    : target;
  const y = `${named}${setting ? ` in ${setting[1]!.toLowerCase()}` : ""}`;
  push(x, y, (up * raises) as 1 | -1);
  return true;
}

const lowerFirst = (w: string) => w.charAt(0).toLowerCase() + w.slice(1);

/** A word that states an effect or a relation, for the diagnostics of the readers. */
const EFFECT_WORD = new RegExp(
  `\\b(?:${RAISE_V}|${LOWER_V}|required for|needed for|essential for|necessary for)\\b`,
  "i",
);
