import type { IAnalysis, IGiven, IStep } from "./analysis";
import { evaluate, type ILiteral, type TNode } from "./expression";
import { roundSig } from "./format";
import { sameDims } from "./units";

/**
 * New values for a verified example, and the answer recomputed through the book's own steps.
 * A step's numbers are replaced by binding: a given scales with its new value (so a converted
 * "0.75000 m" for "75.000 cm" converts the new value too), a trig value is recomputed from the
 * new angle, an earlier step's result is replaced by that step's recomputed value, and a
 * constant stays. The same machinery, run on a mutated step, yields the slip distractors.
 */

export interface IMutation {
  /** Index into analysis.steps. */
  step: number;
  node?: TNode;
  /** Trig functions evaluated with degrees taken as radians (calculator mode slip). */
  radians?: boolean;
  /** A literal that should carry a converted given, fed the unconverted number instead. */
  unconverted?: number;
}

/** Each step's value in the unit of its stated result (signed); null when a value is not finite. */
export function runSteps(
  analysis: IAnalysis,
  givenAbs: readonly number[],
  mutation?: IMutation,
): number[] | null {
  const base = baseValues(analysis);
  const values: number[] = [];
  for (let i = 0; i < analysis.steps.length; i++) {
    const step = analysis.steps[i]!;
    const overrides = new Map<number, number>();
    for (const [id, b] of step.bindings) {
      const lit = literalById(step, id);
      if (b.kind === "given") {
        const g = analysis.givens[b.given]!;
        const scaled = (lit.value * givenAbs[g.index]!) / Math.abs(g.lit.value);
        overrides.set(id, mutation?.unconverted === id && mutation.step === i ? givenAbs[g.index]! : scaled);
      } else if (b.kind === "trig") {
        const g = analysis.givens[b.given]!;
        const angle = givenAbs[g.index]! * (mutation?.radians ? 1 : g.lit.unit!.factor);
        overrides.set(id, Math.abs(Math[b.fn](angle)));
      } else if (b.kind === "step") {
        overrides.set(id, fromStep(analysis, lit, b.step, values, base));
      }
    }
    const node = mutation?.step === i && mutation.node ? mutation.node : step.substitution.parsed!.node;
    const v = stepValue(step, evaluate(mutation?.radians ? inRadians(node) : node, overrides));
    if (!Number.isFinite(v)) return null;
    values.push(v);
  }
  return values;
}

/**
 * The value a literal standing for an earlier result takes: that result, exactly, in the
 * literal's unit (not the book's rounded "8.333" scaled), with the sign change a slip may cause.
 */
function fromStep(
  analysis: IAnalysis,
  lit: ILiteral,
  chain: number,
  values: readonly number[],
  base: readonly number[],
): number {
  const j = analysis.steps.findIndex((s) => s.chain === chain);
  const step = analysis.steps[j]!;
  const sign = Math.sign(values[j]! / base[j]!) || 1;
  const resultUnit = step.result.lit.unit;
  if (step.mode === "si" && lit.unit && resultUnit && sameDims(lit.unit.dims, resultUnit.dims)) {
    return (sign * Math.abs(values[j]!) * resultUnit.factor) / lit.unit.factor;
  }
  if (!lit.unit && lit.value === step.result.lit.value) return sign * Math.abs(values[j]!);
  return (lit.value * values[j]!) / base[j]!;
}

const baseCache = new WeakMap<IAnalysis, number[]>();

/** The steps' values as the book computes them (our evaluation of its substitutions). */
export function baseValues(analysis: IAnalysis): number[] {
  const cached = baseCache.get(analysis);
  if (cached) return cached;
  const values = analysis.steps.map((s) => stepValue(s, s.computed));
  baseCache.set(analysis, values);
  return values;
}

export function stepValue(step: IStep, v: { si: number; written: number }): number {
  return step.mode === "si" ? v.si / (step.result.lit.unit?.factor ?? 1) : v.written;
}

export function literalById(step: IStep, id: number): ILiteral {
  return step.substitution.parsed!.literals[id]!;
}

/** Degree literals under trig functions read as radians. */
function inRadians(node: TNode): TNode {
  const walk = (n: TNode, underTrig: boolean): TNode => {
    switch (n.k) {
      case "lit":
        return underTrig && n.lit.unit?.angle
          ? { k: "lit", lit: { ...n.lit, unit: { ...n.lit.unit, factor: 1 } } }
          : n;
      case "fn":
        return { ...n, a: walk(n.a, n.name !== "sqrt" || underTrig) };
      case "neg":
        return { k: "neg", a: walk(n.a, underTrig) };
      case "bin":
        return { ...n, a: walk(n.a, underTrig), b: walk(n.b, underTrig) };
      case "pow":
        return { k: "pow", a: walk(n.a, underTrig), b: walk(n.b, underTrig) };
      default:
        return n;
    }
  };
  return walk(node, false);
}

// ---------------------------------------------------------------------------------------------
// New values

/** A new value near the given's, rounded to its significant figures; angles stay in their quadrant. */
export function newGivenValue(g: IGiven, random: () => number): number {
  const v = Math.abs(g.lit.value);
  if (g.fixed) return v;
  const degrees = g.lit.unit?.angle && g.lit.unit.factor !== 1;
  for (let attempt = 0; attempt < 24; attempt++) {
    const f = 0.55 + 0.9 * random();
    if (Math.abs(f - 1) < 0.12) continue;
    let nv = roundSig(v * f, Math.max(1, g.lit.sig));
    if (degrees) {
      if (v % 5 === 0) nv = Math.round(nv / 5) * 5;
      if (v < 90 && (nv <= 0 || nv >= 90)) continue;
    }
    if (nv > 0 && nv !== v) return nv;
  }
  return roundSig(v * 1.3, Math.max(2, g.lit.sig));
}

/** Whether recomputed step values keep the book's situation sensible. */
export function sensible(analysis: IAnalysis, values: readonly number[]): boolean {
  const base = baseValues(analysis);
  return values.every((v, i) => {
    const b = base[i]!;
    if (!Number.isFinite(v) || v === 0 || Math.sign(v) !== Math.sign(b)) return false;
    const ratio = Math.abs(v / b);
    // New values that move a step by more than ×4 change the situation (a difference near zero).
    if (ratio < 1 / 4 || ratio > 4) return false;
    // A coefficient, fraction or efficiency at most 1 stays at most 1.
    const step = analysis.steps[i]!;
    const unitless = !step.result.lit.unit || step.result.lit.unitText === "%";
    const limit = step.result.lit.unitText === "%" ? 100 : 1;
    return !(unitless && Math.abs(b) <= limit && Math.abs(v) > limit);
  });
}
