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
  /** The relation the text states, in words a justification can cite. */
  stated: string;
  correction: string;
  chunkKey: string;
  sentence: string;
}

const bare = (np: string) => np.replace(/^the\s+/i, "");
const VAGUE_FACTOR =
  /\b(?:means|factors?|variety|various|other|things?|ways?|conditions?|several|many|some|for|whether)\b/i;

/** False claims from the passages' relations, most checkable first. */
export function relationClaims(kb: IKnowledge): IRelationClaim[] {
  const out: IRelationClaim[] = [];
  for (const d of kb.dependences) {
    // "… as well as hormones from reproductive tissues and organs": x cut from a long list.
    if (/\bas well as\b/i.test(d.sentence)) continue;
    for (const x of d.xs.slice(0, 2)) {
      // Nothing a student could change on purpose: "a variety of means", "other chemical factors",
      // "its host for survival" (round 14 reading).
      if (VAGUE_FACTOR.test(x) || x.split(/\s+/).length > 8) continue;
      const others = d.xs.filter((o) => o !== x);
      out.push({
        claim: `Changing ${x} has no effect on ${d.y}.`,
        error: "The student denies a dependence the text states.",
        stated: `${capital(d.y)} depends on ${x}${others.length ? ` (and on ${others.join(" and ")})` : ""}.`,
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
      stated: `${capital(cause)} is the cause, and ${effect} is what it produces.`,
      correction: `${capital(effect)} ${m.link === "due to" ? "is due to" : "is caused by"} ${cause}, not the other way round.`,
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
      error: `The student has the direction of the relationship the wrong way round.`,
      stated: `The text states that ${lower(stripEnd(r.sentence))}: the ${y} ${r.sign > 0 ? "rises and falls with" : "changes in the opposite direction to"} the ${x}.`,
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
      error: `The student has treated ${r.sign > 0 ? "a direct proportion as an inverse one" : "an inverse proportion as a direct one"}.`,
      stated: `The ${y} is ${r.sign > 0 ? "directly" : "inversely"} proportional to the ${x}.`,
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
          { point: `Judges the claim wrong and names the error: ${lower(stripEnd(c.error))}` },
          { point: `Justifies with the stated relation: ${clip(stripEnd(c.stated), 150)}` },
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
