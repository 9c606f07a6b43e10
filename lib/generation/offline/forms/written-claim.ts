import type { IKnowledge } from "@/lib/generation/offline/knowledge";
import { capital, clip, type IForm, type IFormEnv, keywords, lower, stripEnd, written } from "./common";
import { mechanisms } from "./written-explain";

/**
 * Evaluate, written: a student's claim made from a relation the passages state, changed so that
 * it is verifiably false — a stated dependence denied ("changing x has no effect on y"), cause and
 * effect swapped ("the loss of energy causes friction"), a direct proportion made inverse
 * ("doubling x halves y"). "Is the student right? Justify": the marks go to the justification
 * that cites the stated relation, not to "no".
 */

export interface IRelationClaim {
  claim: string;
  /** What the student got wrong. */
  error: string;
  /** The relation the text states, in words a justification can cite (the answer cites the sentence). */
  stated: string;
  /** The same relation in a few words, for the marking point. */
  relation: string;
  correction: string;
  chunkKey: string;
  sentence: string;
}

const bare = (np: string) => np.replace(/^the\s+/i, "");
/**
 * The stated sentence, as the justification cites it ("The text states that the maximum height
 * depends only on …"): the answer stands on the passage's own words, not on the template's (round
 * 14: 5 of 15 Physics development drafts failed the gate's support check on words such as "rises
 * and falls", "depends" where the book wrote "varies with").
 */
const VAGUE_FACTOR =
  /\b(?:means|factors?|variety|various|other|things?|ways?|conditions?|several|many|some|for|whether)\b/i;
/** "all sound resonances", "the rates of reactions": a plural head noun (the verb agrees with it). */
const pluralHead = (np: string) => {
  const ws = np.trim().split(/\s+/);
  const of = ws.indexOf("of");
  const head = (of > 0 ? ws[of - 1] : ws.at(-1)) ?? "";
  return /[^su]s$/i.test(head) && !/(?:ss|is|us)$/i.test(head);
};
const citing = (sentence: string) => `The text states that ${lower(stripEnd(sentence.trim()))}.`;

/** False claims from the passages' relations, most checkable first. */
export function relationClaims(kb: IKnowledge): IRelationClaim[] {
  const out: IRelationClaim[] = [];
  for (const d of kb.dependences) {
    // "… as well as hormones from reproductive tissues and organs": x cut from a long list.
    if (/\bas well as\b/i.test(d.sentence)) continue;
    for (const x of d.xs.slice(0, 2)) {
      // Nothing a student could change on purpose: "a variety of means", "other chemical factors",
      // "its host for survival" (round 14 reading: the gate had let none of these through before
      // the answer cited its sentence; they read as rejects).
      if (VAGUE_FACTOR.test(x) || x.split(/\s+/).length > 8) continue;
      out.push({
        claim: `Changing ${x} has no effect on ${d.y}.`,
        error: `Changing ${x} does have an effect on ${d.y}.`,
        stated: citing(d.sentence),
        relation: `${d.y} depends on ${x}`,
        correction: `Changing ${x} changes ${d.y}, when everything else is kept the same.`,
        chunkKey: d.chunkKey,
        sentence: d.sentence,
      });
    }
  }
  for (const m of mechanisms(kb)) {
    if (m.effectIsClause || (m.link !== "causes" && m.link !== "due to")) continue;
    const cause = lower(stripEnd(m.cause));
    const effect = lower(stripEnd(m.effect));
    if (cause.split(/\s+/).length > 7 || effect.split(/\s+/).length > 8) continue;
    out.push({
      claim: `The cause of ${cause} is ${effect.replace(/^all\s+/, "")}.`,
      error: "The student has swapped cause and effect.",
      stated: citing(m.sentence),
      relation: `${effect.replace(/^all\s+/i, "")} ${pluralHead(effect) ? "are" : "is"} ${m.link === "due to" ? "due to" : "caused by"} ${cause}`,
      correction: `${capital(effect)} ${pluralHead(effect) ? "are" : "is"} ${m.link === "due to" ? "due to" : "caused by"} ${cause}, not the other way round.`,
      chunkKey: m.chunkKey,
      sentence: m.sentence,
    });
  }
  for (const r of kb.monotonic) {
    if (r.proportional) continue;
    // A prediction the stated direction rules out: judging it means applying the relation to the
    // changed case, then weighing the claim against it (not spotting one swapped word).
    const x = bare(r.x);
    const y = bare(r.y);
    const wrong = r.sign > 0 ? "increase" : "decrease";
    const right = r.sign > 0 ? "decrease" : "increase";
    out.push({
      claim: `Reducing the ${x} will make the ${y} ${wrong}, because the two always change in ${r.sign > 0 ? "opposite directions" : "the same direction"}.`,
      error: `The two do not change in ${r.sign > 0 ? "opposite directions" : "the same direction"}.`,
      stated: `${stripEnd(citing(r.sentence))}: the ${y} changes in ${r.sign > 0 ? "the same direction as" : "the opposite direction to"} the ${x}.`,
      relation: `the ${y} changes in ${r.sign > 0 ? "the same direction as" : "the opposite direction to"} the ${x}`,
      correction: `Reducing the ${x} (everything else the same) makes the ${y} ${right}.`,
      chunkKey: r.chunkKey,
      sentence: r.sentence,
    });
  }
  for (const r of kb.monotonic) {
    if (!r.proportional) continue;
    const x = bare(r.x);
    const y = bare(r.y);
    out.push({
      claim: `If the ${x} is doubled, the ${y} ${r.sign > 0 ? "is halved" : "doubles"}.`,
      error: `Doubling the ${x} does not ${r.sign > 0 ? "halve" : "double"} the ${y}.`,
      stated: `${stripEnd(citing(r.sentence))}: the ${y} is ${r.sign > 0 ? "directly" : "inversely"} proportional to the ${x}.`,
      relation: `the ${y} is ${r.sign > 0 ? "directly" : "inversely"} proportional to the ${x}`,
      correction: `If the ${x} is doubled (everything else the same), the ${y} ${r.sign > 0 ? "doubles" : "is halved"}.`,
      chunkKey: r.chunkKey,
      sentence: r.sentence,
    });
  }
  return out;
}

export const judgeRelation: IForm = {
  id: "judge-relation",
  fits: (type, level) => type !== "mcq" && level === "Evaluate",
  available: (kb) => relationClaims(kb).length,
  *build(env: IFormEnv) {
    const long = env.slot.type === "long";
    const claims = relationClaims(env.kb);
    if (claims.length === 0) env.trace?.("no stated dependence, named cause or proportion");
    for (const c of claims) {
      if (env.used.has(c.sentence)) {
        env.trace?.("relation already used in the set");
        continue;
      }
      const q = written(env, {
        prompt: `A student claims: “${stripEnd(c.claim)}.” Is the student right? Justify your answer from what is known about ${long ? "this relationship, and say how you could check it" : "this relationship"}; marks are for the justification.`,
        answer: `No. ${c.error} ${c.stated} So: ${c.correction}${long ? " A check: change only that one quantity, keep the others the same, and see how the other quantity responds." : ""}`,
        points: [
          { point: `Judges the claim incorrect: ${lower(stripEnd(c.error))}` },
          { point: `Justifies with the stated relation: ${clip(capital(stripEnd(c.relation)), 150)}` },
          { point: `Gives the corrected statement: ${lower(stripEnd(c.correction))}` },
          ...(long
            ? [
                {
                  point:
                    "Describes a check that would settle it: vary one quantity, keep the others the same, observe the other",
                  weight: 2,
                },
              ]
            : []),
        ],
        keywords: keywords([c.stated, c.correction]),
        sources: [{ chunkKey: c.chunkKey, quote: c.sentence }],
      });
      if (q) yield q;
    }
  },
};
