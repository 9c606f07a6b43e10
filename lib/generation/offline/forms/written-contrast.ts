import type { IKnowledge, ISentence } from "@/lib/generation/offline/knowledge";
import {
  extractWideContrasts,
  type IContrast,
  type IWideContrast,
} from "@/lib/generation/offline/knowledge/contrasts";
import { pluralOf } from "@/lib/generation/offline/knowledge/lexicon";
import { needsContext } from "@/lib/generation/offline/knowledge/sentences";
import { isPluralNoun } from "@/lib/text/phrases";
import { contentWords, stem } from "@/lib/text/tokenize";
import { contrastsOf } from "./bio-contrast";
import {
  capital,
  clip,
  formUseKey,
  type IForm,
  type IFormEnv,
  keywords,
  lower,
  stripEnd,
  written,
} from "./common";
import { LEANS_ON_CONTEXT } from "./recall";

/**
 * Written Understand and Evaluate questions from a comparison the passages state ("Unlike xylem
 * conducting cells, phloem conducting cells are alive at maturity"; "The leading strand is
 * synthesized continuously, whereas the lagging strand is synthesized in short stretches"):
 *
 * - `explain-difference` (Understand): two things of one kind the text itself sets side by side,
 *   told apart from the stated difference AND a further sentence on one of them, so the answer is
 *   never one copied sentence (round 10 readers rejected "Distinguish between" items that paired
 *   two unrelated definitions or pasted one sentence back).
 * - `judge-generalisation` (Evaluate): a student's over-general claim — the feature of one member
 *   given to the whole kind ("All conducting cells are alive at maturity") — judged with the
 *   counterexample the text names, marked on the justification (the counterexample, what is true
 *   of it, the corrected scope), not on spotting a swapped word.
 *
 * Both need the two subjects to share the words that name their kind ("xylem / phloem conducting
 * cells", "the leading / lagging strand"): the kind makes the claim a generalisation and the pair
 * counterparts (not "testes" and "labia majora").
 */

const WORDS = (s: string) =>
  s
    .replace(/\([^)]*\)/g, " ")
    .toLowerCase()
    .split(/[^\p{L}\p{N}-]+/u)
    .filter((w) => w && !/^(?:the|a|an)$/.test(w));

/** Kinds too broad for "all …" to be a student's generalisation ("all organisms", "all cells"). */
const BROAD_KIND =
  /^(?:organisms?|cells?|things?|parts?|types?|kinds?|forms?|ways?|process(?:es)?|structures?|molecules?|factors?|groups?|species|animals?|plants?|systems?|regions?|areas?|sides?|ends?|layers?|stages?|steps?)$/;

/**
 * The kind two contrasted subjects share, plural ("xylem conducting cells" / "phloem conducting
 * cells" → "conducting cells"; "the leading strand" / "the lagging strand" → "strands"): the words
 * they end on alike, with a modifier of each left over to tell them apart. Null when they share no
 * final word, when the kind is too broad, or when a subject is an "of" phrase.
 */
export function sharedKind(a: string, b: string, predicate = ""): string | null {
  if (/\bof\b/i.test(a) || /\bof\b/i.test(b)) return null;
  const wa = WORDS(a);
  const wb = WORDS(b);
  let n = 0;
  while (n < Math.min(wa.length, wb.length) - 1 && wa[wa.length - 1 - n] === wb[wb.length - 1 - n]) n++;
  if (n === 0) return null;
  // In the subject's own letters ("RNA", not "rna").
  const cased = a
    .replace(/\([^)]*\)/g, " ")
    .split(/[^\p{L}\p{N}-]+/u)
    .filter((w) => w && !/^(?:the|a|an)$/i.test(w));
  const kind = (cased.length === wa.length ? cased : wa).slice(wa.length - n);
  if (kind.length === 1 && BROAD_KIND.test(kind[0]!.toLowerCase())) return null;
  if (kind.some((w) => /^\d/.test(w))) return null;
  if (numberOf(a, predicate) === "is") {
    // "the leading strand" counts ("strands"); a bare singular is a mass noun ("aerobic respiration":
    // "kinds of respiration", never "respirations").
    if (!/^(?:the|a|an)\s/i.test(a)) return `kinds of ${kind.join(" ")}`;
    kind[kind.length - 1] = pluralOf(kind[kind.length - 1]!);
  }
  return kind.join(" ");
}

/** A predicate made to agree with a plural subject ("is alive" → "are alive", "carries" → "carry"). */
export function pluralPredicate(predicate: string): string | null {
  const [first = "", ...rest] = predicate.trim().split(/\s+/);
  const tail = rest.length ? ` ${rest.join(" ")}` : "";
  const w = first.toLowerCase();
  const aux: Record<string, string> = { is: "are", has: "have", was: "were", does: "do" };
  if (aux[w]) return `${aux[w]}${tail}`;
  if (/^(?:are|have|were|do|can|cannot|may|will|must|might|could|should|would)$/.test(w)) return predicate;
  if (/ed$/.test(w)) return predicate;
  if (/[^aeiou]ies$/.test(w)) return `${w.slice(0, -3)}y${tail}`;
  if (/(?:ss|sh|ch|x|zz)es$/.test(w)) return `${w.slice(0, -2)}${tail}`;
  if (/[^s]s$/.test(w)) return `${w.slice(0, -1)}${tail}`;
  return null;
}

/**
 * "are" or "is" for a subject, read from its stated verb where it shows number ("bacteria have",
 * "the strand is"; the noun alone misleads on "bacteria", "phenomena"), else from the noun.
 */
const numberOf = (subject: string, predicate: string): "are" | "is" => {
  const w = (predicate.trim().split(/\s+/)[0] ?? "").toLowerCase();
  if (/^(?:are|have|were|do)$/.test(w)) return "are";
  if (/^(?:is|has|was|does)$/.test(w)) return "is";
  if (!/^(?:can|cannot|may|will|must|might|could|should|would)$/.test(w) && !/ed$/.test(w))
    return /[^s]s$/.test(w) ? "is" : "are";
  return isPluralNoun(subject.replace(/^(?:the|a|an)\s+/i, "")) ? "are" : "is";
};
/**
 * The subject with the predicate denied ("xylem conducting cells" + "are alive at maturity" →
 * "xylem conducting cells are not alive at maturity"): what "unlike A, B …" says of A.
 */
export function denied(subject: string, predicate: string): string {
  const [first = "", ...rest] = stripEnd(predicate).split(/\s+/);
  const tail = rest.join(" ");
  const w = first.toLowerCase();
  const pl = numberOf(subject, predicate) === "are";
  if (w === "can") return `${subject} cannot ${tail}`;
  if (/^(?:is|are|was|were|will|must|should|could|may|might|would)$/.test(w))
    return `${subject} ${w} not ${tail}`;
  if (/^(?:has|have)$/.test(w)) return `${subject} ${pl ? "do" : "does"} not have ${tail}`;
  const base = pl ? stripEnd(predicate) : (pluralPredicate(stripEnd(predicate)) ?? stripEnd(predicate));
  return `${subject} ${pl ? "do" : "does"} not ${base}`;
}
/** A subject inside a sentence: its asides dropped ("(also called skototropism)"), lower-cased unless a name. */
const inner = (subject: string) => {
  const s = subject.replace(/\s*\([^)]*\)/g, "");
  return /^\S+\s+\p{Lu}/u.test(s) ? s : lower(s);
};
const PRONOUN = /\b(?:it|its|they|them|their|this|these|those)\b/i;

/** What the text states of each side, as a sentence ("Unlike A, B …" says only B's feature). */
const stated = (c: IWideContrast) =>
  c.scene
    ? `In ${inner(c.a)}, ${stripEnd(c.pa)}; in ${inner(c.b)}, ${stripEnd(c.pb)}.`
    : c.unlike
      ? `Unlike ${inner(c.a)}, ${inner(c.b)} ${stripEnd(c.pb)}.`
      : `${capital(c.a)} ${stripEnd(c.pa)}, whereas ${inner(c.b)} ${stripEnd(c.pb)}.`;

const wideOf = new WeakMap<IKnowledge, IWideContrast[]>();
/**
 * The stated contrasts of the selection: "whereas / unlike" (shared with the swap claims) and the
 * wave-14 wordings ("…, but …", "… but not in …", "… is called X, whereas one … is called Y",
 * "In contrast, …").
 */
export function allContrasts(kb: IKnowledge): IWideContrast[] {
  let hit = wideOf.get(kb);
  if (!hit) {
    const base: IWideContrast[] = contrastsOf(kb);
    const known = new Set(base.map((c) => c.sentence));
    hit = [...base, ...extractWideContrasts(kb.sentences).filter((c) => !known.has(c.sentence))];
    wideOf.set(kb, hit);
  }
  return hit;
}

/** The kind two contrasted things share: their common head words, else the kind the sentence names. */
const kindOf = (c: IWideContrast) => sharedKind(c.a, c.b, c.scene ? "is" : c.pb) ?? c.kind ?? null;

/** The words that set a subject apart from the other ("xylem" in "xylem conducting cells"). */
const ownWords = (mine: string, other: string) => {
  const o = new Set(WORDS(other));
  return WORDS(mine).filter((w) => !o.has(w) && w.length > 2);
};

/**
 * A further sentence of the selection on one of the two (naming what sets it apart), that stands
 * alone: the second source an answer must combine with the stated difference.
 */
export function furtherOn(
  env: Pick<IFormEnv, "kb" | "used">,
  c: IContrast,
): { side: "a" | "b"; s: ISentence } | null {
  const sides: ["a" | "b", string[]][] = [
    ["a", ownWords(c.a, c.b)],
    ["b", ownWords(c.b, c.a)],
  ];
  for (const s of env.kb.sentences) {
    if (!s.standalone || s.sideBox || s.text === c.sentence || s.text === c.second || env.used.has(s.text))
      continue;
    if (
      LEANS_ON_CONTEXT.test(s.text) ||
      needsContext(s.text) ||
      /^\s*(?:it|they|this|these|those|such)\b/i.test(s.text)
    )
      continue;
    const n = s.text.split(/\s+/).length;
    if (n < 6 || n > 32) continue;
    const ws = new Set(WORDS(s.text));
    // About one side only: naming both would be the comparison again.
    const hits = sides.filter(([, own]) => own.length > 0 && own.every((w) => ws.has(w)));
    if (hits.length === 1) return { side: hits[0]![0], s };
  }
  return null;
}

/**
 * "… whereas B …" rules out A's feature for B only when both say the same kind of thing: the same
 * verb and a shared content word ("exhibit negative / positive gravitropism", "have a thick / thin
 * cell wall"); "is permeable to small molecules" / "is impermeable to ions" can both hold.
 */
export function parallel(pa: string, pb: string): boolean {
  const [va, ...ra] = WORDS(pa);
  const [vb, ...rb] = WORDS(pb);
  if (!va || va !== vb) return false;
  const sb = new Set(contentWords(rb.join(" ")).map(stem));
  return contentWords(ra.join(" ")).some((w) => sb.has(stem(w)));
}

const src = (c: IContrast) => [
  { chunkKey: c.chunkKey, quote: c.sentence },
  ...(c.second ? [{ chunkKey: c.chunkKey, quote: c.second }] : []),
];

/** Contrasts between two things of one kind, not used by the set yet. */
function kindred(env: IFormEnv, id: string): { c: IWideContrast; kind: string }[] {
  const all = allContrasts(env.kb);
  if (all.length === 0) env.trace?.("no stated contrast (A …, whereas B …; unlike A, B …)");
  const out: { c: IWideContrast; kind: string }[] = [];
  for (const c of all) {
    if (env.used.has(c.sentence) || env.used.has(formUseKey(id, c.sentence))) {
      env.trace?.("contrast already used in the set");
      continue;
    }
    if (PRONOUN.test(`${c.a} ${c.b}`)) continue;
    const kind = kindOf(c);
    if (!kind) {
      env.trace?.("the two contrasted share no kind word (or only a broad one)");
      continue;
    }
    out.push({ c, kind });
  }
  return out;
}

/** Understand, written: tell two stated counterparts apart, from the contrast and one more sentence. */
export const explainDifference: IForm = {
  id: "explain-difference",
  fits: (type, level) => type !== "mcq" && level === "Understand",
  available: (kb) => allContrasts(kb).filter((c) => kindOf(c)).length,
  *build(env) {
    const long = env.slot.type === "long";
    for (const { c, kind } of kindred(env, "explain-difference")) {
      const more = furtherOn(env, c);
      if (!more) {
        env.trace?.("no further sentence on either of the two");
        continue;
      }
      const who = more.side === "a" ? c.a : c.b;
      const further = stripEnd(more.s.text);
      const aFeature = c.unlike ? `does not share this: ${inner(c.b)} ${stripEnd(c.pb)}` : stripEnd(c.pa);
      const q = written(env, {
        prompt: `${capital(inner(c.a))} and ${inner(c.b)} are both ${kind}. Explain how they differ${long ? ", and describe one further feature of one of them" : ""}.`,
        answer: `${stated(c)} ${capital(further)}.`,
        points: [
          c.scene
            ? { point: `In ${inner(c.a)}: ${clip(stripEnd(c.pa), 120)}` }
            : c.unlike
              ? { point: `States that ${inner(c.b)} ${clip(stripEnd(c.pb), 120)}` }
              : { point: `${capital(inner(c.a))}: ${clip(aFeature, 120)}` },
          c.scene
            ? { point: `In ${inner(c.b)}: ${clip(stripEnd(c.pb), 120)}` }
            : c.unlike
              ? { point: `States that ${denied(inner(c.a), c.pb)}` }
              : { point: `${capital(inner(c.b))}: ${clip(stripEnd(c.pb), 120)}` },
          {
            point: `Adds a further feature of ${inner(who)}: ${clip(lower(further), 130)}`,
            weight: long ? 2 : 1,
          },
        ],
        keywords: keywords([c.a, c.b, c.pa, c.pb, more.s.text]),
        sources: [...src(c), { chunkKey: more.s.chunkKey, quote: more.s.text }],
      });
      if (q) yield q;
    }
  },
};

/** Evaluate, written: a student's over-general claim about a kind, judged with the stated counterexample. */
export const judgeGeneralisation: IForm = {
  id: "judge-generalisation",
  fits: (type, level) => type !== "mcq" && level === "Evaluate",
  available: (kb) => allContrasts(kb).filter((c) => !c.named && kindOf(c)).length,
  *build(env) {
    const long = env.slot.type === "long";
    for (const { c, kind } of kindred(env, "judge-generalisation")) {
      // "All mirrors curve inward" from a naming sentence is a strawman, not a generalisation.
      if (c.named) continue;
      if (c.scene) {
        const q = sceneClaim(env, c, kind, long);
        if (q) yield q;
        continue;
      }
      // The member whose feature the student gives to all, and the counterexample the text names.
      const [holds, feature, counter] = c.unlike ? [c.b, c.pb, c.a] : [c.a, c.pa, c.b];
      if (!c.unlike && !parallel(c.pa, c.pb)) {
        env.trace?.("the two features are not parallel (one may hold with the other)");
        continue;
      }
      const plural = pluralPredicate(stripEnd(feature));
      if (!plural || /^(?:can|may|might|could|cannot)\b/i.test(plural) || /\bnot\b/i.test(plural)) {
        env.trace?.("the feature does not read as a claim about all of the kind");
        continue;
      }
      const more = long ? furtherOn(env, c) : null;
      if (long && !more) {
        env.trace?.("long: no further sentence on either of the two");
        continue;
      }
      const claim = `All ${kind} ${plural}.`;
      const otherSide = c.unlike ? denied(inner(counter), feature) : `${inner(counter)} ${stripEnd(c.pb)}`;
      const q = written(env, {
        prompt: `A student claims: “${claim}” Evaluate the claim. Is the student right? Justify your answer with a counterexample${long ? ", and say how the claim should be corrected" : ""}; marks are for the justification.`,
        answer: `No. The claim over-generalises from ${inner(holds)} to all ${kind}. ${stated(c)} So ${inner(counter)} ${numberOf(counter, c.pb)} a counterexample (${otherSide}). The correct statement is narrower: it is ${inner(holds)} that ${stripEnd(feature)}.${more ? ` ${capital(stripEnd(more.s.text))}.` : ""}`,
        points: [
          {
            point: `Judges the claim wrong: it gives the feature of ${inner(holds)} to all ${kind}`,
          },
          {
            point: `Gives the counterexample from the text: ${clip(otherSide, 140)}`,
            weight: long ? 2 : 1,
          },
          {
            point: `Corrects the scope: it is ${inner(holds)} that ${clip(stripEnd(feature), 100)}, not all ${kind}`,
          },
          ...(more
            ? [
                {
                  point: `Supports it with a further feature from the text: ${clip(lower(stripEnd(more.s.text)), 120)}`,
                },
              ]
            : []),
        ],
        keywords: keywords([c.a, c.b, c.pa, c.pb]),
        sources: [...src(c), ...(more ? [{ chunkKey: more.s.chunkKey, quote: more.s.text }] : [])],
      });
      if (q) yield q;
    }
  },
};

/**
 * Evaluate, written, from a statement that holds in one setting and not its counterpart ("Kinetic
 * energy is conserved in an elastic collision, but not in an inelastic collision"): the student
 * gives it to every setting of the kind ("Kinetic energy is conserved in all collisions"), a
 * common over-generalisation; judged with the counterexample setting.
 */
function sceneClaim(env: IFormEnv, c: IWideContrast, kind: string, long: boolean) {
  const more = long ? furtherOn(env, c) : null;
  if (long && !more) {
    env.trace?.("long: no further sentence on either of the two");
    return null;
  }
  const claim = `In all ${kind}, ${stripEnd(c.pa)}.`;
  return written(env, {
    prompt: `A student claims: “${claim}” Evaluate the claim. Is the student right? Justify your answer with a counterexample${long ? ", and say how the claim should be corrected" : ""}; marks are for the justification.`,
    answer: `No. The claim over-generalises from ${inner(c.a)} to all ${kind}. In ${inner(c.b)}, ${stripEnd(c.pb)}, so ${inner(c.b)} is a counterexample. The correct statement is narrower: ${stripEnd(c.pa)} in ${inner(c.a)}.${more ? ` ${capital(stripEnd(more.s.text))}.` : ""}`,
    points: [
      { point: `Judges the claim wrong: what holds in ${inner(c.a)} is given to all ${kind}` },
      {
        point: `Gives the counterexample from the text: in ${inner(c.b)}, ${clip(stripEnd(c.pb), 120)}`,
        weight: long ? 2 : 1,
      },
      { point: `Corrects the scope: ${clip(stripEnd(c.pa), 100)} in ${inner(c.a)}, not in all ${kind}` },
      ...(more
        ? [
            {
              point: `Supports it with a further feature from the text: ${clip(lower(stripEnd(more.s.text)), 120)}`,
            },
          ]
        : []),
    ],
    keywords: keywords([c.a, c.b, c.pa, c.pb]),
    sources: [...src(c), ...(more ? [{ chunkKey: more.s.chunkKey, quote: more.s.text }] : [])],
  });
}
