import {
  evaluate,
  type ILiteral,
  type IParsed,
  type IValue,
  parseExpression,
  readQuantity,
} from "./expression";

/**
 * Equations in a solution's prose. The corpus writes a chain of equalities on one line
 * ("v_avg = Δd/Δt = (304 m)/(180 s) = 1.7 m/s north") or across "; " pieces that start with "="
 * ("Δd = v_avgΔt; = (2.4 m/s)(46 s); = 1.1 × 10^2 m east"), with prose before the first side and
 * after the last. A chain is split into sides: the left-hand symbol, symbolic forms, numeric
 * expressions, and finally the stated result.
 */

export interface ISide {
  /** The side's text; literal offsets of `parsed` index into it. */
  text: string;
  /** Offsets in the solution text. */
  start: number;
  end: number;
  /** Set when the side is numeric math (numbers with units, operators, functions). */
  parsed?: IParsed;
}

export interface IResult {
  lit: ILiteral;
  /** The stated value with its sign: evaluate of the literal, negated when written "− 1.04". */
  value: IValue;
  negative: boolean;
  /** A direction word after it ("north", "to the left"). */
  direction?: string;
  start: number;
  end: number;
}

export interface IChain {
  /** The symbol on the left ("v_avg", "Δd", "average speed"), when there is one. */
  lhs?: string;
  sides: ISide[];
  /** The value the chain ends with, if its last side is a single quantity. */
  result?: IResult;
  /** A later "≈" rounding of the result ("= 3.306 kg·m/s ≈ 3.3 kg·m/s"). */
  rounded?: IResult;
  /** Offsets of the line(s) the chain was written on, for quoting. */
  lineStart: number;
  lineEnd: number;
}

const EQUALS = /[=≈≅≃]/;
const DIRECTION_RE =
  /^\s*(north|south|east|west|northeast|northwest|southeast|southwest|upward|downward|up|down|to the (?:left|right)|left|right)\b/i;
const CONNECTORS = new Set(
  "is are was be gives give yields yield get gets obtain find finds that so then thus therefore hence and we as which this becomes".split(
    " ",
  ),
);

/** Top-level positions of `re` in text[from, to), outside parentheses. */
function topLevel(text: string, from: number, to: number, test: (c: string) => boolean): number[] {
  const out: number[] = [];
  let depth = 0;
  for (let i = from; i < to; i++) {
    const c = text[i]!;
    if (c === "(") depth++;
    else if (c === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0 && test(c)) out.push(i);
  }
  return out;
}

/** All equation chains of a text, in order. */
export function chainsOf(text: string): IChain[] {
  const chains: IChain[] = [];
  let lineStart = 0;
  for (const line of text.split("\n")) {
    const lineEnd = lineStart + line.length;
    const cuts = [lineStart - 1, ...pieceCuts(text, lineStart, lineEnd), lineEnd];
    for (let p = 0; p + 1 < cuts.length; p++) {
      const from = cuts[p]! + 1;
      const to = cuts[p + 1]!;
      const piece = text.slice(from, to);
      if (!EQUALS.test(piece)) continue;
      const eqs = topLevel(text, from, to, (c) => EQUALS.test(c));
      const bounds = [from - 1, ...eqs, to];
      const raw: ISide[] = [];
      for (let s = 0; s + 1 < bounds.length; s++) {
        raw.push(side(text, bounds[s]! + 1, bounds[s + 1]!));
      }
      const head = raw[0]!;
      const previous = chains[chains.length - 1];
      // "= (2.4 m/s)(46 s)" continues the chain above; so does "a = …" under "a = F_net/m" until
      // that chain has reached a result.
      const continues =
        previous &&
        (head.text.trim() === "" ||
          (previous.lhs !== undefined && !previous.result && lhsOf(head.text) === previous.lhs));
      if (continues) {
        previous.sides.push(...raw.slice(1));
        previous.lineEnd = Math.max(previous.lineEnd, lineEnd);
        finish(text, previous);
      } else {
        const chain = openChain(text, head, raw.slice(1), lineStart, lineEnd);
        if (chain) chains.push(chain);
      }
    }
    lineStart = lineEnd + 1;
  }
  return chains;
}

/** Where a line splits into pieces: top-level ";" and sentence ends ("… solve for g. g = …"). */
function pieceCuts(text: string, from: number, to: number): number[] {
  return topLevel(text, from, to, () => true).filter((i) => {
    const c = text[i]!;
    if (c === ";") return true;
    // "… with v = 0: s = u²/(2a) = …": a colon before an equation also ends a piece.
    if (c === ":" && /^\s/.test(text.charAt(i + 1))) return true;
    if (!".?!".includes(c) || !/^\s+\p{L}/u.test(text.slice(i + 1, i + 4))) return false;
    const before = /(\S+)$/.exec(text.slice(Math.max(from, i - 12), i))?.[1] ?? "";
    return !/^(?:in|\d+)$/.test(before);
  });
}

function side(text: string, start: number, end: number): ISide {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text[s]!)) s++;
  while (e > s && /[\s,.;:]/.test(text[e - 1]!)) e--;
  // "y = ((67.6 m/s)^2)/(2(9.80 m/s^2),)": a stray comma inside the last parenthesis.
  const body = text.slice(s, e).replace(/,\)$/, ")");
  const parsed = parseExpression(body);
  return { text: body, start: s, end: e, ...(parsed ? { parsed } : {}) };
}

/** The first side holds prose and then either a symbol (the left-hand side) or a numeric expression. */
function openChain(
  text: string,
  head: ISide,
  rest: ISide[],
  lineStart: number,
  lineEnd: number,
): IChain | null {
  if (rest.length === 0) return null;
  const numeric = numericSuffix(text, head.start, head.end);
  const chain: IChain = {
    sides: numeric ? [numeric] : [],
    lineStart,
    lineEnd,
  };
  if (!numeric) {
    const lhs = lhsOf(head.text);
    if (lhs) chain.lhs = lhs;
  }
  chain.sides.push(...rest);
  finish(text, chain);
  return chain;
}

/** The longest tail of text[start, end) that parses as numeric math, starting at a token boundary. */
function numericSuffix(text: string, start: number, end: number): ISide | null {
  for (let i = start; i < end; i++) {
    const prev = i === start ? " " : text[i - 1]!;
    if (!/[\s:(]/.test(prev) || !/[\d(√π−–-]/.test(text[i]!)) continue;
    if (prev === "(" && i > start) continue;
    const s = side(text, i, end);
    if (s.parsed?.literals.some((l) => !l.structural)) return s;
  }
  return null;
}

/** "Thus, average speed" → "average speed"; "…the acceleration, a, is a" → "a". */
export function lhsOf(prose: string): string | undefined {
  const clause =
    prose
      .split(/[.:;,](?:\s+|$)|\s[-–—]\s/)
      .pop()
      ?.trim() ?? "";
  const words = clause.split(/\s+/).filter(Boolean);
  while (words.length > 1 && CONNECTORS.has(words[0]!.toLowerCase())) words.shift();
  if (words.length === 0 || words.length > 4) return words.length > 4 ? words[words.length - 1] : undefined;
  const lhs = words.join(" ");
  return /^[\p{L}Δ√(]/u.test(lhs) ? lhs : undefined;
}

/** Reads the result off the chain's last side(s) and trims prose that follows it. */
function finish(text: string, chain: IChain): void {
  delete chain.result;
  delete chain.rounded;
  const last = chain.sides[chain.sides.length - 1];
  const result = last ? resultAt(text, last.start, last.end) : null;
  if (!result) return;
  // "= 3.306 kg·m/s ≈ 3.3 kg·m/s": the first stated value after the last expression is the result.
  const before = chain.sides[chain.sides.length - 2];
  const earlier = before && isSingleQuantity(before) ? resultAt(text, before.start, before.end) : null;
  if (earlier) {
    chain.result = earlier;
    chain.rounded = result;
  } else chain.result = result;
}

function isSingleQuantity(s: ISide): boolean {
  const n = s.parsed?.node;
  return n !== undefined && (n.k === "lit" || (n.k === "neg" && n.a.k === "lit"));
}

/** A stated value at the start of text[start, end): sign, number, unit, then only prose. */
export function resultAt(text: string, start: number, end: number): IResult | null {
  let i = start;
  while (i < end && /\s/.test(text[i]!)) i++;
  let negative = false;
  if ("−–-+".includes(text[i] ?? "x")) {
    negative = text[i] !== "+";
    i++;
    while (i < end && /\s/.test(text[i]!)) i++;
  }
  const lit = readQuantity(text.slice(0, end), i);
  if (!lit) return null;
  const after = text.slice(lit.end, end);
  if (after && !/^(?:[\s,.;:)]|$)/.test(after)) return null;
  // "= 1.5 × 10^2 in. Since the area …" is fine; "= 2(9.8) …" (more math) is not a result.
  if (/^\s*[×*/^+−–(]/.test(after) || /^\s*-\s*\d/.test(after)) return null;
  const value = evaluate({ k: "lit", lit });
  const direction = DIRECTION_RE.exec(after)?.[1];
  return {
    lit,
    value: negative ? { ...value, si: -value.si, written: -value.written } : value,
    negative,
    ...(direction ? { direction } : {}),
    start: i,
    end: lit.end,
  };
}
