import type { ISentence, ITerm } from "@/lib/generation/offline/knowledge";
import { headOf, pluralOf, sameConcept, termKey } from "@/lib/generation/offline/knowledge/lexicon";
import {
  capital,
  clip,
  type IForm,
  type IFormEnv,
  keywords,
  lower,
  mcq,
  NO_KIND,
  POSITION_ONLY,
  PRONOUN,
  sentence,
  stripEnd,
  written,
} from "./common";
import { LEANS_ON_CONTEXT } from "./recall";
import { ABOUT_NAMES } from "./relations";
import { comparable, namesSubject } from "./written-compare";

/** A heading's title case ("Long Bones") as the text writes the name ("long bones"); acronyms kept. */
const untitled = (name: string) =>
  /^\p{Lu}\p{Ll}+(?:[\s-]\p{Lu}\p{Ll}+)+$/u.test(name) ? name.toLowerCase() : name;

/**
 * Questions that ask for more than recall: distinguish two related terms (Understand), judge a
 * student's plausible claim — a reversed relationship, a denied cause, an over-generalised
 * statement — and justify the verdict (Evaluate), plan a fair test of a stated relationship
 * (Create).
 */

const be = (plural: boolean) => (plural ? "are" : "is");
const byRank = <T extends { chunkKey: string }>(env: Pick<IFormEnv, "kb">, items: readonly T[]) =>
  [...items].sort((a, b) => (env.kb.rank.get(a.chunkKey) ?? 99) - (env.kb.rank.get(b.chunkKey) ?? 99));

/** A passage sentence cut to its main idea, for a marking point (no asides, no trailing clauses). */
export function compress(s: string): string {
  let t = stripEnd(s)
    .replace(/\s*\([^)]*\)/g, "")
    .replace(
      /^(?:in addition|additionally|furthermore|moreover|also|however|therefore|thus|finally|first|second|third|next|then),?\s+/i,
      "",
    );
  if (t.split(/\s+/).length > 22)
    t = t.split(/,\s+(?:which|where|while|whereas|although|as well as)\b|;\s+/)[0]!;
  return t.trim();
}

const definedAsThing = (t: ITerm) =>
  !/^(?:\p{L}+ing|been|not)\b/iu.test(t.definition) && !/\b(?:whereas|while|unlike)\b|;/i.test(t.definition);

/** Pairs of terms defined in the passages that are the same kind of thing (the same genus or head). */
function siblingPairs(env: Pick<IFormEnv, "kb" | "trace">): [ITerm, ITerm][] {
  const terms = byRank(env, env.kb.terms);
  const out: [ITerm, ITerm][] = [];
  for (let i = 0; i < terms.length; i++)
    for (let j = i + 1; j < terms.length; j++) {
      const a = terms[i]!;
      const b = terms[j]!;
      if (sameConcept(a.term, b.term)) continue;
      if (POSITION_ONLY.test(a.term) || POSITION_ONLY.test(b.term)) {
        env.trace?.("a term is only a position or an order (outermost layer, first stage)");
        continue;
      }
      // Both defined as a noun phrase with no second clause ("a biomarker; whereas, …" and "are
      // using different biomarkers" are not definitions to set side by side).
      if (!definedAsThing(a) || !definedAsThing(b)) continue;
      const genus = a.genus && a.genus === b.genus && !NO_KIND.test(a.genus) ? a.genus : undefined;
      if (genus || (a.head === b.head && !NO_KIND.test(a.head))) out.push([a, b]);
    }
  return out;
}

/** Understand, written: tell two sibling terms apart by what the text says of each. */
export const compareTerms: IForm = {
  id: "compare-terms",
  fits: (type, level) => type !== "mcq" && level === "Understand",
  // Pairs, not terms: one defined term in the selection is no material for a comparison.
  available: (kb) => siblingPairs({ kb }).length,
  *build(env) {
    const pairs = siblingPairs(env);
    if (pairs.length === 0)
      env.trace?.(
        env.kb.terms.length < 2 ? "< 2 defined terms" : "no two defined terms share a genus or head",
      );
    for (const [a, b] of pairs) {
      if (env.used.has(a.sentence) && env.used.has(b.sentence)) {
        env.trace?.("both definitions already used in the set");
        continue;
      }
      const kind = a.genus && a.genus === b.genus && !NO_KIND.test(a.genus) ? a.genus : a.head;
      const long = env.slot.type === "long";
      const more = (t: ITerm) =>
        env.kb.sentences.find(
          (s) => s.standalone && s.text !== t.sentence && s.text.toLowerCase().includes(t.term.toLowerCase()),
        );
      const extraA = long ? more(a) : undefined;
      const extraB = long ? more(b) : undefined;
      if (long && !(extraA || extraB)) {
        env.trace?.("long: no further sentence on either term");
        continue;
      }
      const answer = [
        `${capital(a.term)} ${be(a.plural)} ${stripEnd(a.definition)}, whereas ${b.term} ${be(b.plural)} ${stripEnd(b.definition)}.`,
        ...(extraA ? [sentence(compress(extraA.text))] : []),
        ...(extraB ? [sentence(compress(extraB.text))] : []),
      ].join(" ");
      const points = [
        { point: `${capital(a.term)}: ${clip(stripEnd(a.definition), 140)}` },
        { point: `${capital(b.term)}: ${clip(stripEnd(b.definition), 140)}` },
        {
          point: `States the difference as a contrast (${a.term} … whereas ${b.term} …), not two separate definitions`,
        },
        ...(long ? [{ point: `A similarity: both are ${kind}s` }] : []),
        ...(extraA ? [{ point: `A further feature of ${a.term}: ${clip(compress(extraA.text), 120)}` }] : []),
        ...(extraB ? [{ point: `A further feature of ${b.term}: ${clip(compress(extraB.text), 120)}` }] : []),
      ];
      const q = written(env, {
        prompt: long
          ? `Compare and contrast ${a.term} and ${b.term}. Give one similarity and the main differences.`
          : `Distinguish between ${a.term} and ${b.term}.`,
        answer,
        points,
        keywords: keywords([a.term, b.term, a.definition, b.definition]),
        sources: [
          { chunkKey: a.chunkKey, quote: a.sentence },
          { chunkKey: b.chunkKey, quote: b.sentence },
          ...(extraA ? [{ chunkKey: extraA.chunkKey, quote: extraA.text }] : []),
          ...(extraB ? [{ chunkKey: extraB.chunkKey, quote: extraB.text }] : []),
        ],
      });
      if (q) yield q;
    }
  },
};

interface IMisconception {
  claim: string;
  /** Why it is wrong, as the correction a good answer gives. */
  correction: string;
  /** What the student confused. */
  error: string;
  truth: string;
  sources: { chunkKey: string; quote: string }[];
}

/** "Most/many/some X …" or "X usually …": a qualified statement a student might state as always true. */
const QUALIFIER = /^(most|many|some)\s+(?=\p{L})|\b(usually|often|generally|typically|normally|mostly)\b/giu;

/**
 * The over-general claim a student might make from a qualified statement ("Most stars are main
 * sequence stars" → "All stars are …"), with the qualifier it drops; null when the sentence is
 * not a plain qualified statement.
 */
export function overGeneral(text: string): { claim: string; qualifier: string } | null {
  const t = stripEnd(text);
  const words = t.split(/\s+/).length;
  if (words < 7 || words > 30 || /\b(?:not|no|never|all|always|every|only)\b|[%=?]/i.test(t)) return null;
  if (LEANS_ON_CONTEXT.test(t) || ABOUT_NAMES.test(t) || PRONOUN.test(t)) return null;
  const hits = [...t.matchAll(QUALIFIER)];
  if (hits.length !== 1) return null;
  const hit = hits[0]!;
  const word = (hit[1] ?? hit[2] ?? "").toLowerCase();
  if (hit[1]) {
    // "Most stars …": the quantifier opens the sentence and a plural noun follows.
    const rest = t.slice(hit[0].length);
    if (/^of\b/i.test(rest)) return null;
    return { claim: `All ${rest}.`, qualifier: word };
  }
  const at = hit.index ?? 0;
  if (at < 8) return null;
  // "exist mostly in the mesophyll" → "exist only in …"; "usually divide" → "always divide".
  const strong = word === "mostly" ? "only" : "always";
  return {
    claim: `${capital(t.slice(0, at).trimEnd())} ${strong}${t.slice(at + hit[0].length)}.`,
    qualifier: word,
  };
}

/** Plausible misconceptions: a reversed relationship, a denied stated fact, an over-generalised statement. */
function misconceptions(env: IFormEnv): IMisconception[] {
  const out: IMisconception[] = [];
  for (const r of env.kb.monotonic) {
    if (env.used.has(r.sentence)) continue;
    const wrong = r.sign > 0 ? "decreases" : "increases";
    out.push({
      claim: `As ${r.x} increases, ${r.y} ${wrong}.`,
      error: "The student has reversed the direction of the relationship.",
      correction: `As ${r.x} increases, ${r.y} ${r.sign > 0 ? "increases" : "decreases"}.`,
      truth: sentence(r.sentence),
      sources: [{ chunkKey: r.chunkKey, quote: r.sentence }],
    });
  }
  // Not a stated fact with "not" put in ("Friction does not vary from surface to surface"): round 8
  // readers rejected all three as recall labelled Evaluate (the claim is the passage negated, the
  // answer quotes it back).
  // Not "usually" → "always" (round 5–6 readers: spotting the qualifier and quoting the text is
  // recall, not evaluation): no over-generalised claim is offered (`overGeneral` only reads one).
  return out;
}

export const judgeClaim: IForm = {
  id: "judge-claim",
  // MCQs only: the written "reversed direction" claim was read in rounds 10, 11 and 12 and rejected
  // 5 of 6 times as recall labelled Evaluate (the justification is the stated sentence quoted back).
  fits: (type, level) => type === "mcq" && level === "Evaluate",
  // Only stated directions make a claim here (the terms and causes made none: the planner read
  // material where the form could write nothing).
  available: (kb) => kb.monotonic.length,
  *build(env) {
    const claims = misconceptions(env);
    if (claims.length === 0)
      env.trace?.(
        env.kb.monotonic.length === 0
          ? "no stated direction (as x increases, y …)"
          : "every stated direction already used",
      );
    for (const m of claims) {
      if (env.slot.type === "mcq") {
        const others = misconceptions(env).filter((o) => o.claim !== m.claim);
        const q = mcq(env, {
          prompt: `A student claims: “${stripEnd(m.claim)}.” Which response best evaluates the claim?`,
          key: { text: `The claim is incorrect: ${lower(stripEnd(m.correction))}.` },
          distractors: [
            {
              text: `The claim is correct: ${lower(stripEnd(m.claim))}.`,
              rationale: `Accepts the claim without checking it against the text. ${m.error}`,
            },
            {
              text: "The claim cannot be judged without further experiments.",
              rationale: "Overlooks that the text already gives the evidence that settles the claim.",
            },
            ...(others[0]
              ? [
                  {
                    text: `The claim is incorrect: ${lower(stripEnd(others[0].correction))}.`,
                    rationale:
                      "Rejects the claim for a reason that is about something else, not this claim's error.",
                  },
                ]
              : []),
          ],
          explanation: `${m.error} ${m.correction}${m.truth ? ` Evidence: ${m.truth}` : ""}`,
          sources: m.sources,
        });
        if (q) yield q;
        continue;
      }
      const long = env.slot.type === "long";
      const q = written(env, {
        prompt: `A student claims: “${stripEnd(m.claim)}.” Evaluate this claim. ${long ? "Identify the error, correct it, and support your answer with evidence." : "Is the student right? Justify your answer; marks are for the justification."}`,
        answer: `The claim is incorrect. ${m.error} The text states: ${m.truth || sentence(m.sources[0]!.quote)}${m.truth || m.correction === sentence(m.sources[0]!.quote) ? "" : ` So: ${m.correction}`}`,
        // Marks go to the justification: "incorrect" alone earns nothing.
        points: [
          { point: `Judges the claim incorrect and names the error: ${lower(stripEnd(m.error))}` },
          {
            point: `Justifies with what the text states: ${clip(stripEnd(m.truth || m.sources[0]!.quote), 150)}`,
          },
          { point: `Gives the corrected statement: ${lower(stripEnd(m.correction))}` },
          ...(long
            ? [
                {
                  point:
                    "Explains why the evidence settles it (the stated relationship or cause rules the claim out), with an example or a case the claim gets wrong",
                  weight: 2,
                },
              ]
            : []),
        ],
        keywords: keywords([m.correction, m.truth]),
        sources: m.sources,
      });
      if (q) yield q;
    }
  },
};

/**
 * What the passages say about a concept as its subject: the rest of the first standalone
 * sentence that opens with it ("connective tissue" → "binds the cells and organs of the body
 * together"), with the sentence to cite.
 */
const describable = new WeakMap<object, ISentence[]>();
/** Standalone sentences of the lesson that do not lean on their neighbours, once per knowledge base. */
function describableSentences(env: IFormEnv): ISentence[] {
  let list = describable.get(env.kb);
  if (!list) {
    list = env.kb.sentences.filter((s) => s.standalone && !s.sideBox && !LEANS_ON_CONTEXT.test(s.text));
    describable.set(env.kb, list);
  }
  return list;
}

function featureOf(env: IFormEnv, name: string): { predicate: string; sentence: ISentence } | null {
  const n = name.toLowerCase();
  const usable = describableSentences(env).filter((s) => !env.used.has(s.text));
  for (const s of usable) {
    const t = s.text.toLowerCase();
    const lead = t.startsWith(`the ${n} `) ? 4 : t.startsWith(`${n} `) ? 0 : -1;
    if (lead < 0) continue;
    const predicate = compress(s.text.slice(lead + n.length).trim());
    if (predicate.split(/\s+/).length < 4 || PRONOUN.test(predicate)) continue;
    // The name must be the whole subject: "Bone renewal continues …" is about renewal, not bone.
    if (!namesSubject(s.text, name)) continue;
    return { predicate, sentence: s };
  }
  return null;
}

/** The kind a group of siblings shares, plural: the head noun most of them share ("… tissue"). */
function kindOf(names: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const h of names.map((n) => headOf(n))) counts.set(h, (counts.get(h) ?? 0) + 1);
  const [top, n] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? ["", 0];
  return top.length > 2 && n >= Math.ceil(names.length / 2) && n >= 2 && !GENERIC_KIND.test(top)
    ? pluralOf(top)
    : null;
}

const GENERIC_KIND = /^(?:cell|thing|part|type|kind|form|way|process|structure|molecule|factor|group)$/;

/** Sibling groups of the passages: lists the text states, members that the passages describe. */
function siblingGroups(
  env: IFormEnv,
): { kind: string; members: { name: string; predicate: string; sentence: ISentence }[] }[] {
  const out: { kind: string; members: { name: string; predicate: string; sentence: ISentence }[] }[] = [];
  const seen = new Set<string>();
  // Lower-case names from the text before title-case headings ("connective tissues", not "Connective Tissues").
  const ordered = [...env.kb.concepts].sort(
    (a, b) => Number(a.source === "heading") - Number(b.source === "heading"),
  );
  const names = new Map<string, string>();
  for (const c of ordered) if (!names.has(termKey(c.name))) names.set(termKey(c.name), c.name);
  for (const [key, sibs] of env.kb.links.siblings) {
    const group = [key, ...sibs].filter((k) => names.has(k)).sort();
    const id = group.join("|");
    if (group.length < 3 || seen.has(id)) {
      if (!seen.has(id)) env.trace?.("sibling group of < 3 named terms");
      continue;
    }
    seen.add(id);
    const described = group
      .map((k) => ({ name: names.get(k)!, feature: featureOf(env, names.get(k)!) }))
      .filter(
        (m): m is { name: string; feature: NonNullable<ReturnType<typeof featureOf>> } => m.feature !== null,
      )
      .map((m) => ({ name: m.name, predicate: m.feature.predicate, sentence: m.feature.sentence }));
    const kind = kindOf(group.map((k) => names.get(k)!));
    // A member that is the kind itself ("bone" beside "irregular bones") is no sibling.
    const ofKind = described.filter(
      (m) => kind && pluralOf(headOf(m.name)) === kind && termKey(m.name) !== termKey(headOf(m.name)),
    );
    if (ofKind.length >= 2 && kind) out.push({ kind, members: ofKind });
    else
      env.trace?.(
        !kind
          ? "siblings share no head noun (no kind)"
          : described.length < 2
            ? "< 2 siblings with a sentence opening with their name"
            : "< 2 described siblings of the kind",
      );
  }
  return out;
}

/** Remember, written: name the members of a group the text lists and say what each is or does. */
export const nameAndDescribe: IForm = {
  id: "name-and-describe",
  fits: (type, level) => type !== "mcq" && level === "Remember",
  available: (kb) => kb.links.siblings.size,
  *build(env) {
    const want = env.slot.type === "long" ? 3 : 2;
    for (const g of siblingGroups(env)) {
      const members = g.members.slice(0, want);
      if (members.length < want) continue;
      const q = written(env, {
        prompt: `Name ${members.length === 2 ? "two" : "three"} ${g.kind} and state one feature of each.`,
        answer: members.map((m) => `${capital(m.name)} ${stripEnd(m.predicate)}.`).join(" "),
        points: members.flatMap((m) => [
          { point: `Names ${m.name}`, weight: 1 },
          ...(env.slot.marks > members.length
            ? [{ point: `States that ${m.name} ${clip(stripEnd(m.predicate), 110)}`, weight: 1 }]
            : []),
        ]),
        keywords: members.map((m) => m.name),
        sources: members.map((m) => ({ chunkKey: m.sentence.chunkKey, quote: m.sentence.text })),
      });
      if (q) yield q;
    }
  },
};

/**
 * Understand, written: two members of one group, told apart by what the passages say of each.
 * Readers put "distinguish between" at Understand (explaining a difference the text states).
 */
export const contrastSiblings: IForm = {
  id: "contrast-siblings",
  fits: (type, level) => type !== "mcq" && level === "Understand",
  available: (kb) => kb.links.siblings.size,
  *build(env) {
    for (const g of siblingGroups(env)) {
      // Two members whose stated features say the same kind of thing ("are bones with complex
      // shapes" / "lengthen as chondrocytes divide" tell nothing apart), named as the text does.
      const side = (m: (typeof g.members)[number]) => ({
        name: m.name,
        feature: m.predicate,
        sentence: m.sentence,
        defined: false,
      });
      const pair = g.members
        .flatMap((x, i) => g.members.slice(i + 1).map((y) => [x, y] as const))
        .find(([x, y]) => comparable(side(x), side(y)));
      if (!pair) {
        env.trace?.("contrast: no two members with features of one kind");
        continue;
      }
      const [a, b] = pair.map((m) => ({ ...m, name: untitled(m.name) }));
      if (!a || !b) continue;
      const long = env.slot.type === "long";
      const q = written(env, {
        prompt: long
          ? `Compare and contrast ${a.name} and ${b.name}: what do they have in common, and how do they differ?`
          : `Distinguish between ${a.name} and ${b.name}.`,
        answer: `Both are ${g.kind}. ${capital(a.name)} ${stripEnd(a.predicate)}, whereas ${b.name} ${stripEnd(b.predicate)}.`,
        points: [
          { point: `${capital(a.name)}: ${clip(stripEnd(a.predicate), 120)}` },
          { point: `${capital(b.name)}: ${clip(stripEnd(b.predicate), 120)}` },
          { point: `States the difference as a contrast (${a.name} … whereas ${b.name} …)` },
          ...(long ? [{ point: `A similarity: both are ${g.kind}`, weight: 2 }] : []),
        ],
        keywords: [a.name, b.name, ...keywords([a.predicate, b.predicate], 4)],
        sources: [
          { chunkKey: a.sentence.chunkKey, quote: a.sentence.text },
          { chunkKey: b.sentence.chunkKey, quote: b.sentence.text },
        ],
      });
      if (q) yield q;
    }
  },
};
