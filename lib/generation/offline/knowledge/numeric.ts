import { analyseWorkedExample, type IAnalysis, type IStep } from "./numeric/analysis";
import { type ILiteral, readQuantity } from "./numeric/expression";
import { formatLike, formatSig, prettyText, withUnit } from "./numeric/format";
import type { IWorkedExample } from "./numeric/layout";
import { slipsOf } from "./numeric/slips";
import { prettyUnit, sameDims } from "./numeric/units";
import { baseValues, literalById, newGivenValue, runSteps, sensible } from "./numeric/variation";

/**
 * Numeric Apply problems from textbook worked examples, correct by verification rather than by
 * hope. `findWorkedExamples` finds "Problem … Solution" examples in the passages;
 * `makeNumericProblem` re-does the book's arithmetic (units and all), keeps the example only if
 * every step reproduces the book's result and every number is traced to a given, then poses the
 * same situation with new values, computes the answer through the book's own steps, and derives
 * distractors from typical slips. Pure and deterministic: randomness comes in as `random`.
 *
 * Refused, never guessed: problems that need their figure, a table or another example, that ask
 * for more than one thing, or whose parts the book does not solve one by one; solutions whose
 * numbers do not reproduce the stated result or cannot be traced to the problem. A multi-part
 * problem solved part by part yields one example per part.
 *
 * Pass a section's consecutive chunks where possible: an example split over chunks is joined,
 * but one whose problem and solution arrive in different, non-adjacent retrievals is not found.
 */

export { analyseWorkedExample, type IAnalysis, type TAnalysisResult } from "./numeric/analysis";
export { findWorkedExamples, type ISourceChunk, type IWorkedExample } from "./numeric/layout";

export interface INumericProblem {
  /** `${documentId}:${chunkIndex}` of the passage the quote comes from. */
  chunkKey: string;
  /** Exact text of that passage: the book's substitution line the problem is built on. */
  sourceQuote: string;
  title?: string;
  /** The example's situation with new given values, ending in its one question. */
  stem: string;
  /** "v_avg = Δd/Δt"; for several steps, their formulas joined with "; ". Empty if the book states none. */
  formula: string;
  /** `value` in `unit` (as displayed, "m/s²"); `text` is the option as shown. */
  answer: { value: number; text: string; unit: string };
  /** Best first (the first three make an MCQ); distinct from the key and each other as displayed. */
  distractors: { value: number; text: string; slip: string }[];
  /** Formula → substitution with the new values → result with unit, one line per step. */
  workedSolution: string;
  /** Separate, checkable ideas; the marks add up to the requested total. */
  markingPoints: { point: string; marks: number }[];
}

const MAX_ATTEMPTS = 30;
const MAX_DISTRACTORS = 5;

/**
 * A new problem from a worked example, or null when the example does not verify or no sensible
 * new values (or not three distinct slips) could be found. `marks` is the question's total.
 */
export function makeNumericProblem(
  example: IWorkedExample,
  random: () => number,
  marks = 3,
): INumericProblem | null {
  const analysed = analyseWorkedExample(example);
  if (!analysed.ok) return null;
  return problemFrom(analysed.analysis, random, marks);
}

/** The same from an analysis already made (`analyseWorkedExample`), to pose one example several times. */
export function problemFrom(analysis: IAnalysis, random: () => number, marks = 3): INumericProblem | null {
  const quote = quoteOf(analysis);
  if (!quote) return null;
  const final = analysis.steps[analysis.steps.length - 1]!;
  const base = baseValues(analysis);
  const originalAnswer = answerText(final, base[base.length - 1]!);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const givenAbs = analysis.givens.map((g) => newGivenValue(g, random));
    const values = runSteps(analysis, givenAbs);
    if (!values || !sensible(analysis, values)) continue;
    const key = values[values.length - 1]!;
    const answer = answerText(final, key);
    if (answer === originalAnswer) continue;
    const guard = answerSig(analysis) + 1;
    const texts = literalTexts(analysis, givenAbs, values, guard);
    const formulas = analysis.steps.map((s) =>
      s.formula ? formulaWithValues(s.formula, analysis, givenAbs) : undefined,
    );
    const distractors = distractorsFor(analysis, givenAbs, key, answer, texts, random);
    if (distractors.length < 3) continue;
    const lines = analysis.steps.map((s, i) =>
      stepLine(
        s,
        formulas[i],
        texts[i]!,
        i === values.length - 1 ? answer : resultText(s, values[i]!, guard),
      ),
    );
    const formula = formulas
      .filter((f): f is string => Boolean(f))
      .map(prettyText)
      .join("; ");
    return {
      chunkKey: quote.chunkKey,
      sourceQuote: quote.text,
      ...(analysis.example.title ? { title: analysis.example.title } : {}),
      stem: stemText(analysis, givenAbs),
      formula,
      answer: {
        value: key * statedAs(final).scale,
        text: answer,
        unit: prettyUnit(statedAs(final).lit.unitText),
      },
      distractors,
      workedSolution: lines.join("\n"),
      markingPoints: markingPoints(analysis, formula, lines, answer, marks),
    };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Text

/**
 * How the book states its final result: the last stated value ("= 661 N ≈ 660 N": 660 N; "=
 * 6.33 × 10^(−4) mm = 633 nm": 633 nm) and the factor from the computed unit to it.
 */
function statedAs(step: IStep): { lit: ILiteral; scale: number } {
  const { result, rounded } = step;
  const ru = result.lit.unit;
  const du = rounded?.lit.unit;
  if (!rounded || (ru?.factor ?? 1) === (du?.factor ?? 1))
    return { lit: rounded?.lit ?? result.lit, scale: 1 };
  if (step.mode === "si" && ru && du && sameDims(ru.dims, du.dims))
    return { lit: rounded.lit, scale: ru.factor / du.factor };
  return { lit: result.lit, scale: 1 };
}

/** The answer as the book states its result: significant figures, notation, unit, direction. */
function answerText(step: IStep, value: number, sci?: boolean): string {
  const { lit, scale } = statedAs(step);
  return withUnit(
    formatSig(value * scale, Math.max(2, lit.sig), sci ?? lit.sci),
    lit.unitText,
    step.result.direction,
  );
}

/** Significant figures of the answer: the book's, at least two. */
function answerSig(analysis: IAnalysis): number {
  return Math.max(2, statedAs(analysis.steps[analysis.steps.length - 1]!).lit.sig);
}

/**
 * An intermediate value keeps a guard figure beyond the answer's ("m = 84 kg" in a 2-figure
 * answer becomes "66.9 kg"), so the worked solution recomputes to the answer as shown.
 */
function intermediate(value: number, lit: ILiteral, guard: number): string {
  return formatSig(value, Math.max(lit.sig, guard), lit.sci, lit.grouped && Math.abs(value) >= 1000);
}

function resultText(step: IStep, value: number, guard: number): string {
  return withUnit(
    intermediate(value, step.result.lit, guard),
    step.result.lit.unitText,
    step.result.direction,
  );
}

/** The problem statement with each given's number replaced by its new value. */
function stemText(analysis: IAnalysis, givenAbs: readonly number[]): string {
  const edits = analysis.givens.flatMap((g) =>
    g.spans.map((span) => ({ ...span, text: formatLike(givenAbs[g.index]!, g.lit) })),
  );
  let text = analysis.problem;
  for (const e of edits.sort((a, b) => b.start - a.start)) {
    // "an 80.0-kg person" becomes "a 62.0-kg person".
    const before = text.slice(0, e.start).replace(/\b(an?)(\s+)$/i, (_m, article: string, gap: string) => {
      const an = /^(?:8|11(?!\d)|18(?!\d)|11,?\d{3}(?!\d)|18,?\d{3}(?!\d))/.test(e.text);
      const word = an ? "an" : "a";
      return (article[0] === "A" ? word.charAt(0).toUpperCase() + word.slice(1) : word) + gap;
    });
    text = before + e.text + text.slice(e.numEnd);
  }
  return prettyText(text);
}

/** For each step, the new text of each literal of its substitution (by literal id). */
function literalTexts(
  analysis: IAnalysis,
  givenAbs: readonly number[],
  values: readonly number[],
  guard: number,
): Map<number, string>[] {
  const base = baseValues(analysis);
  return analysis.steps.map((step) => {
    const texts = new Map<number, string>();
    for (const [id, b] of step.bindings) {
      const lit = literalById(step, id);
      if (b.kind === "constant" || b.kind === "conversion") continue;
      if (b.kind === "given") {
        const g = analysis.givens[b.given]!;
        // In the given's unit (or its digits with the unit split off): the stem's new number;
        // converted ("0.75000 m" for "75.000 cm"): the new value converted.
        const gu = g.lit.unit!;
        const sameUnit = lit.unit ? lit.unit.factor === gu.factor && sameDims(lit.unit.dims, gu.dims) : false;
        const asWritten = sameUnit || lit.text.replace(/[,\s]/g, "") === g.lit.text.replace(/[,\s]/g, "");
        const v = (lit.value * givenAbs[g.index]!) / Math.abs(g.lit.value);
        texts.set(id, asWritten ? formatLike(givenAbs[g.index]!, g.lit) : formatLike(v, lit));
      } else if (b.kind === "trig") {
        const g = analysis.givens[b.given]!;
        texts.set(id, formatLike(Math.abs(Math[b.fn](givenAbs[g.index]! * g.lit.unit!.factor)), lit));
      } else {
        // An earlier result reads as that step shows it, unless the book wrote it in other units.
        const j = analysis.steps.findIndex((s) => s.chain === b.step);
        const from = analysis.steps[j]!.result.lit;
        const asShown = !lit.unit || (from.unit?.factor === lit.unit.factor && lit.value === from.value);
        texts.set(
          id,
          asShown
            ? intermediate(Math.abs(values[j]!), from, guard)
            : intermediate((lit.value * values[j]!) / base[j]!, lit, guard),
        );
      }
    }
    return texts;
  });
}

function substituted(step: IStep, texts: ReadonlyMap<number, string>): string {
  let text = step.substitution.text;
  const lits = [...step.substitution.parsed!.literals]
    .filter((l) => texts.has(l.id))
    .sort((a, b) => b.start - a.start);
  for (const lit of lits) text = text.slice(0, lit.start) + texts.get(lit.id)! + text.slice(lit.numEnd);
  return text;
}

function stepLine(
  step: IStep,
  formula: string | undefined,
  texts: ReadonlyMap<number, string>,
  result: string,
): string {
  const parts = [formula ?? step.lhs, substituted(step, texts), result].filter(Boolean);
  return prettyText(parts.join(" = "));
}

/** A formula that writes a given's value ("μ_k = f_k/(mg cos 25°)") shows the new value instead. */
function formulaWithValues(formula: string, analysis: IAnalysis, givenAbs: readonly number[]): string {
  const edits: { start: number; end: number; text: string }[] = [];
  for (const m of formula.matchAll(/(?<![\w.^])\d/g)) {
    const lit = readQuantity(formula, m.index, true);
    if (!lit?.unit) continue;
    const g = analysis.givens.find(
      (x) =>
        x.lit.value === lit.value &&
        x.lit.unit!.factor === lit.unit!.factor &&
        sameDims(x.lit.unit!.dims, lit.unit!.dims),
    );
    if (g) edits.push({ start: lit.start, end: lit.numEnd, text: formatLike(givenAbs[g.index]!, g.lit) });
  }
  let text = formula;
  for (const e of edits.reverse()) text = text.slice(0, e.start) + e.text + text.slice(e.end);
  return text;
}

// ---------------------------------------------------------------------------------------------
// Distractors

function distractorsFor(
  analysis: IAnalysis,
  givenAbs: readonly number[],
  key: number,
  answer: string,
  texts: readonly Map<number, string>[],
  random: () => number,
): INumericProblem["distractors"] {
  const final = analysis.steps[analysis.steps.length - 1]!;
  const describe = (step: number, lit: ILiteral) => {
    const t = texts[step]?.get(lit.id) ?? lit.text;
    return prettyText(withUnit(t, lit.unitText));
  };
  // Each slip's value first; then the most tempting first: the kind of slip, then how near the key.
  const scored = slipsOf(analysis, describe).flatMap((c) => {
    const value = c.scale
      ? key * c.scale
      : c.mutation
        ? runSteps(analysis, givenAbs, c.mutation)?.at(-1)
        : undefined;
    if (value === undefined || !Number.isFinite(value) || value === 0) return [];
    // A negative option for a quantity the book never signs (a time, a height) is no temptation.
    if (value < 0 && key > 0 && !final.result.direction) return [];
    const distance = Math.abs(Math.log10(Math.abs(value / key)));
    // Within 5 % of the key reads as the key rounded differently; beyond ×1000 tempts nobody.
    if (Math.abs(value - key) < 0.05 * Math.abs(key) || distance > 3) return [];
    return [{ ...c, value, order: c.priority + Math.min(1, distance / 3) + random() * 0.4 }];
  });
  scored.sort((a, b) => a.order - b.order);
  const seen = new Set([answer]);
  const slips = new Set<string>();
  const out: INumericProblem["distractors"] = [];
  for (const c of scored) {
    // Options share the key's notation: no "0.107 m/s" beside "1.07 × 10⁻² m/s".
    const text = answerText(final, c.value, answer.includes("×"));
    if (seen.has(text) || slips.has(c.slip)) continue;
    seen.add(text);
    slips.add(c.slip);
    out.push({ value: c.value * statedAs(final).scale, text, slip: c.slip });
    if (out.length >= MAX_DISTRACTORS) break;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Marking

/** Formula, intermediate results, substitution, answer with unit; merged or weighted to `marks`. */
function markingPoints(
  analysis: IAnalysis,
  formula: string,
  lines: readonly string[],
  answer: string,
  marks: number,
): INumericProblem["markingPoints"] {
  const total = Math.max(1, Math.round(marks));
  const steps = analysis.steps;
  const ideas: { point: string; weight: number }[] = [];
  if (steps.length === 1 && formula) ideas.push({ point: `Uses ${formula}`, weight: 1 });
  steps.slice(0, -1).forEach((s, i) => {
    ideas.push({
      point: `Finds ${s.lhs ? prettyText(s.lhs) : "the intermediate result"}: ${lines[i]}`,
      weight: 2,
    });
  });
  const finalLine = lines[lines.length - 1]!;
  ideas.push({ point: `Substitutes the values: ${finalLine.replace(/\s*=\s*[^=]*$/, "")}`, weight: 2 });
  ideas.push({ point: `Answer ${answer}, with the unit`, weight: 1 });
  while (ideas.length > total) {
    // Merge the first two ideas; the answer always keeps a mark of its own.
    const [a, b] = ideas.splice(0, 2) as [(typeof ideas)[0], (typeof ideas)[0]];
    ideas.unshift({
      point: `${a.point}; ${b.point.charAt(0).toLowerCase()}${b.point.slice(1)}`,
      weight: a.weight + b.weight,
    });
  }
  const out = ideas.map((i) => ({ point: i.point, marks: 1 }));
  // Extra marks go to the working (substitution, intermediate steps), heaviest first.
  const order = ideas.map((idea, i) => ({ i, w: idea.weight })).sort((x, y) => y.w - x.w || x.i - y.i);
  for (let k = 0, left = total - out.length; left > 0; k++, left--) out[order[k % order.length]!.i]!.marks++;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Citation

/** The book's line holding the answer's substitution, and a chunk that contains it verbatim. */
function quoteOf(analysis: IAnalysis): { chunkKey: string; text: string } | null {
  const { solution, sources } = analysis.example;
  const final = analysis.steps[analysis.steps.length - 1]!;
  const at = final.substitution.start;
  const lineStart = solution.lastIndexOf("\n", at) + 1;
  const lineEnd = solution.indexOf("\n", at);
  const line = solution
    .slice(lineStart, lineEnd < 0 ? solution.length : lineEnd)
    .replace(/^\s*(?:Solution|Answer)\s*:\s*/i, "")
    .trim();
  const source = sources.find((s) => s.content.includes(line));
  return source ? { chunkKey: source.chunkKey, text: line } : null;
}
