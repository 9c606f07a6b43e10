/**
 * Follow-ups that point at results by their place in the list the teacher saw: "more on the
 * second one", "the last two", "not the first", "the first and third", "result 4". Pure: the
 * words of a query in, zero-based positions out (or null when the query is not only that).
 *
 * The whole query must be a reference (with an optional lead-in such as "more on", "explain",
 * "not"): "the first law of motion" names a topic, not a result, and is left alone.
 */

export interface IPositionalReference {
  /** Zero-based positions in the previous turn's list, in the order they were named. */
  positions: number[];
  /** "not the first": leave these out rather than focus on them. */
  negated: boolean;
}

const ORDINALS: Record<string, number> = {
  first: 1,
  "1st": 1,
  top: 1,
  second: 2,
  "2nd": 2,
  third: 3,
  "3rd": 3,
  fourth: 4,
  "4th": 4,
  fifth: 5,
  "5th": 5,
  sixth: 6,
  "6th": 6,
  seventh: 7,
  "7th": 7,
  eighth: 8,
  "8th": 8,
  ninth: 9,
  "9th": 9,
  tenth: 10,
  "10th": 10,
  // From the end: -1 is the last.
  last: -1,
  final: -1,
  bottom: -1,
  penultimate: -2,
};
const COUNTS: Record<string, number> = {
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  "2": 2,
  "3": 3,
  "4": 4,
  "5": 5,
  "6": 6,
};
/** Words around a reference that carry nothing ("the second one please"). */
const FILLER = new Set([
  "the",
  "one",
  "ones",
  "result",
  "results",
  "passage",
  "passages",
  "card",
  "cards",
  "item",
  "items",
  "please",
  "and",
  "&",
  "of",
  "those",
  "these",
]);

const NEGATION =
  /^(?:(?:and|but|ok|okay|now)\s+)?(?:not|without|except|excluding|exclude|drop|remove|skip|leave out|ignore|no)\s+/;
const LEAD_IN =
  /^(?:(?:and|now|ok|okay|also|so)\s+)?(?:(?:show|give|find|tell)(?:\s+me)?\s+)?(?:more\s+(?:on|about|like)|what about|how about|focus(?:ing)?\s+on|only|just|explain|expand(?:\s+on)?|go deeper\s+(?:into|on)|details?\s+(?:on|about|of)|keep|use|about|like)?\s*/;

/**
 * The positions a query refers to in a list of `count` results, or null when it is not a
 * positional reference (or names a place the list does not have: "the ninth" of eight).
 */
export function positionalReference(query: string, count: number): IPositionalReference | null {
  let q = query
    .toLowerCase()
    .replace(/[.!?]+$/, "")
    .replace(/\bsecond(?:[- ]to)?[- ]last\b/g, "penultimate")
    .trim();
  const negation = NEGATION.exec(q);
  const negated = !!negation;
  q = negation ? q.slice(negation[0].length) : q.replace(LEAD_IN, "");
  const tokens = q
    .replace(/,/g, " , ")
    .split(/\s+/)
    .filter((t) => t && t !== ",");
  // "number 2", "result 2", "#2", "no. 2" name a place by its number.
  const byNumber = /(?:#|\bnumber\b|\bno\.?|\bresult\b|\bpassage\b)\s*\d/.test(q);
  const positions: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as string;
    const ordinal = ORDINALS[t];
    if (ordinal !== undefined) {
      const n = COUNTS[tokens[i + 1] ?? ""];
      // "the first three", "the last two", "the top two": a run from that end.
      if (n !== undefined && (ordinal === 1 || ordinal === -1)) {
        if (n > count) return null;
        for (let k = 0; k < n; k++) positions.push(ordinal === 1 ? k : count - n + k);
        i++;
        continue;
      }
      const at = ordinal > 0 ? ordinal - 1 : count + ordinal;
      if (at < 0 || at >= count) return null;
      positions.push(at);
      continue;
    }
    const numbered = /^#?(\d{1,2})$/.exec(t);
    if (numbered && byNumber) {
      const at = Number(numbered[1]) - 1;
      if (at < 0 || at >= count) return null;
      positions.push(at);
      continue;
    }
    if (FILLER.has(t) || t === "#" || t === "number" || t === "no" || t === "no.") continue;
    // Any other word makes this a topic ("the first law"), not a place in the list.
    return null;
  }
  if (positions.length === 0) return null;
  return { positions: [...new Set(positions)], negated };
}
