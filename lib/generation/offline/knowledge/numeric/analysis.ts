import { evaluate, type ILiteral, type IValue, nodesOf, readQuantity, type TNode } from "./expression";
import type { IWorkedExample } from "./layout";
import { prepareProblem } from "./problem";
import { chainsOf, type IChain, type IResult, type ISide } from "./statements";
import { isDimensionless, sameDims, type TDims } from "./units";

/**
 * Verifying a worked example: every step's numeric substitution must reproduce the book's stated
 * result (in SI with matching dimensions, or, for unit-free arithmetic, as written), and every
 * number in it must be traced to a given of the problem, to an earlier step's result, or be a
 * constant the problem does not state (g = 9.80 m/s², a conversion factor, the 2 of ½at²).
 * Anything that cannot be traced unambiguously rejects the example with a reason.
 */

export interface IGiven {
  /** Index into the problem's givens (one per distinct number + unit). */
  index: number;
  lit: ILiteral;
  /** Every occurrence in the problem text (same number and unit written again). */
  spans: { start: number; numEnd: number }[];
  negative: boolean;
  si: number;
  /** A physical constant or fact (g, the moon's distance): stated again with the same value. */
  fixed: boolean;
}

export type TBinding =
  | { kind: "given"; given: number }
  | { kind: "trig"; given: number; fn: "sin" | "cos" | "tan" }
  | { kind: "step"; step: number }
  | { kind: "constant" }
  /** A unit-conversion factor ("(10^3 m)/(1 km)"): constant, and not where a student slips. */
  | { kind: "conversion" };

/** Whether a binding carries a value that changes with the givens. */
export const isVariable = (b: TBinding | undefined) =>
  b?.kind === "given" || b?.kind === "trig" || b?.kind === "step";

export interface IStep {
  /** Index of the chain in the strategy and solution. */
  chain: number;
  /** Offsets below index the solution text (else the strategy text). */
  inSolution: boolean;
  lhs?: string;
  formula?: string;
  substitution: ISide;
  result: IResult;
  rounded?: IResult;
  /** Binding of each literal of the substitution, by literal id. */
  bindings: Map<number, TBinding>;
  /** The substitution as the book evaluates it (original values). */
  computed: IValue;
  /** Compared in SI with dimensions, or as written (the book's arithmetic was unit-free). */
  mode: "si" | "written";
  /** Offsets of the chain's line(s) in the solution, for the quote. */
  lineStart: number;
  lineEnd: number;
}

export interface IAnalysis {
  example: IWorkedExample;
  /** The problem statement with figure references removed and asides dropped. */
  problem: string;
  givens: IGiven[];
  /** The steps the final answer depends on, in solution order; the last is the answer. */
  steps: IStep[];
  /** The question sentence of the problem. */
  question: string;
}

export type TAnalysisResult = { ok: true; analysis: IAnalysis } | { ok: false; reason: string };

const fail = (reason: string): TAnalysisResult => ({ ok: false, reason });

/** Checks a worked example end to end; on success the analysis can be varied with new values. */
export function analyseWorkedExample(example: IWorkedExample): TAnalysisResult {
  const prepared = prepareProblem(example.problem);
  if (!prepared.ok) return fail(prepared.reason);
  // Part (a) alone is posed only when the solution answers it alone: one stated result (the book's
  // worked example split per part), never a solution whose last result answers a later part.
  if (prepared.firstPart && chainsOf(example.solution).filter((c) => c.result !== undefined).length !== 1)
    return fail("the problem has several parts, and the solution answers more than the first");
  const first = analyseText(example, prepared.text, prepared.question);
  if (first.ok || !first.unused) return first.ok ? first : fail(first.reason);
  // A given the solution never uses, inside a short aside ("15.0 m/s (about 54 km/h)"), restates
  // another one: drop the aside rather than the example.
  const stripped = dropAsides(prepared.text, first.unused);
  if (!stripped) return fail(first.reason);
  const second = analyseText(example, stripped, prepared.question);
  return second.ok ? second : fail(second.reason);
}

type TTextResult = { ok: true; analysis: IAnalysis } | { ok: false; reason: string; unused?: IGiven[] };

function analyseText(example: IWorkedExample, problem: string, question: string): TTextResult {
  const givens = givensOf(problem);
  if (givens.length === 0) return fail("no given quantity with a unit in the problem");
  const worded = givens.find((g) =>
    FRACTION_WORDS.test(problem.slice(Math.max(0, g.lit.start - 30), g.lit.start)),
  );
  if (worded) return fail(`given ${worded.lit.text} ${worded.lit.unitText} is also stated in words`);

  // Steps may start in the strategy ("w = mg = (80.0 kg)(9.80 m/s^2) = 784 N"); the answer is in the solution.
  const strategyChains = chainsOf(example.strategy);
  const chains = [...strategyChains, ...chainsOf(example.solution)];
  const steps = new Map<number, IStep>();
  const reasons: string[] = [];
  chains.forEach((chain, i) => {
    const step = verifyChain(chain, i, i >= strategyChains.length, givens, steps, chains);
    if (typeof step === "string") reasons.push(step);
    else if (step) steps.set(i, step);
  });

  const lastIndex = chains.findLastIndex((c) => c.result !== undefined);
  if (lastIndex < strategyChains.length) return fail("no stated numeric result in the solution");
  let final = steps.get(lastIndex);
  if (!final) {
    // "t = 3.96 s" restating an earlier step's result is fine; anything else is an unverified answer.
    const last = chains[lastIndex]!;
    const restated = [...steps.values()].find(
      (s) =>
        s.result.lit.value === last.result?.lit.value && s.result.lit.unitText === last.result?.lit.unitText,
    );
    if (!restated) return fail(reasons[reasons.length - 1] ?? "the final result could not be verified");
    final = restated;
  }

  const closure = dependencies(final, steps);
  const used = new Set<number>();
  for (const step of closure) {
    for (const b of step.bindings.values()) if (b.kind === "given" || b.kind === "trig") used.add(b.given);
  }
  if (used.size === 0) return fail("the answer does not depend on any given");
  if ([...used].every((i) => givens[i]!.fixed))
    return fail("every given is a physical constant: no new values to pose");
  const unused = givens.filter((g) => !used.has(g.index));
  if (unused.length > 0) {
    return {
      ok: false,
      reason: `given ${unused[0]!.lit.text} ${unused[0]!.lit.unitText} is not used in the solution`,
      unused,
    };
  }
  const asked = askedDimensionMismatch(question, final);
  if (asked) return fail(asked);
  return { ok: true, analysis: { example, problem, givens, steps: closure, question } };
}

const FRACTION_WORDS = /\b(?:half|quarter|third|twice|double|triple|thrice)\b/i;

/** The problem without the short parenthesised asides holding `unused`; null if one is not in such an aside. */
function dropAsides(problem: string, unused: readonly IGiven[]): string | null {
  const cuts: [number, number][] = [];
  for (const g of unused) {
    for (const span of g.spans) {
      const open = problem.lastIndexOf("(", span.start);
      const close = problem.indexOf(")", span.start);
      if (open < 0 || close < 0 || problem.slice(open, span.start).includes(")")) return null;
      const inside = problem.slice(open + 1, close);
      if (inside.split(/\s+/).length > 5) return null;
      cuts.push([open, close + 1]);
    }
  }
  let text = problem;
  for (const [a, b] of cuts.sort((x, y) => y[0] - x[0])) text = text.slice(0, a).trimEnd() + text.slice(b);
  return text.replace(/\s+([,.;?])/g, "$1");
}

// ---------------------------------------------------------------------------------------------
// Givens

/** Numbers with units in the problem statement, one entry per distinct value and unit. */
export function givensOf(problem: string): IGiven[] {
  const givens: IGiven[] = [];
  const re = /(?<![\w.,^])(?:[−–-]\s?)?(?:\d|\.\d)/g;
  for (let m = re.exec(problem); m; m = re.exec(problem)) {
    const signLength = /^[−–-]\s?/.exec(m[0])?.[0].length ?? 0;
    const negative = signLength > 0 && (m.index === 0 || /[\s(]/.test(problem[m.index - 1]!));
    const at = m.index + signLength;
    const lit = readQuantity(problem, at, true);
    if (!lit) continue;
    re.lastIndex = Math.max(lit.end, at + 1);
    if (!lit.unit) continue;
    const si = (negative ? -1 : 1) * lit.value * lit.unit.factor;
    const same = givens.find((g) => g.si === si && g.lit.unitText === lit.unitText);
    if (same) same.spans.push({ start: lit.start, numEnd: lit.numEnd });
    else
      givens.push({
        index: givens.length,
        lit,
        spans: [{ start: lit.start, numEnd: lit.numEnd }],
        negative: negative && signLength > 0,
        si,
        fixed: isPhysicalConstant(si, lit.unit.dims),
      });
  }
  return givens;
}

// ---------------------------------------------------------------------------------------------
// Steps

function verifyChain(
  chain: IChain,
  index: number,
  inSolution: boolean,
  givens: readonly IGiven[],
  steps: ReadonlyMap<number, IStep>,
  formulaChains: readonly IChain[],
): IStep | string | null {
  const result = chain.result;
  if (!result) return null;
  const resultSide = chain.sides.findLast((s) => s.start <= result.start);
  const candidates = chain.sides.filter(
    (s) => s !== resultSide && s.parsed && s.end <= result.start && isCompound(s.parsed.node),
  );
  if (candidates.length === 0) return null;
  let lastReason = "a substitution does not reproduce the stated result";
  for (const side of candidates) {
    const mode = matches(side.parsed!.node, result);
    if (!mode) continue;
    const bindings = bindAll(side, givens, steps);
    if (typeof bindings === "string") {
      lastReason = bindings;
      continue;
    }
    if (![...bindings.values()].some(isVariable)) {
      lastReason = "a substitution uses no given";
      continue;
    }
    const formula = formulaFor(chain, side, formulaChains);
    return {
      chain: index,
      inSolution,
      ...(chain.lhs ? { lhs: chain.lhs } : {}),
      ...(formula ? { formula } : {}),
      substitution: side,
      result,
      ...(chain.rounded ? { rounded: chain.rounded } : {}),
      bindings,
      computed: evaluate(side.parsed!.node),
      mode,
      lineStart: chain.lineStart,
      lineEnd: chain.lineEnd,
    };
  }
  return `${chain.lhs ?? "a step"}: ${lastReason}`;
}

function isCompound(node: TNode): boolean {
  return node.k !== "lit" && !(node.k === "neg" && node.a.k === "lit");
}

/** Half a unit in the last written place, plus 0.5 % for the book's rounded intermediate values. */
export function closeEnough(computed: number, stated: number, place: number): boolean {
  return Math.abs(computed - stated) <= 0.5 * place + 0.005 * Math.abs(stated) + 1e-12 * Math.abs(stated);
}

/** How the substitution reproduces the result, or null when it does not. */
export function matches(node: TNode, result: IResult): "si" | "written" | null {
  const c = evaluate(node);
  const s = result.value;
  if (!Number.isFinite(c.si) || s.si === 0) return null;
  const factor = result.lit.unit?.factor ?? 1;
  const lit = result.lit;
  // "100" could mean one significant figure; unless written in powers of ten, a result is read
  // to at least two ("100" ± 5, not ± 50), so a rough match cannot pass for a right one.
  const place = lit.sci
    ? lit.place
    : Math.min(lit.place, 10 ** (Math.floor(Math.log10(Math.abs(lit.value))) - 1));
  if (c.unitful && !c.inconsistent) {
    const dimsOk = s.unitful ? sameDims(c.dims, s.dims) : isDimensionless(c.dims);
    if (dimsOk && closeEnough(c.si, s.si, place * factor)) return "si";
  }
  if (!c.unitful && closeEnough(c.written, s.written, place * (lit.unit?.angle ? factor : 1)))
    return "written";
  return null;
}

function bindAll(
  side: ISide,
  givens: readonly IGiven[],
  steps: ReadonlyMap<number, IStep>,
): Map<number, TBinding> | string {
  const bindings = new Map<number, TBinding>();
  const conversions = conversionLiterals(side.parsed!.node);
  for (const lit of side.parsed!.literals) {
    if (lit.structural) continue;
    const b = bind(lit, givens, steps);
    if (typeof b === "string") return b;
    if (b.kind === "constant" && conversions.has(lit.id)) {
      bindings.set(lit.id, { kind: "conversion" });
      continue;
    }
    if (b.kind === "constant" && !isKnownConstant(lit)) {
      return `${lit.text}${lit.unitText ? ` ${lit.unitText}` : ""} is neither given nor a known constant`;
    }
    bindings.set(lit.id, b);
  }
  return bindings;
}

/** Same magnitude, relatively: 1.602 × 10^(−19) and 1 × 10^(−10) are not equal however small both are. */
const eq = (a: number, b: number) =>
  Math.abs(Math.abs(a) - Math.abs(b)) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
const bareText = (t: string) => t.replace(/[,\s]/g, "");

/**
 * Where a number of a substitution comes from; a string when that is ambiguous. Two earlier
 * steps with the same result ("= 8.333 m/s", then "Δv = 8.333 m/s – 0 = + 8.333 m/s") resolve to
 * the later one, and a step result to a converted given; a given as written and a step, or two
 * givens, do not resolve.
 */
function bind(
  lit: ILiteral,
  givens: readonly IGiven[],
  steps: ReadonlyMap<number, IStep>,
): TBinding | string {
  const found: TBinding[] = [];
  const converted: TBinding[] = [];
  let lookalike = false;
  for (const g of givens) {
    const gu = g.lit.unit!;
    if (lit.value === 0) continue;
    if (eq(lit.value, g.lit.value)) {
      const sameUnit = lit.unit ? lit.unit.factor === gu.factor && sameDims(lit.unit.dims, gu.dims) : false;
      // The same digits with the unit split off ("(30.0 km)/h" for "30.0 km/h", "(65.0 + …) kg").
      const split = !lit.unit || bareText(g.lit.unitText).startsWith(bareText(lit.unitText));
      if (sameUnit || (split && bareText(lit.text) === bareText(g.lit.text)))
        found.push({ kind: "given", given: g.index });
      else lookalike = true;
    } else if (
      lit.place <= 0.2 * lit.value &&
      (lit.unit ? sameDims(lit.unit.dims, gu.dims) && lit.unit.factor !== gu.factor : gu.factor !== 1)
    ) {
      // The same quantity converted: "0.75000 m" for the given "75.000 cm", or converted to SI
      // with the unit left off: "5 × 10^(− 3)" for "5 ms".
      const factor = lit.unit?.factor ?? 1;
      if (closeEnough(lit.value * factor, Math.abs(g.si), lit.place * factor)) {
        converted.push({ kind: "given", given: g.index });
      }
    }
    if (
      !lit.unit &&
      gu.angle &&
      gu.factor !== 1 &&
      lit.value > 0 &&
      lit.value < 60 &&
      !Number.isInteger(lit.value)
    ) {
      for (const fn of ["sin", "cos", "tan"] as const) {
        if (closeEnough(Math[fn](g.si), lit.value, lit.place))
          found.push({ kind: "trig", given: g.index, fn });
      }
    }
  }
  let latest = -1;
  for (const [index, step] of steps) {
    for (const r of [step.result, step.rounded]) {
      if (!r) continue;
      const ru = r.lit.unit;
      const sameUnit =
        lit.unit && ru ? lit.unit.factor === ru.factor && sameDims(lit.unit.dims, ru.dims) : !lit.unit;
      if (eq(lit.value, r.lit.value) && (sameUnit || !lit.unit)) latest = Math.max(latest, index);
    }
  }
  // A given as written beats a conversion of another ("58 m/s" also matches the aside "(209 km/h)"),
  // and a step that converted a given ("(30.0 km)/h × … = 8.333 m/s") stands for it.
  if (latest >= 0) found.push({ kind: "step", step: latest });
  else if (found.length === 0) found.push(...converted);
  const distinct = new Map(found.map((b) => [JSON.stringify(b), b]));
  if (distinct.size > 1) return `${lit.text} could come from more than one given or step`;
  const only = [...distinct.values()][0];
  if (only) return only;
  if (lookalike) return `${lit.text} looks like a given but its unit differs`;
  return { kind: "constant" };
}

/**
 * Literals of unit conversions: "1 km" and "10^3 m" in "× (10^3m)/(1 km)", "(1 h)/(3600 s)",
 * "(1609 m)/(1 mi)" (a number equal to one of another unit in the same expression), and "24.0 h/d"
 * (a number its own unit makes 1).
 */
function conversionLiterals(node: TNode): Set<number> {
  const ids = new Set<number>();
  const lits = literalNodes(node).filter((l) => l.unit && !l.structural);
  const ones = lits.filter((l) => l.value === 1);
  for (const l of ones) ids.add(l.id);
  for (const l of lits) {
    const si = l.value * l.unit!.factor;
    if (
      ones.some(
        (o) => o !== l && sameDims(o.unit!.dims, l.unit!.dims) && Math.abs(si - o.unit!.factor) <= 0.01 * si,
      )
    ) {
      ids.add(l.id);
    }
    if (isDimensionless(l.unit!.dims) && !l.unit!.angle && Math.abs(si - 1) < 0.01) ids.add(l.id);
  }
  return ids;
}

/** SI value and dimensions of constants a solution may use without the problem stating them. */
const CONSTANTS: [number, TDims][] = [
  [9.8, [1, 0, -2, 0, 0, 0, 0]],
  [9.81, [1, 0, -2, 0, 0, 0, 0]],
  [3.0e8, [1, 0, -1, 0, 0, 0, 0]],
  [343, [1, 0, -1, 0, 0, 0, 0]],
  [331, [1, 0, -1, 0, 0, 0, 0]],
  [6.67e-11, [3, -1, -2, 0, 0, 0, 0]],
  [1.6e-19, [0, 0, 1, 1, 0, 0, 0]],
  [1.602e-19, [2, 1, -2, 0, 0, 0, 0]],
  [6.63e-34, [2, 1, -1, 0, 0, 0, 0]],
  [1.38e-23, [2, 1, -2, 0, -1, 0, 0]],
  [8.99e9, [3, 1, -4, -2, 0, 0, 0]],
  [8.85e-12, [-3, -1, 4, 2, 0, 0, 0]],
  [1.26e-6, [1, 1, -2, -2, 0, 0, 0]],
  [9.11e-31, [0, 1, 0, 0, 0, 0, 0]],
  [1.67e-27, [0, 1, 0, 0, 0, 0, 0]],
  [1.66e-27, [0, 1, 0, 0, 0, 0, 0]],
  [6.02e23, [0, 0, 0, 0, 0, -1, 0]],
  [8.31, [2, 1, -2, 0, -1, -1, 0]],
  [5.67e-8, [0, 1, -3, 0, -4, 0, 0]],
  [1.01e5, [-1, 1, -2, 0, 0, 0, 0]],
  [1000, [-3, 1, 0, 0, 0, 0, 0]],
  [4186, [2, 0, -2, 0, -1, 0, 0]],
  [3.34e5, [2, 0, -2, 0, 0, 0, 0]],
  [2.256e6, [2, 0, -2, 0, 0, 0, 0]],
  [5.97e24, [0, 1, 0, 0, 0, 0, 0]],
  [6.37e6, [1, 0, 0, 0, 0, 0, 0]],
  [1.99e30, [0, 1, 0, 0, 0, 0, 0]],
  [1.5e11, [1, 0, 0, 0, 0, 0, 0]],
  [3.84e8, [1, 0, 0, 0, 0, 0, 0]],
  [7.35e22, [0, 1, 0, 0, 0, 0, 0]],
  [27.3 * 86400, [0, 0, 1, 0, 0, 0, 0]],
];

/** A physical constant or a fact about the world (g, c, G, Earth's mass, the moon's distance). */
export function isPhysicalConstant(si: number, dims: TDims): boolean {
  const v = Math.abs(si);
  return CONSTANTS.some(([c, d]) => sameDims(d, dims) && Math.abs(v - c) <= 0.012 * c);
}
/** Numbers a solution may write bare: counts, halves, conversion factors, powers of ten, g. */
const BARE = new Set([
  0.5, 0.25, 1.5, 24, 60, 100, 180, 360, 365, 1000, 3600, 2.54, 1609, 1.609, 0.3048, 3.28, 4.184, 4.186, 9.8,
  9.81,
]);

function isKnownConstant(lit: ILiteral): boolean {
  const v = lit.value;
  if (v === 0) return true;
  if (!lit.unit) {
    const log = Math.log10(v);
    return (Number.isInteger(v) && v <= 12) || BARE.has(v) || Math.abs(log - Math.round(log)) < 1e-9;
  }
  // Any other number with a unit came from somewhere the problem does not show: a figure, a
  // table, the previous example. Changing the givens around it would be a guess.
  return isPhysicalConstant(v * lit.unit.factor, lit.unit.dims);
}

/** The steps the answer depends on, in solution order. */
function dependencies(final: IStep, steps: ReadonlyMap<number, IStep>): IStep[] {
  const needed = new Set<IStep>();
  const visit = (s: IStep) => {
    if (needed.has(s)) return;
    needed.add(s);
    for (const b of s.bindings.values()) {
      if (b.kind === "step") visit(steps.get(b.step)!);
    }
  };
  visit(final);
  return [...needed].sort((a, b) => a.chain - b.chain);
}

/** "v_avg = Δd/Δt": the symbolic side before the substitution, or the same symbol defined earlier. */
function formulaFor(chain: IChain, side: ISide, chains: readonly IChain[]): string | undefined {
  const lhs = chain.lhs;
  if (!lhs) return undefined;
  const symbolic = chain.sides.filter((s) => s.end <= side.start && !s.parsed && isFormula(s.text));
  const own = symbolic[symbolic.length - 1];
  if (own) return `${lhs} = ${own.text}`;
  // Stated earlier: the same symbol, or its base ("p = mv" for "p_player").
  const base = (x: string) => x.replace(/_.*$/, "");
  const at = chains.indexOf(chain);
  for (const same of [
    (c: IChain) => c.lhs === lhs,
    (c: IChain) => c.lhs !== undefined && base(c.lhs) === base(lhs),
  ]) {
    for (let i = at - 1; i >= 0; i--) {
      const c = chains[i]!;
      if (!same(c)) continue;
      const s = c.sides.find((x) => !x.parsed && isFormula(x.text));
      if (s) return `${c.lhs} = ${s.text}`;
    }
  }
  return undefined;
}

/** A number other than a small whole one, written without a unit. */
function bareValue(text: string): boolean {
  for (const m of text.matchAll(/(?<![\w.^])\d/g)) {
    const lit = readQuantity(text, m.index, true);
    if (lit && !lit.unit && (!Number.isInteger(lit.value) || lit.value >= 10)) return true;
  }
  return false;
}

function isFormula(text: string): boolean {
  return (
    text.length > 0 &&
    // "50 m√(1 − ((0.95)^2c^2)/(c^2))" is a half-substituted line, not the formula; a value
    // with its unit ("mg cos 25°") may stay, the new value replaces it.
    !bareValue(text) &&
    text.length <= 60 &&
    !/\b(?:the|of|and|is|are|we|to|becomes|gives|yields|so|then|where|which|for|with|in|at|by|from|this|that|when|if|since|because)\b/.test(
      text,
    ) &&
    /\p{L}/u.test(text)
  );
}

// ---------------------------------------------------------------------------------------------
// What the question asks for

/** What a question names, by the dimensions (m, kg, s) of its answer; "force constant" names no force. */
const NOT_HEAD = String.raw`(?!\s+(?:constant|coefficient|per|of\s+(?:change|increase)))`;
const ASKED: [RegExp, string][] = [
  [new RegExp(String.raw`\bacceleration\b${NOT_HEAD}`, "i"), "1,0,-2"],
  [new RegExp(String.raw`\b(?:velocity|speed)\b${NOT_HEAD}`, "i"), "1,0,-1"],
  [new RegExp(String.raw`\b(?:force|thrust|weight|tension|friction)\b${NOT_HEAD}`, "i"), "1,1,-2"],
  [new RegExp(String.raw`\b(?:how long|time|period)\b${NOT_HEAD}`, "i"), "0,0,1"],
  [
    new RegExp(
      String.raw`\b(?:displacement|distance|height|how far|how high|length|range)\b${NOT_HEAD}`,
      "i",
    ),
    "1,0,0",
  ],
  [new RegExp(String.raw`\bmomentum\b${NOT_HEAD}`, "i"), "1,1,-1"],
  [new RegExp(String.raw`\b(?:energy|work)\b${NOT_HEAD}`, "i"), "2,1,-2"],
  [new RegExp(String.raw`\bpower\b${NOT_HEAD}`, "i"), "2,1,-3"],
  [new RegExp(String.raw`\bpressure\b${NOT_HEAD}`, "i"), "-1,1,-2"],
  [new RegExp(String.raw`\bfrequency\b${NOT_HEAD}`, "i"), "0,0,-1"],
];

/** A question that names what it asks ("What is the acceleration?") must get an answer of that kind. */
function askedDimensionMismatch(question: string, final: IStep): string | null {
  const asked = ASKED.filter(([re]) => re.test(question)).map(([, d]) => d);
  if (asked.length === 0) return null;
  const value = final.mode === "si" ? final.computed : final.result.value;
  if (!final.result.lit.unit || final.mode === "written") return null;
  const dims = value.dims.slice(0, 3).join(",");
  const rest = value.dims.slice(3).every((d) => d === 0);
  return rest && asked.includes(dims) ? null : "the answer is not the kind of quantity the question asks for";
}

export function literalNodes(node: TNode): ILiteral[] {
  return [...nodesOf(node)].flatMap((n) => (n.k === "lit" ? [n.lit] : []));
}
