import nlp from "compromise";
import { isNounPhrase } from "@/lib/text/phrases";
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
  String.raw`^the (${MORE}|${LESS}) (?:the )?([\p{L}][\p{L}\p{N}'’ -]{2,50}?),? the (${MORE}|${LESS}) (?:the )?([\p{L}][\p{L}\p{N}'’ -]{2,50}?)(?:[,.;]|$)`,
  "iu",
);
const X_CHANGES_Y = new RegExp(
  String.raw`^(?:having |an? )?${NP} (increases?|raises?|boosts?|enhances?|speeds? up|decreases?|reduces?|lowers?|slows?(?: down)?) (the (?:rate|amount|level|number|speed|size|concentration|intensity|activity|strength|frequency|pressure|temperature|volume|mass|energy|force|risk|efficiency|likelihood|chance)s? of [\p{L}\p{N}'’ -]{2,40}?|the [\p{L}-]+ (?:rate|amount|level|speed|concentration|pressure|temperature))(?:[,.;]|$| (?:by|in|and|that|which|from)\b)`,
  "iu",
);
const INCREASE_IN = new RegExp(
  `^an? (increase|decrease|rise|fall|drop|reduction) in ${NP} (?:causes|leads to|results in|produces|means) an? (increase|decrease|rise|fall|drop|reduction) in ${NP}(?:[,.;]|$)`,
  "iu",
);
const PROPORTIONAL = new RegExp(
  `(?:^|\\bthat |, )${NP} is (directly |inversely )?proportional to ${NP}(?:[,.;]|$| and (directly |inversely )?proportional to ${NP}(?:[,.;]|$))`,
  "iu",
);
const DEPENDS = new RegExp(
  `^${NP} (?:also |only |largely |mainly |strongly )?depends? (?:only |largely |mainly |strongly )?(?:up)?on (?:two factors: |both )?(?:the following: )?([^;:]{3,120}?)$`,
  "iu",
);

const SIGN_OF_NOUN = (w: string): 1 | -1 => (/^(?:increase|rise)$/i.test(w) ? 1 : -1);

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
  if (!nlp(t).has("#Noun")) return null;
  // "the path of light bends" is a clause, not a quantity: it ends in a verb.

  const clean = t.replace(/\s+(?:typically|usually|often|also|generally)$/i, "");
  return `the ${/^\p{Lu}\p{Ll}/u.test(clean) ? clean.charAt(0).toLowerCase() + clean.slice(1) : clean}`;
}

/** "the distance from the center of rotation" → "the distance"; "its mass" → "the mass". */
function looseQuantity(raw: string): string | null {
  const t = raw.replace(/^(?:its|their)\s+/i, "the ");
  const q =
    quantity(t) ??
    quantity(t.replace(/\s+(?:from|at|in|on|for|with|along|between|through|across)\b.*$/i, ""));
  // "the tangential speed v" → "the tangential speed" (a symbol is not part of the name).
  return q?.replace(/(\p{L}{3,})\s+[\p{L}Δ]{1,2}[′']?$/u, "$1") ?? null;
}

export function extractMonotonic(sentences: readonly ISentence[]): IMonotonic[] {
  const out: IMonotonic[] = [];
  for (const s of sentences) {
    if (s.sideBox) continue;
    const text = s.text.replace(/^(?:therefore|thus|so|in general|generally|similarly),?\s+/i, "");
    const push = (x: string | null, y: string | null, sign: 1 | -1) => {
      if (!x || !y) return;
      // "the voltage and the current": two quantities, each related to y.
      const xs = / and /.test(x) ? x.split(/ and /).map((p) => quantity(p)) : [x];
      for (const one of xs)
        if (one && one !== y)
          out.push({ kind: "monotonic", x: one, y, sign, sentence: s.text, chunkKey: s.chunkKey });
    };
    let m = AS_X_Y.exec(text);
    if (m) {
      // "as a cell increases in size" → "the size of a cell"
      const x = m[3]
        ? quantity(`the ${m[3]} of ${m[1]!.replace(/^(?:the|a|an)\s+/i, "the ")}`)
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
    m = THE_MORE.exec(text);
    // "the more the path of light bends": "more" qualifies a verb, and what follows is a clause.
    if (m && /^(?:more|less)$/i.test(m[3]!) && new RegExp(`\\bthe ${m[3]} the `, "i").test(text)) continue;
    if (m) {
      push(quantity(m[2]!), quantity(m[4]!), (direction(m[1]!) * direction(m[3]!)) as 1 | -1);
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
    m = X_CHANGES_Y.exec(text);
    if (m && s.standalone) {
      const up = /^(?:increases?|raises?|boosts?|enhances?|speeds? up)$/i.test(m[2]!);
      push(quantity(m[1]!), quantity(m[3]!), up ? 1 : -1);
    }
  }
  return out;
}

/** "Y depends on A and B": the quantities a fair test could vary, each with the others kept the same. */
export function extractDependences(sentences: readonly ISentence[]): IDependence[] {
  const out: IDependence[] = [];
  for (const s of sentences) {
    if (s.sideBox || !s.standalone) continue;
    const m = DEPENDS.exec(s.text.replace(/[.!]$/, ""));
    if (!m) continue;
    const y = quantity(m[1]!);
    const xs = m[2]!
      .split(/,\s*(?:and\s+)?(?:on\s+)?|\s+and\s+(?:on\s+)?/)
      .map((x) => quantity(x.replace(/^(?:its|their)\s+/i, "the ")))
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
      const c = cause.trim().replace(/^(?:and|but)\s+/i, "");
      const e = effect.trim();
      if (isFullClause(c) && isFullClause(e))
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
