import nlp from "compromise";
import type { ICausal, IMonotonic } from "@/lib/generation/offline/knowledge";
import { linkedCausesOf } from "@/lib/generation/offline/knowledge/causes";
import { analyseWorkedExample, problemFrom } from "@/lib/generation/offline/knowledge/numeric";
import { isFullClause } from "@/lib/generation/offline/knowledge/relations";
import { contentWords, stem } from "@/lib/text/tokenize";
import {
  capital,
  clip,
  type IForm,
  type IFormEnv,
  keywords,
  lower,
  mcq,
  sentence,
  stripEnd,
  written,
} from "./common";
import { reverseClause } from "./statements";

/**
 * Questions about stated relationships: assertion–reason (Analyze: relate a cause to its effect),
 * and predicting a change the text does not state from a relationship it does (Apply).
 */

const HEDGE =
  /\b(?:often|usually|sometimes|may|might|some|many|most|generally|typically|probably|likely|only|just|at least|also|instead|either|neither|can be|tend)\b/i;

/**
 * The clause made false by negating its one verb ("are sterile" → "are not sterile"), or null
 * when that would not clearly be false (hedged, several verbs, already negative).
 */
export function falsify(clause: string): string | null {
  const text = stripEnd(clause);
  if (HEDGE.test(text) || /\b(?:not|no|never|cannot|n't)\b/i.test(text)) return null;
  const doc = nlp(text);
  const verbs = doc.verbs();
  if (verbs.length !== 1) return null;
  verbs.toNegative();
  const out = doc.text().trim();
  return out !== text && /\bnot\b|n't\b/.test(out) ? out : null;
}

const PRONOUN = /\b(?:it|its|they|them|their|this|these|those|he|she)\b/i;
/** Statements about what things are called, not about the subject. */
export const ABOUT_NAMES =
  /\b(?:named?|called|term|terms|refers?|known as|scientists|researchers|word|means)\b/i;

const AR_OPTIONS = [
  "Both A and R are true, and R is the correct explanation of A.",
  "Both A and R are true, but R is not the correct explanation of A.",
  "A is true, but R is false.",
  "A is false, but R is true.",
];

const stemsOf = (s: string) => new Set(contentWords(s).map(stem));
const shares = (a: string, b: string) => {
  const sb = stemsOf(b);
  return [...stemsOf(a)].filter((s) => sb.has(s)).length;
};

/**
 * Why option `chosen` is wrong when `key` is right, naming the first wrong belief it holds: about
 * A's truth, then R's truth, then whether R explains A.
 */
function arRationale(chosen: number, key: number, c: ICausal, shownReason: string): string {
  const effect = lower(stripEnd(c.effect));
  const cause = lower(stripEnd(c.cause));
  // R as shown: with key B it is another true statement, not the stated cause (rounds 8–11
  // readers: "the rationale for C talks about the cause, not R").
  const reason = key === 1 ? lower(stripEnd(shownReason)) : cause;
  const aTrue = key !== 3;
  const rTrue = key !== 2;
  const saysATrue = chosen !== 3;
  const saysRTrue = chosen !== 2;
  if (saysATrue && !aTrue) return `Takes A as true, but the text states the opposite: ${effect}.`;
  if (!saysATrue && aTrue) return `Takes A as false, but the text states that ${effect}.`;
  if (saysRTrue && !rTrue) return `Takes R as true, but the text states the opposite: ${cause}.`;
  if (!saysRTrue && rTrue) return `Takes R as false, but the text states that ${reason}.`;
  if (chosen === 1) return `Misses the causal link: the text gives ${cause} as the reason that ${effect}.`;
  return `Assumes a true statement on the topic must explain A; the text's reason is that ${cause}.`;
}

function arPrompt(a: string, r: string): string {
  return `Assertion (A): ${sentence(a)}\nReason (R): ${sentence(r)}\nChoose the correct option.`;
}

/**
 * Words that make a sentence a reason, a consequence or an effect itself: such an R might be part
 * of A's explanation ("Angiotensin II raises blood pressure by constricting blood vessels" beside
 * "The kidneys control blood pressure"), so it is never the unexplaining R of key B.
 */
const CAUSAL_WORDING =
  /\b(?:because|since|so|therefore|thus|hence|caus(?:e|es|ed|ing)|due|result(?:s|ed|ing)?|leads?|led|allows?|enables?|prevents?|reasons?|why|explains?|responsible|consequen\w*|drives?|produces?|makes?|affects?|depends?|effects?|influenc\w*|increas\w*|decreas\w*|raises?|lowers?|reduces?|stimulat\w*|inhibit\w*|controls?|regulat\w*|triggers?|promotes?|by [a-z]+ing)\b/i;

/**
 * A true statement on the same topic that does not explain the assertion (for option B): a defined
 * term's sentence, else a lesson sentence of the passages that shares a content word with A and
 * none with the stated cause, states no cause or consequence of its own, and reads on its own.
 */
export function unrelatedTruth(env: IFormEnv, c: ICausal): string | null {
  // On A's topic, but sharing nothing with the stated cause: it must not explain A too.
  const fits = (text: string) =>
    text !== c.sentence &&
    !c.sentence.includes(text) &&
    shares(text, c.effect) >= 1 &&
    shares(text, c.cause) === 0;
  const fromTerms = env.kb.terms.map((t) => t.sentence).find(fits);
  if (fromTerms) return fromTerms;
  const fromLesson = env.kb.sentences.find(
    (s) =>
      s.standalone &&
      !s.sideBox &&
      !env.used.has(s.text) &&
      fits(s.text) &&
      // A lesson sentence must be about A's matter, not one shared word ("change", "organism").
      shares(s.text, c.effect) >= 2 &&
      !/\d/.test(s.text) &&
      !PRONOUN.test(s.text) &&
      !HEDGE.test(s.text) &&
      !ABOUT_NAMES.test(s.text) &&
      !CAUSAL_WORDING.test(s.text) &&
      !/[;:()]/.test(s.text) &&
      isFullClause(stripEnd(s.text)),
  );
  return fromLesson?.text ?? null;
}

const DANGLING =
  /\b(?:especially|particularly|mainly|largely|partly|also|even|only|and|or|but|as|of|to|the|a|an|when|if|because)$/i;

/**
 * A half as the book writes its first word: "Therefore, tRNAs are …" gives "TRNAs are …" from
 * the cause reader; the sentence's own "tRNAs" is put back (then `capital` leaves it alone).
 */
export function asWritten(half: string, sentence: string): string {
  const first = /^\S+/.exec(half)?.[0] ?? "";
  const own = first.charAt(0).toLowerCase() + first.slice(1);
  return own !== first && /^\p{Ll}+\p{Lu}/u.test(own) && sentence.includes(own)
    ? own + half.slice(first.length)
    : half;
}

/** Causes worth asking about: no pronoun leaning on the other half, not about what things are called. */
export function usableCauses(env: IFormEnv): ICausal[] {
  const seen = new Set(env.kb.causal.map((c) => c.sentence));
  // The main reader's causes, then those stated across two sentences it does not read
  // ("S1. This is because S2.", "S1. This is why S2.").
  const linked = linkedCausesOf(env.kb.sentences).filter((c) => !seen.has(c.sentence));
  return [...env.kb.causal, ...linked]
    .filter(
      (c) =>
        !env.used.has(c.sentence) &&
        !PRONOUN.test(c.effect) &&
        !PRONOUN.test(c.cause) &&
        !ABOUT_NAMES.test(c.effect) &&
        // One sentence without a causal connective ("the large numbers of land animals … result in
        // increased carbon dioxide levels"): a noun phrase each side, neither reads as A or R.
        (c.across || /\b(?:because|since|so|therefore|thus|hence|consequently)\b/i.test(c.sentence)) &&
        !/^[a-z]+ed\b/.test(c.effect.trim()) &&
        // "The urea cycle is also referred to as the ornithine cycle": a name, not an effect.
        !/\breferred to as\b/i.test(c.effect) &&
        // A half cut before its end ("… received much support, especially") is a fragment.
        !DANGLING.test(stripEnd(c.effect)) &&
        !DANGLING.test(stripEnd(c.cause)) &&
        // "A faulty protein that plays a key role …" (from "… gives rise to …") is no statement:
        // a verb only inside a relative clause is not the effect's own.
        nlp(c.effect.replace(/\b(?:that|which|who|whose)\b.*$/i, "")).verbs().found &&
        // Numbers belong to a worked example's set-up ("100 excess protons"), not to a principle.
        !/\d/.test(c.sentence),
    )
    .sort((a, b) => (env.kb.rank.get(a.chunkKey) ?? 99) - (env.kb.rank.get(b.chunkKey) ?? 99));
}

function arQuestion(env: IFormEnv, c: ICausal, v: { keyIndex: number; assertion: string; reason: string }) {
  const why = [
    `The text gives the reason: “${clip(c.sentence, 220)}” So R explains A.`,
    `Both are true, but R does not say why ${lower(stripEnd(c.effect))}; the text's reason is that ${lower(stripEnd(c.cause))}.`,
    `A is true, but R reverses what the text states: ${lower(stripEnd(c.cause))}.`,
    `A reverses what the text states (${lower(stripEnd(c.effect))}); R is true.`,
  ][v.keyIndex]!;
  const rationales = [0, 1, 2, 3]
    .filter((i) => i !== v.keyIndex)
    .map((i) => arRationale(i, v.keyIndex, c, v.reason));
  return mcq(env, {
    prompt: arPrompt(v.assertion, v.reason),
    key: { text: AR_OPTIONS[v.keyIndex]! },
    distractors: [],
    explanation: why,
    sources: [{ chunkKey: c.chunkKey, quote: c.sentence }],
    fixed: { options: AR_OPTIONS, keyIndex: v.keyIndex, rationales },
  });
}

/**
 * Analyze: assertion–reason where A and R are different statements, so the student has to relate
 * two ideas: a consequence and the separate sentence the text gives as its cause ("S1. Therefore,
 * S2."), or a true statement on the same topic that does not explain A (key B). Reason and
 * assertion cut from one "because" sentence read as Understand (readers: 20 of 21), and a reason
 * made false with "not" as Remember; those variants are not offered at this level.
 */
export const assertionReason: IForm = {
  id: "assertion-reason",
  fits: (type, level) => type === "mcq" && level === "Analyze",
  available: (kb) =>
    kb.causal.filter((c) => c.across).length +
    linkedCausesOf(kb.sentences).length +
    (kb.causal.length > 0 ? Math.max(kb.terms.length, 1) : 0),
  *build(env) {
    const usable = usableCauses(env);
    if (usable.length === 0)
      env.trace?.(
        env.kb.causal.length > 0
          ? "every stated cause has a pronoun, a number, or is about names"
          : "no stated cause",
      );
    for (const c of usable) {
      const a = capital(stripEnd(asWritten(c.effect, c.sentence)));
      const r = capital(stripEnd(asWritten(c.cause, c.sentence)));
      const other = unrelatedTruth(env, c);
      // A or R made false only by reversing a stated direction or quality (never "not"), and only
      // when cause and effect are two sentences: one "because" sentence is never split into A and R.
      const flip = (text: string) => reverseClause(`${text}.`, c.chunkKey);
      const falseR = c.across ? flip(r) : null;
      const falseA = c.across ? flip(a) : null;
      const variants = [
        ...(c.across ? [{ keyIndex: 0, assertion: a, reason: r }] : []),
        ...(other ? [{ keyIndex: 1, assertion: a, reason: capital(stripEnd(other)) }] : []),
        ...(falseR ? [{ keyIndex: 2, assertion: a, reason: capital(stripEnd(falseR.text)) }] : []),
        ...(falseA ? [{ keyIndex: 3, assertion: capital(stripEnd(falseA.text)), reason: r }] : []),
      ];
      // The set's keys spread over A–D: the variant keyed where the set wants its key goes first.
      variants.sort((x, y) => Number(y.keyIndex === env.keyAt % 4) - Number(x.keyIndex === env.keyAt % 4));
      if (variants.length === 0)
        env.trace?.("cause and effect in one sentence, and no unrelated true statement on A's topic");
      for (const v of variants) {
        const q = arQuestion(env, c, v);
        if (q) yield q;
      }
    }
  },
};

const bare = (np: string) => np.replace(/^the\s+/i, "");
/** "as x increases", "the higher the x", "y decreases with x", "proportional to", "depends on". */
const RELATION_WORDING =
  /\b(?:as|when|if) [^,]{3,60} (?:increases?|decreases?|rises?|falls?|drops?)\b|\bthe (?:higher|lower|greater|smaller|larger|more|less|faster|slower) [^,]{2,40},? the\b|\b(?:increases?|decreases?|rises?|falls?) with\b|\bproportional to\b|\bdepends? on\b|\b(?:high|low)(?:er)? (?:levels?|concentrations?|temperatures?) of\b/i;
const change = (sign: 1 | -1) => (sign > 0 ? "increases" : "decreases");

/**
 * Apply: predict the change the text does not state. The text says "as x increases, y decreases";
 * the question decreases x and asks what happens to y, so the answer is not in the text's words.
 */
function predictPrompt(r: IMonotonic): { prompt: string; answer: string; wrong: string[] } {
  const yName = bare(r.y);
  const answerSign = -r.sign as 1 | -1; // x is lowered
  return {
    prompt: `In an investigation, ${r.x} is lowered while everything else is kept the same. Predict how ${r.y} changes.`,
    answer: `${capital(yName)} ${change(answerSign)}`,
    wrong: [`${capital(yName)} ${change(-answerSign as 1 | -1)}`, `${capital(yName)} stays the same`],
  };
}

/**
 * A sentence as reported after "The text states that" (wave 12): without an opening list word or
 * connective ("Second, …", "Therefore, …") and without "Newton’s second law of motion states that"
 * (no "states that … states that").
 */
export function reported(sentence: string): string {
  return sentence
    .replace(/^(?:first|second|third|finally|therefore|thus|so|also|however|in general|similarly),\s+/i, "")
    .replace(/^[^,;:]{3,80}? (?:states|says|shows|tells us) that\s+/i, "");
}

export const predictChange: IForm = {
  id: "predict-change",
  fits: (_type, level) => level === "Apply",
  available: (kb) => kb.monotonic.length,
  *build(env) {
    // Diagnostics only: sentences worded like a relation that the relation reader did not take.
    if (env.trace && env.kb.monotonic.length === 0)
      for (const s of env.kb.sentences)
        if (
          !s.sideBox &&
          RELATION_WORDING.test(s.text) &&
          !env.kb.dependences.some((d) => d.sentence === s.text) &&
          !env.kb.effects.some((e) => e.sentence === s.text)
        )
          env.trace(
            `relations: worded like a relation, not read (${s.standalone ? "standalone" : "leans on its context"})`,
          );
    for (const r of env.kb.monotonic) {
      if (env.used.has(r.sentence)) {
        env.trace?.("relationship already used in the set");
        continue;
      }
      // "the cuticle reduces the rate of water loss": x is a thing, not a quantity to lower;
      // predict-effect asks it as the thing removed.
      if (env.kb.effects.some((e) => e.sentence === r.sentence)) {
        env.trace?.("x is a thing that acts, not a quantity (asked by predict-effect)");
        continue;
      }
      const p = predictPrompt(r);
      const relation = r.sign > 0 ? "rises and falls with" : "changes in the opposite direction to";
      const reason = `The text states that ${lower(stripEnd(reported(r.sentence)))}: ${r.y} ${relation} ${r.x}.`;
      if (env.slot.type === "mcq") {
        // Another relation of the same passage only: one from another topic ("GnRH production
        // increases only if the blood calcium level also changes") reads as a different kind of option.
        const other = env.kb.monotonic.find(
          (o) => o !== r && o.chunkKey === r.chunkKey && bare(o.y) !== bare(r.y) && bare(o.x) !== bare(r.x),
        );
        // Without a second stated relationship, the fourth option is a turn the stated one-way
        // relationship rules out (it was left empty for want of one: 2 of 2 on development sets).
        const fourth = other
          ? {
              text: `${capital(bare(r.y))} ${change(p.answer.endsWith("increases") ? 1 : -1)} only if ${bare(other.x)} also changes`,
              rationale: `Brings in ${other.x}, which the stated relationship does not involve.`,
            }
          : {
              text: `${capital(bare(r.y))} first increases, then decreases`,
              rationale: `The text states a one-way relationship: ${r.y} keeps changing in one direction as ${r.x} changes.`,
            };
        const q = mcq(env, {
          prompt: p.prompt,
          key: { text: p.answer },
          distractors: [
            {
              text: p.wrong[0]!,
              rationale: `Reverses the relationship: treats ${r.y} as ${r.sign > 0 ? "changing opposite to" : "rising and falling with"} ${r.x}.`,
            },
            {
              text: p.wrong[1]!,
              rationale: `Assumes ${r.y} does not depend on ${r.x}, but the text links them.`,
            },
            fourth,
          ],
          explanation: reason,
          sources: [{ chunkKey: r.chunkKey, quote: r.sentence }],
        });
        if (q) yield q;
        continue;
      }
      const q = written(env, {
        prompt: `${p.prompt} Explain your prediction.`,
        answer: `${p.answer}. ${capital(r.y)} ${relation} ${r.x}, so lowering ${r.x} ${r.sign > 0 ? "lowers" : "raises"} ${r.y}.`,
        points: [
          { point: `Predicts that ${lower(p.answer)}`, weight: 1 },
          { point: `Uses the relationship: ${r.y} ${relation} ${r.x}`, weight: 1 },
          { point: `Applies it to the lowered ${bare(r.x)} to conclude the direction of change`, weight: 1 },
        ],
        keywords: keywords([r.x, r.y, change(r.sign)]),
        sources: [{ chunkKey: r.chunkKey, quote: r.sentence }],
      });
      if (q) yield q;
    }
  },
};

/**
 * Apply: a textbook worked example posed again with new values, the answer computed through the
 * book's own verified steps, wrong options from typical slips (inverted ratio, a factor left out,
 * a unit prefix), and the worked solution as explanation or model answer.
 */
export const numericProblem: IForm = {
  id: "numeric-problem",
  fits: (_type, level) => level === "Apply",
  available: (kb) => kb.examples.length,
  *build(env) {
    for (const example of env.kb.examples) {
      const analysed = analyseWorkedExample(example);
      if (!analysed.ok) {
        env.trace?.(`worked example does not verify: ${analysed.reason.split(/[:(]/)[0]!.trim()}`);
        continue;
      }
      const p = problemFrom(analysed.analysis, env.random, env.slot.marks);
      if (!p) {
        env.trace?.("no new values with a sensible answer and three distinct slips");
        continue;
      }
      if (env.used.has(p.sourceQuote)) continue;
      const sources = [{ chunkKey: p.chunkKey, quote: p.sourceQuote }];
      if (env.slot.type === "mcq") {
        const q = mcq(env, {
          prompt: p.stem,
          key: { text: p.answer.text },
          distractors: p.distractors
            .slice(0, 3)
            .map((d) => ({ text: d.text, rationale: `${capital(stripEnd(d.slip))}.` })),
          explanation: `Worked solution: ${p.workedSolution.replace(/\n/g, "; ")}`,
          sources,
        });
        if (q) yield q;
        continue;
      }
      const q = written(env, {
        prompt: `${p.stem} Show your working.`,
        answer: p.workedSolution.replace(/\n/g, "; "),
        points: p.markingPoints.map((m) => ({ point: m.point, weight: m.marks })),
        keywords: [p.answer.text, ...(p.formula ? [p.formula] : [])],
        sources,
      });
      if (q) yield q;
    }
  },
};

const FACTOR_WORD: Record<number, string> = { 2: "doubled", 3: "tripled" };

/**
 * Understand: a stated proportion used once on a new change ("power is proportional to the
 * current": the current is doubled, so the power doubles). Only plain proportions ("directly /
 * inversely proportional to"), never a square or a product, so the factor is certain. Labelled
 * Apply until round 10, whose readers read it as Understand (reading the stated proportion).
 */
export const proportionRule: IForm = {
  id: "proportion-rule",
  fits: (type, level) => level === "Understand" && type !== "long",
  available: (kb) => kb.monotonic.filter((r) => r.proportional).length,
  *build(env) {
    for (const r of env.kb.monotonic) {
      if (!r.proportional || env.used.has(r.sentence)) continue;
      if (/\bsquared?\b|\bsquare of\b/i.test(r.sentence)) {
        // "proportional to its amplitude squared": the factor is not the plain one.
        env.trace?.("stated proportion is a square law");
        continue;
      }
      const how = r.sign > 0 ? "directly" : "inversely";
      const rule = `${capital(r.y)} is ${how} proportional to ${r.x}`;
      if (env.slot.type === "mcq") {
        // Options never repeat the stem's "doubled" (the gate reads a key echoing the stem as given away).
        const twice = "It becomes twice as large.";
        const half = "It becomes half as large.";
        const key = r.sign > 0 ? twice : half;
        const options = [
          {
            text: twice,
            rationale: "Treats the proportion as direct: doubling one doubles the other.",
          },
          {
            text: half,
            rationale: "Treats the proportion as inverse: doubling one halves the other.",
          },
          {
            text: "It stays the same.",
            rationale: `Assumes ${bare(r.y)} does not depend on ${bare(r.x)}, but the text relates them.`,
          },
          {
            text: "It becomes four times as large.",
            rationale: "Squares the factor, as for a square law; this proportion is plain, not squared.",
          },
        ];
        const q = mcq(env, {
          prompt: `If ${r.x} is doubled while everything else is kept the same, what happens to ${r.y}?`,
          key: { text: key },
          distractors: options.filter((o) => o.text !== key),
          explanation: `${rule}, so doubling ${bare(r.x)} ${r.sign > 0 ? "doubles" : "halves"} ${bare(r.y)}.`,
          sources: [{ chunkKey: r.chunkKey, quote: r.sentence }],
        });
        if (q) yield q;
        continue;
      }
      const factor = 2 + Math.floor(env.random() * 2);
      const result = r.sign > 0 ? `${factor} times as large` : `1/${factor} of its value`;
      const q = written(env, {
        prompt: `${capital(r.x)} is ${FACTOR_WORD[factor]} while everything else is kept the same. How does ${r.y} change? Explain your answer.`,
        answer: `${rule}, so when ${bare(r.x)} is ${FACTOR_WORD[factor]}, ${bare(r.y)} becomes ${result}.`,
        points: [
          { point: `States that ${lower(rule)}` },
          { point: `Applies the factor ${factor} to ${bare(r.y)} in the same (${how}) proportion` },
          { point: `Concludes that ${bare(r.y)} becomes ${result}` },
        ],
        keywords: keywords([r.x, r.y, "proportional"]),
        sources: [{ chunkKey: r.chunkKey, quote: r.sentence }],
      });
      if (q) yield q;
    }
  },
};
