import { BLOOM_LEVELS, type EBloomLevel } from "@/types/bloom.types";
import type { TQuestion } from "@/types/generation.types";
import { keyOf } from "./checks";
import { demandFeatures, type IDemandInput } from "./demand-features";
import { DEMAND_MODEL } from "./demand-model";
import { BLANK, coverage, shapeOf, stemSet, withoutQuotes } from "./text";
import type { IGateContext } from "./types";

/**
 * The Bloom level a question's demand supports: what a student must do to earn the marks, judged
 * from the question's structure and from the passages, not from its command verb. The rubric's
 * rule comes first: an answer found by matching the question's words in a passage is Remember,
 * whatever the verb. A computed answer is Apply; assertion–reason and compare/contrast are
 * Analyze; judging a claim with a justification is Evaluate; a design whose scheme credits what
 * is varied, measured and controlled is Create. What no structural rule decides (a written
 * answer's task in other words) goes to a small text model over structural and command-verb
 * features (`demand-features.ts`, weights in `demand-model.ts`, measured in docs/bloom-demand.md).
 */

const DESIGN =
  /\b(?:design|devise|plan|propose|set up|outline)\b[^.?]*\b(?:investigation|experiment|test|model|procedure|study|method|key|activity)\b/i;
const DESIGN_SCHEME =
  /\b(?:independent|dependent|vary|varied|control(?:led)?|measure|keep .* (?:same|constant)|fair test)\b/i;
const CLAIM =
  /\b(?:claims?|argues?|arguing|says?|states?|concludes?|believes?|suggests?|thinks?|writes?|proposes?|proposed)\b/i;
/** A task to design or plan, on its own (a long answer whose scheme marks the design). */
const DESIGN_TASK = /\b(?:design|devise|plan|propose)\b/i;
/** An MCQ asking which restatement explains or describes a situation: Understand by the rubric. */
const BEST_EXPLAINS =
  /\bwhich (?:statement|option|explanation|description|of the following)\b[^?]*\bbest (?:explains?|describes?|accounts? for|summari[sz]es?)\b/i;
const NAMED = /\b(?:is|are|was|were) (?:called|known as|termed|referred to as)\b/i;
const ANALYSE = /\banaly[sz]e\b/i;
/** An answer that corrects a stated fact word for word ("it should say “releases”, not “absorbs”"). */
const CORRECTION = /\bshould (?:say|read|be)\b[^.]{0,80}\bnot\b/i;
const JUDGE =
  /\b(?:evaluate|assess|judge|do you agree|is (?:the|this) (?:student|claim|conclusion)|justify|critique|correct\?|valid)\b/i;
const ASSERTION_REASON = /\bassertion\b[\s\S]*\breason\b/i;
const COMPARE =
  /\b(?:compare|contrast|distinguish|differentiate|difference between|differ(?:s)? from|similarit(?:y|ies)|how (?:are|is) .+ (?:different|similar))\b/i;
const RELATION =
  /\b(?:relationship between|how does .+ affect|effect of .+ on|why does|what causes|explain how .+ leads?)\b/i;
const PREDICT =
  /\b(?:predict|what (?:would|will) happen|if .+ (?:were|was|is) (?:increased|decreased|doubled|halved|removed|blocked|raised|lowered|reduced)|how would .+ change|what would be the effect)\b/i;
const EXPLAIN =
  /\b(?:explain|describe|why|how|interpret|summari[sz]e|outline|in your own words|classify|which .+ is an example|example of)\b/i;

/** A quantity changed by a factor ("the mass is doubled", "halved", "made three times as large"). */
const FACTOR_CHANGE =
  /\b(?:doubled|tripled|trebled|halved|quadrupled|(?:made|becomes?) (?:two|three|four) times (?:as (?:large|great|long)|larger|greater)|reduced to (?:a |one )?(?:half|third|quarter))\b/gi;
/** A stated plain proportion or direct/inverse variation in a passage sentence. */
const STATED_PROPORTION =
  /\b(?:(?:directly|inversely) )?proportional to\b|\bvaries (?:directly|inversely)\b/i;

/**
 * Scaling by factors: two or more quantities changed by factors, the new value of a third asked
 * for ("the mass is doubled and the acceleration tripled: how does the force compare?") is a
 * computation through the law, Apply (readers in rounds 9 and 10 read it so, not Analyze). One
 * quantity changed by a factor where a passage states the plain proportion between the two is
 * reading the stated proportion once: Understand (round 10 readers). Undefined: other rules decide.
 */
function scalingDemand(q: TQuestion, own: string, ctx: IGateContext): EBloomLevel | undefined {
  const changes = own.match(FACTOR_CHANGE)?.length ?? 0;
  if (
    changes === 0 ||
    !/\b(?:compare|what happens|how does|how will|how would|by what factor|how many times)\b/i.test(own)
  )
    return undefined;
  if (changes >= 2) return "Apply";
  if (/=/.test(own)) return undefined;
  // The sentence names both quantities of the stem (two of its content words at least).
  const asked = [...stemSet(own)];
  const stated = ctx.sentences.some(
    (s) => STATED_PROPORTION.test(s.text) && asked.filter((w) => s.stems.has(w)).length >= 2,
  );
  return stated && q.type !== "long" ? "Understand" : undefined;
}

/** Forms of `forms/sequence.ts` and `forms/classify.ts`. */
const SEQUENCE_ORDER = /\bin a jumbled order\b[\s\S]*\bwhich order is correct\?/i;
const SEQUENCE_BREAK = /\b(?:this step|step [1-9P-S]) did not take place\b/i;
const SORT_INTO = /^sort\b.+\binto\b.+\band\b/i;
const key0 = (q: TQuestion) => (q.type === "mcq" ? keyOf(q) : "");

const numberOf = (text: string) =>
  /[-−]?\d[\d,]*(?:\.\d+)?/.exec(text)?.[0]?.replace(/[,−]/g, (c) => (c === "−" ? "-" : ""));

/** A passage sentence holds the key and most of the question's words: found by matching. */
function matchable(q: TQuestion, ctx: IGateContext): boolean {
  const stem = stemSet(withoutQuotes(q.promptText).replace(BLANK, " "));
  const quoted = stemSet(q.promptText.replace(BLANK, " "));
  const answer = q.type === "mcq" ? keyOf(q) : q.suggestedAnswer;
  const answerStems = stemSet(answer);
  if (answerStems.size === 0) return false;
  return ctx.sentences.some(
    (s) =>
      (coverage(stem, s.stems) >= 0.6 || coverage(quoted, s.stems) >= 0.6) &&
      coverage(answerStems, s.stems) >= (q.type === "mcq" ? 1 : 0.8),
  );
}

export function estimateDemand(q: TQuestion, ctx: IGateContext): EBloomLevel {
  const stem = q.promptText;
  const own = withoutQuotes(stem);
  const scheme = q.type === "mcq" ? "" : (q.markingScheme ?? []).map((p) => p.point).join(" ");
  const answer = q.type === "mcq" ? keyOf(q) : `${q.suggestedAnswer} ${scheme}`;
  // What the structure proves, first: these hold whatever the wording.
  if (q.type !== "mcq" && DESIGN.test(own) && DESIGN_SCHEME.test(answer)) return "Create";
  if (q.type === "long" && DESIGN_TASK.test(own) && q.markingScheme.length >= 2) return "Create";
  if (ASSERTION_REASON.test(stem)) return "Analyze";
  // Ordering jumbled steps shown in the book's words without their order words is understanding;
  // tracing what a failed step stops, or sorting items into stated groups, relates parts.
  if (SEQUENCE_BREAK.test(own) || SORT_INTO.test(own)) return "Analyze";
  if (q.type === "mcq" && SEQUENCE_ORDER.test(own) && /^[P-S](?: → [P-S]){3}$/.test(key0(q)))
    return "Understand";
  // Spotting and correcting a reversed statement is recall of the stated fact (readers' reading).
  if (q.type !== "mcq" && CORRECTION.test(q.suggestedAnswer) && ctx.sentences.length > 0) return "Remember";
  if (CLAIM.test(own) && JUDGE.test(own)) return "Evaluate";
  if (q.type === "mcq" && DESIGN.test(own)) return "Evaluate";
  // A numeric answer the passages do not state was computed.
  const key = q.type === "mcq" ? keyOf(q) : "";
  if (q.type === "mcq" && shapeOf(key) === "number") {
    const n = numberOf(key);
    const stated = n !== undefined && ctx.sentences.some((s) => s.text.includes(n));
    return stated ? "Remember" : "Apply";
  }
  if (
    q.type !== "mcq" &&
    /\b(?:calculate|compute|determine|find)\b/i.test(own) &&
    /\d/.test(stem) &&
    /=/.test(answer)
  )
    return "Apply";
  const scaled = scalingDemand(q, own, ctx);
  if (scaled) return scaled;
  if (COMPARE.test(own) || (q.type !== "mcq" && ANALYSE.test(own)))
    return q.type === "mcq" && matchable(q, ctx) ? "Remember" : "Analyze";
  if (PREDICT.test(own)) return matchable(q, ctx) ? "Understand" : "Apply";
  // The rubric's rule: an answer found by matching the question's words in a passage is Remember.
  if (matchable(q, ctx)) return "Remember";
  if (q.type === "mcq" && BEST_EXPLAINS.test(own)) return "Understand";
  if (RELATION.test(own)) return q.type === "mcq" ? "Understand" : "Analyze";
  if (EXPLAIN.test(own)) return "Understand";
  // No structure decided it. An MCQ's key is recognised: Remember. A written answer: the text
  // model reads the task (its command verb among other features).
  return q.type === "mcq" ? "Remember" : estimateDemandOfText(own, answer, q.type, q.marks);
}

export const levelIndex = (l: EBloomLevel) => BLOOM_LEVELS.indexOf(l);

/** The text model: one-vs-rest logistic scores per level over `demandFeatures`. */
export function demandScores(input: IDemandInput): number[] {
  const x = demandFeatures(input);
  return DEMAND_MODEL.map((m) => {
    let z = m.intercept;
    for (let i = 0; i < m.weights.length; i++) z += m.weights[i]! * (x[i] ?? 0);
    return z;
  });
}

/**
 * What the text alone proves, whatever the verb: a design of an investigation is Create, a claim to
 * be judged is Evaluate, assertion–reason is Analyze, a term to supply (a blank, "is called") is
 * Remember. Undefined: the text model decides.
 */
export function textRuleLevel(stem: string): EBloomLevel | undefined {
  const own = withoutQuotes(stem);
  if (DESIGN.test(own)) return "Create";
  if (CLAIM.test(own) && JUDGE.test(own)) return "Evaluate";
  if (ASSERTION_REASON.test(stem)) return "Analyze";
  // A term to supply: a blank to fill, or "… is called / known as …".
  if (BLANK.test(own) || NAMED.test(own)) return "Remember";
  return undefined;
}

/**
 * Bloom level of a question known only by its text (and, when given, its answer, type and marks):
 * the structural rules of `textRuleLevel`, then the text model's best level.
 */
export function estimateDemandOfText(
  stem: string,
  answer?: string,
  type?: IDemandInput["type"],
  marks?: number,
): EBloomLevel {
  const ruled = textRuleLevel(stem);
  if (ruled) return ruled;
  const z = demandScores({
    stem,
    ...(answer ? { answer } : {}),
    ...(type ? { type } : {}),
    ...(marks !== undefined ? { marks } : {}),
  });
  let best = 0;
  for (let k = 1; k < z.length; k++) if (z[k]! > z[best]!) best = k;
  return BLOOM_LEVELS[best]!;
}
