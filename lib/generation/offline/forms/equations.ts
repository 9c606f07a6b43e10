import {
  exponentOf,
  FIXED,
  type IEquation,
  type IQuantity,
  isProperty,
  isWaveSpeedLaw,
  quantitiesOf,
} from "@/lib/generation/offline/knowledge/equations";
import { formatSig, roundSig } from "@/lib/generation/offline/knowledge/numeric/format";
import { prettyMath } from "@/lib/generation/offline/knowledge/numeric/units";
import type { EQuestionType } from "@/types/generation.types";
import {
  capital,
  formUseKey,
  type IForm,
  type IFormEnv,
  type IOption,
  keywords,
  mcq,
  shuffle,
  written,
} from "./common";

/**
 * Questions from a relation the passages state as an equation ("f = μN", "F_net = ma",
 * "a_c = v^2/r"), with the quantities the passage names (see `knowledge/equations.ts`):
 *
 * - Apply: a numeric problem with new values, units and a worked solution; MCQ options from the
 *   slips students make (divided the wrong way, forgot the square, forgot to convert g to kg);
 *   the long form rearranges for another quantity.
 * - Analyze: readings computed from the relation, to say which proportion they show (and, in the
 *   long form, which reading does not fit).
 * - Evaluate: a student's proportional-reasoning claim ("doubling r halves a_c") to judge, marks
 *   on the justification; a claim is right about as often as it is wrong.
 * - Create: plan a fair test of the relation: what to change, measure and keep the same, and what
 *   graph would support it.
 *
 * Every number is computed here, never copied: the answer follows from the stated equation.
 */

const show = (s: string) =>
  prettyMath(s.replace(/\(([^()\s/]+\^\d)\)/g, "$1")).replace(
    /_\(([^)]+)\)|_(\w+)/g,
    (_m, a, b) => `_${a ?? b}`,
  );
/** "m/s²" after a number, nothing for a pure number. */
const withU = (value: number, q: IQuantity, sig = 2) =>
  q.unit ? `${formatSig(value, sig)} ${q.unit}` : formatSig(value, sig);

/** Typical school values: a 2-significant-figure mantissa times a power of ten per unit. */
const EXPONENTS: Record<string, readonly number[]> = {
  kg: [0, 1],
  N: [1, 2],
  "m/s²": [0],
  "m/s": [0, 1],
  s: [0, 1],
  m: [0, 1],
  J: [2, 3],
  W: [1, 2],
  Pa: [3, 4],
  "": [-1],
  "N/m": [1, 2],
  Hz: [0, 1],
  "m²": [-1, 0],
  "m³": [-1],
  "kg/m³": [3],
  "rad/s": [0],
  "kg⋅m/s": [1],
  "N⋅s": [1],
  C: [-3],
  A: [0],
  V: [0, 1],
  Ω: [1, 2],
  "kg⋅m²/s": [0, 1],
  "kg⋅m²": [-1, 0],
  "N⋅m": [1, 2],
  "J/kg": [5],
  "J/K": [2, 3],
  "W/m²": [-3, -2],
  "N/C": [3, 4],
  K: [2],
  // Wave 11: specific heats of school materials (lead 130 … water 4200), capacitors in μF, lab magnets.
  "J/(kg⋅K)": [2, 3],
  F: [-6, -5],
  T: [-2, -1],
};

function pickValue(q: IQuantity, random: () => number): number {
  const exps = EXPONENTS[q.unit] ?? [0];
  const e = exps[Math.floor(random() * exps.length)]!;
  // Coefficients of friction stay below 1; other mantissas 1.2–9.5.
  const m = q.unit === "" ? 1 + Math.floor(random() * 8) : 12 + Math.floor(random() * 84);
  return roundSig(q.unit === "" ? m / 10 : (m / 10) * 10 ** e, 2);
}

/** g and c: given, never varied or asked for. */
const isGravity = (q: IQuantity) => FIXED[q.symbol]?.name === q.name;
const fixedValue = (q: IQuantity) => FIXED[q.symbol]?.value ?? Number.NaN;

/** The law solved for one of its quantities: q ∝ product of the others to powers. */
interface ISolved {
  target: IQuantity;
  /** Powers of every other quantity (subject included when the target is a factor). */
  terms: { q: IQuantity; power: number }[];
  coefficient: number;
  /** The rearranged equation for display ("a = F_net/m"). */
  formula: string;
}

function solveFor(eq: IEquation, target: IQuantity): ISolved | null {
  if (target.symbol === eq.subject.symbol) {
    return {
      target,
      terms: eq.factors.map((f) => ({ q: f, power: f.power })),
      coefficient: eq.coefficient,
      formula: eq.text,
    };
  }
  const t = eq.factors.find((f) => f.symbol === target.symbol);
  if (!t || Math.abs(t.power) !== 1) return null;
  // subject = c · t^p · Π others  ⇒  t = (subject / (c · Π others))^(1/p)
  const p = t.power;
  const terms = [
    { q: eq.subject as IQuantity, power: 1 / p },
    ...eq.factors.filter((f) => f !== t).map((f) => ({ q: f as IQuantity, power: -f.power / p })),
  ];
  return {
    target,
    terms,
    coefficient: eq.coefficient ** (-1 / p),
    formula: formulaText(target, terms, eq.coefficient ** (-1 / p)),
  };
}

function formulaText(
  target: IQuantity,
  terms: readonly { q: IQuantity; power: number }[],
  c: number,
): string {
  const part = (list: { q: IQuantity; power: number }[]) =>
    list.map((t) => `${show(t.q.symbol)}${Math.abs(t.power) === 1 ? "" : `^${Math.abs(t.power)}`}`).join("");
  const num = part(terms.filter((t) => t.power > 0));
  const den = part(terms.filter((t) => t.power < 0));
  const coef = c === 1 ? "" : formatSig(c, 3);
  const top = `${coef}${num}` || "1";
  return prettyMath(`${show(target.symbol)} = ${den ? `${top}/${den.length > 2 ? `(${den})` : den}` : top}`);
}

const compute = (
  s: ISolved,
  values: ReadonlyMap<string, number>,
  override?: (t: { q: IQuantity; power: number }) => number,
) =>
  s.terms.reduce(
    (acc, t) => acc * (values.get(t.q.symbol) ?? Number.NaN) ** (override ? override(t) : t.power),
    s.coefficient,
  );

/**
 * Equations in order of preference for a form: those no accepted question cites yet first, rotated
 * per level. One the set already asks through this same form is left out (the other forms may
 * still ask it another way: a calculation, a table, a claim, a plan).
 */
function ordered(env: IFormEnv, offset: number, form: string): IEquation[] {
  const list = env.kb.equations;
  if (list.length === 0) return [];
  const rotated = list.map((_, i) => list[(i + offset) % list.length]!);
  const asked = (e: IEquation) => env.used.has(formUseKey(form, e.quote));
  const open = rotated.filter((e) => !asked(e));
  return [...open.filter((e) => !env.used.has(e.quote)), ...open.filter((e) => env.used.has(e.quote))];
}

const source = (eq: IEquation) => [{ chunkKey: eq.chunkKey, quote: eq.quote }];

// ---------------------------------------------------------------------------------------------
// Apply: numeric problems

interface IProblem {
  stem: string;
  answer: number;
  answerText: string;
  distractors: IOption[];
  working: string[];
  points: { point: string; weight?: number }[];
}

/** A problem for `solved` with new values; a mass may be given in grams (a conversion to do). */
function makeProblem(eq: IEquation, solved: ISolved, random: () => number): IProblem | null {
  const values = new Map<string, number>();
  const given: string[] = [];
  const conversions: string[] = [];
  let gramsSymbol: string | null = null;
  for (const t of solved.terms) {
    if (isGravity(t.q)) {
      values.set(t.q.symbol, fixedValue(t.q));
      continue;
    }
    const v = pickValue(t.q, random);
    values.set(t.q.symbol, v);
    if (t.q.unit === "kg" && v < 1 && !gramsSymbol) {
      gramsSymbol = t.q.symbol;
      given.push(`${t.q.name} ${show(t.q.symbol)} = ${formatSig(v * 1000, 2)} g`);
      conversions.push(`${show(t.q.symbol)} = ${formatSig(v * 1000, 2)} g = ${formatSig(v, 2)} kg`);
    } else given.push(`${t.q.name} ${show(t.q.symbol)} = ${withU(v, t.q)}`);
  }
  const answer = compute(solved, values);
  if (!Number.isFinite(answer) || answer <= 0) return null;
  const sig = 2;
  const answerText = withU(answer, solved.target, sig);
  const slips: IOption[] = [];
  const add = (value: number, why: string) => {
    if (!Number.isFinite(value) || value <= 0) return;
    const text = withU(value, solved.target, sig);
    if (text === answerText || slips.some((s) => s.text === text)) return;
    slips.push({ text, rationale: why });
  };
  const den = solved.terms.filter((t) => t.power < 0);
  const num = solved.terms.filter((t) => t.power > 0);
  if (den.length > 0)
    add(
      compute(solved, values, (t) => Math.abs(t.power)),
      `Multiplies by ${den.map((t) => t.q.name).join(" and ")} instead of dividing.`,
    );
  if (num.length > 0 && den.length > 0)
    add(
      compute(solved, values, (t) => -t.power),
      "Divides the wrong way round (inverts the ratio).",
    );
  const squared = solved.terms.find((t) => Math.abs(t.power) === 2);
  if (squared)
    add(
      compute(solved, values, (t) => (t === squared ? Math.sign(t.power) : t.power)),
      `Forgets to square ${squared.q.name}.`,
    );
  const rooted = solved.terms.find((t) => Math.abs(t.power) === 0.5);
  if (rooted)
    add(
      compute(solved, values, (t) => (t === rooted ? Math.sign(t.power) : t.power)),
      `Forgets to take the square root.`,
    );
  if (gramsSymbol) {
    const t = solved.terms.find((x) => x.q.symbol === gramsSymbol)!;
    add(answer * 1000 ** t.power, "Uses the mass in grams without converting it to kilograms.");
  }
  if (solved.coefficient !== 1)
    add(answer / solved.coefficient, `Leaves out the factor ${formatSig(solved.coefficient, 3)}.`);
  if (num.length >= 2 && den.length === 0)
    add(
      compute(solved, values, (t) => (t === num[num.length - 1] ? -t.power : t.power)),
      `Divides by ${num[num.length - 1]!.q.name} instead of multiplying.`,
    );
  add(answer * 10, "Slips a power of ten: gives ten times the right value.");
  add(answer / 10, "Slips a power of ten: gives a tenth of the right value.");
  const substituted = formulaWith(solved, values);
  const working = [
    ...conversions,
    solved.formula,
    `${show(solved.target.symbol)} = ${substituted}`,
    `${show(solved.target.symbol)} = ${answerText}`,
  ];
  const rearranged = solved.formula !== eq.text;
  const stem = `${given.length > 1 ? `${capital(given.slice(0, -1).join(", "))} and ${given[given.length - 1]}` : capital(given[0] ?? "")}. ${solved.terms
    .filter((t) => isGravity(t.q))
    .map((t) => `Take ${FIXED[t.q.symbol]!.text}. `)
    .join(
      "",
    )}Using the equation ${show(eq.text)}, calculate the ${solved.target.name} ${show(solved.target.symbol)}${solved.target.unit ? ` in ${solved.target.unit}` : ""}.`;
  const points = [
    ...(rearranged
      ? [{ point: `Rearranges the equation: ${solved.formula}` }]
      : [{ point: `Uses ${show(eq.text)}` }]),
    ...(gramsSymbol ? [{ point: `Converts the mass to kilograms: ${conversions[0]}` }] : []),
    { point: `Puts in the values: ${show(solved.target.symbol)} = ${substituted}` },
    { point: `Answer with its unit: ${answerText}` },
  ];
  return { stem, answer, answerText, distractors: slips, working, points };
}

function formulaWith(solved: ISolved, values: ReadonlyMap<string, number>): string {
  const v = (q: IQuantity) => `(${withU(values.get(q.symbol) ?? 0, q)})`;
  const part = (list: { q: IQuantity; power: number }[]) =>
    list
      .map((t) => `${v(t.q)}${Math.abs(t.power) === 1 ? "" : prettyMath(`^${Math.abs(t.power)}`)}`)
      .join("");
  const num = part(solved.terms.filter((t) => t.power > 0));
  const den = part(solved.terms.filter((t) => t.power < 0));
  const coef = solved.coefficient === 1 ? "" : formatSig(solved.coefficient, 3);
  return den ? `${coef}${num || "1"}/${den}` : `${coef}${num}`;
}

export const equationProblem: IForm = {
  id: "equation-problem",
  fits: (_type, level) => level === "Apply",
  available: (kb) => kb.equations.length,
  *build(env) {
    const long = env.slot.type === "long";
    for (const eq of ordered(env, 0, "equation-problem")) {
      // "c = fλ": the speed of light is not something to calculate.
      if (isGravity(eq.subject)) continue;
      // "v = fλ" in passages on light: its speed is c, whatever f and λ a problem makes up (round 13
      // readers rejected "f = 56 Hz and λ = 61 m … calculate the speed" in a section on light).
      if (
        isWaveSpeedLaw(eq) &&
        env.kb.chunks.some((c) => /\b(?:light|electromagnetic|photons?)\b/i.test(c.content))
      ) {
        env.trace?.("the speed of a light wave is c: not calculated from a made-up f and λ");
        continue;
      }
      const solved = solveFor(eq, eq.subject);
      if (!solved) continue;
      // An answer the passages already state ("50 N") would be found, not computed: new values.
      let p: IProblem | null = null;
      for (let attempt = 0; attempt < 6 && !p; attempt++) {
        const made = makeProblem(eq, solved, env.random);
        const number = made?.answerText.split(" ")[0] ?? "";
        if (
          made &&
          !env.kb.chunks.some((c) =>
            new RegExp(`(?<![\\d.])${number.replace(/\./g, "\\.")}(?![\\d])`).test(c.content),
          )
        )
          p = made;
      }
      if (!p) {
        env.trace?.("no new values whose answer the passages do not state");
        continue;
      }
      if (env.slot.type === "mcq") {
        const q = mcq(env, {
          prompt: p.stem,
          key: { text: p.answerText },
          distractors: p.distractors.slice(0, 3),
          explanation: `Worked solution: ${p.working.join("; ")}.`,
          sources: source(eq),
        });
        if (q) yield q;
        else env.trace?.("MCQ: < 3 distinct slip answers");
        continue;
      }
      const show3 = "Show your working: the equation, the values put in, and the answer with its unit.";
      if (!long) {
        const q = written(env, {
          prompt: `${p.stem} ${show3}`,
          answer: p.working.join("; "),
          points: p.points,
          keywords: [p.answerText, show(eq.text)],
          sources: source(eq),
        });
        if (q) yield q;
        continue;
      }
      // Long: the calculation, then the same situation with one factor changed, by proportion.
      const d = dependences(eq).find((x) => x.output === eq.subject && !isGravity(x.input));
      if (!d) continue;
      const k = 2 + Math.floor(env.random() * 2);
      const next = p.answer * k ** d.exponent;
      const nextText = withU(next, eq.subject);
      const keep = kept(d);
      const q = written(env, {
        prompt: `(a) ${p.stem} ${show3}\n(b) The ${d.input.name} is then ${FACTOR_WORD[k]}${keep ? ` while the ${keep} ${d.others.length > 1 ? "are" : "is"} kept the same` : ""}. Without repeating the whole calculation, state the new ${eq.subject.name} and explain how the equation shows it.`,
        answer: `(a) ${p.working.join("; ")}. (b) The ${d.output.name} is ${RELATION[String(d.exponent)]} the ${d.input.name}, so it ${effect(k, d.exponent)}: ${nextText}.`,
        points: [
          ...p.points,
          {
            point: `(b) The ${d.output.name} is ${RELATION[String(d.exponent)]} the ${d.input.name}, so it ${effect(k, d.exponent)}`,
          },
          { point: `(b) New value: ${nextText}` },
        ],
        keywords: [p.answerText, nextText, show(eq.text)],
        sources: source(eq),
      });
      if (q) yield q;
    }
  },
};

// ---------------------------------------------------------------------------------------------
// How one quantity depends on another, the rest kept the same

export interface IDependence {
  output: IQuantity;
  input: IQuantity;
  /** output ∝ input^exponent. */
  exponent: number;
  others: IQuantity[];
}

/** Pairs (output, input) with a whole or square-law exponent, subject-as-output first. */
function dependences(eq: IEquation): IDependence[] {
  const out: IDependence[] = [];
  const all = quantitiesOf(eq);
  // A wave's speed is set by its medium (wave 11 reading: "kept the wavelength the same and
  // measured the speed for four frequencies"): in v = fλ only frequency (or period) and
  // wavelength change together, the speed held.
  const wave = all.some((q) => /\bwavelength\b/.test(q.name));
  for (const output of all)
    for (const input of all) {
      if (output === input || isGravity(input) || isGravity(output)) continue;
      if (wave && /\b(?:speed|velocity)\b/.test(`${output.name} ${input.name}`)) continue;
      // "if the charge is doubled, the capacitance doubles" (wave 14 development reading): a
      // property of the object does not follow the other quantities of its defining ratio.
      if (isProperty(output)) continue;
      const e = exponentOf(eq, output, input);
      if (![1, -1, 2, -2].includes(e)) continue;
      out.push({ output, input, exponent: e, others: all.filter((q) => q !== output && q !== input) });
    }
  return out.sort((a, b) => Number(b.output === eq.subject) - Number(a.output === eq.subject));
}

const RELATION: Record<string, string> = {
  "1": "directly proportional to",
  "-1": "inversely proportional to",
  "2": "proportional to the square of",
  "-2": "inversely proportional to the square of",
};
const relation = (d: IDependence) => `${d.output.name} is ${RELATION[String(d.exponent)]} ${d.input.name}`;
const FACTOR_WORD: Record<number, string> = { 2: "doubled", 3: "tripled", 4: "made four times as large" };
function effect(k: number, e: number): string {
  const f = k ** e;
  if (Math.abs(f - 1) < 1e-9) return "stays the same";
  if (f > 1)
    return Number.isInteger(f)
      ? f === 2
        ? "doubles"
        : `becomes ${f} times as large`
      : `becomes ${formatSig(f, 3)} times as large`;
  const inv = 1 / f;
  return Math.abs(inv - Math.round(inv)) < 1e-9
    ? inv === 2
      ? "halves"
      : `becomes 1/${Math.round(inv)} of its value`
    : `becomes ${formatSig(f, 3)} times its value`;
}
const kept = (d: IDependence) =>
  d.others.length
    ? d.others
        .filter((q) => !isGravity(q))
        .map((q) => q.name)
        .join(" and ")
    : "";

// ---------------------------------------------------------------------------------------------
// Evaluate: a proportional-reasoning claim

/** The claim a student makes: right, or the slip students make for this exponent. */
function claimFor(d: IDependence, k: number, right: boolean): string {
  const e = d.exponent;
  if (right) return effect(k, e);
  // Typical errors: ignoring an inverse (treats it as direct), forgetting the square.
  if (e === -1) return effect(k, 1);
  if (e === 2) return effect(k, 1);
  if (e === -2) return effect(k, -1);
  return effect(k, -1);
}

export const equationClaim: IForm = {
  id: "equation-claim",
  fits: (_type, level) => level === "Evaluate",
  available: (kb) => kb.equations.reduce((n, e) => n + dependences(e).length, 0),
  *build(env) {
    let turn = 0;
    for (const eq of ordered(env, 1, "equation-claim")) {
      // The claim is about what the equation gives (its subject): "if the force is tripled, the
      // mass becomes …" turns a property into a result (round 12 readers: mass does not follow
      // the force).
      for (const d of dependences(eq)
        .filter((x) => x.output === eq.subject)
        .slice(0, 4)) {
        const k = 2 + Math.floor(env.random() * 2);
        // Wrong claims first except every third, so a set does not always say "incorrect".
        const right = turn++ % 3 === 2 || (d.exponent === 1 && env.random() < 0.5);
        const claimed = claimFor(d, k, right);
        const truth = effect(k, d.exponent);
        if (!right && claimed === truth) continue;
        const keep = kept(d);
        const claim = `Because ${show(eq.text)}, if the ${d.input.name} is ${FACTOR_WORD[k]}${keep ? ` while the ${keep} ${d.others.length > 1 ? "are" : "is"} kept the same` : ""}, the ${d.output.name} ${claimed}.`;
        const why = `With the ${keep || "other quantities"} fixed, ${relation(d)}, so when the ${d.input.name} is ${FACTOR_WORD[k]} the ${d.output.name} is multiplied by ${formatSig(k ** d.exponent, 3)}: it ${truth}.`;
        if (env.slot.type === "mcq") {
          const wrongViews = [1, -1, 2, -2]
            .filter((e) => effect(k, e) !== truth)
            .map((e) => ({ e, text: effect(k, e) }))
            .filter((v, i, all) => all.findIndex((w) => w.text === v.text) === i);
          const keyText = right
            ? `The claim is correct: ${d.output.name} is ${RELATION[String(d.exponent)]} ${d.input.name}, so it ${truth}.`
            : `The claim is incorrect: ${d.output.name} is ${RELATION[String(d.exponent)]} ${d.input.name}, so it ${truth}.`;
          const distractors: IOption[] = wrongViews.slice(0, 3).map((v) => ({
            text:
              v.text === claimed
                ? `The claim is correct: ${d.output.name} is ${RELATION[String(v.e)]} ${d.input.name}, so it ${v.text}.`
                : `The claim is incorrect: ${d.output.name} is ${RELATION[String(v.e)]} ${d.input.name}, so it ${v.text}.`,
            rationale: `Reads the equation as if ${d.output.name} were ${RELATION[String(v.e)]} ${d.input.name}.`,
          }));
          const q = mcq(env, {
            prompt: `A student claims: “${claim}” Which is the correct way to judge the claim?`,
            key: { text: keyText },
            distractors: shuffle(distractors, env.random),
            explanation: why,
            sources: source(eq),
          });
          if (q) yield q;
          continue;
        }
        const long = env.slot.type === "long";
        const vals = new Map<string, number>();
        for (const q of quantitiesOf(eq))
          vals.set(q.symbol, isGravity(q) ? fixedValue(q) : pickValue(q, env.random));
        const q = written(env, {
          prompt: `A student claims: “${claim}” Evaluate the claim. ${long ? "Justify your judgement from how the quantities in the equation are proportional, check it with numbers of your own choice put into the equation before and after the change, and state the correct relationship." : "Is the student right? Justify your answer from how the quantities in the equation are proportional; marks are for the justification."}`,
          answer: `The claim is ${right ? "correct" : "incorrect"}. ${why}${long ? ` A check with numbers: with the ${keep || "other quantities"} unchanged, a ${d.input.name} of 1 unit and then ${k} units gives a ${d.output.name} ${formatSig(k ** d.exponent, 3)} times as large the second time.` : ""}`,
          points: [
            { point: `Uses the equation with the ${keep || "other quantities"} fixed: ${relation(d)}` },
            { point: `So when the ${d.input.name} is ${FACTOR_WORD[k]}, the ${d.output.name} ${truth}` },
            { point: `Judges the claim ${right ? "correct" : "incorrect"}, with this reasoning` },
            ...(long
              ? [
                  {
                    point:
                      "Checks with numbers of their own choice put into the equation before and after the change",
                    weight: 2,
                  },
                ]
              : []),
          ],
          keywords: keywords([d.output.name, d.input.name, "proportional"]),
          sources: source(eq),
        });
        if (q) yield q;
      }
    }
  },
};

// ---------------------------------------------------------------------------------------------
// Analyze: readings computed from the relation

/**
 * Whether a value is one a school lab or textbook would show for its quantity: a coefficient
 * (no unit) between 0 and 1, anything else within a power of ten below and two above the
 * typical range of its unit (round 8 readers: coefficients of friction of 2.8, 316 V from 29 A,
 * a wave at 7 Hz and 6.4 m "of light").
 */
export function plausible(v: number, unit: string): boolean {
  if (!Number.isFinite(v) || v <= 0) return false;
  if (unit === "") return v <= 1;
  const exps = EXPONENTS[unit] ?? [0];
  return v >= 10 ** (Math.min(...exps) - 1) && v < 10 ** (Math.max(...exps) + 2);
}

/**
 * Readings computed from the equation itself, with plausible values for the quantities kept the
 * same and g, c at their real values: the constant the table implies is the real one (round 8
 * readers: a weight table implying g = 50 m/s², fλ = 44.8 m/s for light). Null when no plausible
 * set of readings is found in a few tries.
 */
export function readings(
  eq: IEquation,
  d: IDependence,
  random: () => number,
): { x: number[]; y: number[] } | null {
  const solved = solveFor(eq, d.output);
  if (!solved) return null;
  for (let attempt = 0; attempt < 8; attempt++) {
    const values = new Map<string, number>();
    for (const q of d.others) values.set(q.symbol, isGravity(q) ? fixedValue(q) : pickValue(q, random));
    // A coefficient stays below 1 over four readings (steps of 0.05–0.15); other bases keep two
    // figures, so every multiple is exact to three (not 3650 × 3 shown as "11,000").
    const base =
      d.input.unit === "" ? (1 + Math.floor(random() * 3)) / 20 : roundSig(pickValue(d.input, random) / 2, 2);
    // Exact multiples of a 2-figure base, shown to 3 figures: the pattern is in the numbers.
    const x = [1, 2, 3, 4].map((m) => roundSig(base * m, 3));
    const y = x.map((v) => {
      values.set(d.input.symbol, v);
      return roundSig(compute(solved, values), 3);
    });
    if (x.every((v) => plausible(v, d.input.unit)) && y.every((v) => plausible(v, d.output.unit)))
      return { x, y };
  }
  return null;
}

/**
 * "Doubling the mass doubles the weight", "… halves the frequency", "… makes the force 4 times
 * as large" (round 8 readers: "makes the force halves", "Doubling the mass doubles:").
 */
export function doublingText(input: string, output: string, e: number): string {
  const f = 2 ** e;
  const change =
    f === 2
      ? `doubles the ${output}`
      : f === 0.5
        ? `halves the ${output}`
        : f > 1
          ? `makes the ${output} ${Math.round(f)} times as large`
          : `reduces the ${output} to 1/${Math.round(1 / f)} of its value`;
  return `Doubling the ${input} ${change}: the ${output} is ${RELATION[String(e)]} the ${input}.`;
}

const table = (d: IDependence, x: readonly number[], y: readonly number[]) =>
  [
    `| ${capital(d.input.name)}${d.input.unit ? ` (${d.input.unit})` : ""} | ${x.map((v) => formatSig(v, 3)).join(" | ")} |`,
    `| ${capital(d.output.name)}${d.output.unit ? ` (${d.output.unit})` : ""} | ${y.map((v) => formatSig(v, 3)).join(" | ")} |`,
  ].join("\n");

/** Why a reader of the table picks exponent `e` when the readings show `d`. */
const SLIP_OF: Record<string, string> = {
  "1|-1": "Reads the direction wrongly: both readings rise together, so the relation is not inverse.",
  "1|2": "Expects a square law, but doubling the input only doubles the output in these readings.",
  "1|-2": "Reverses the direction and squares the factor; neither fits the readings.",
  "-1|1": "Misses that the output falls as the input rises, so the relation is inverse.",
  "-1|2": "Sees a change but not its direction or size: the output halves when the input doubles.",
  "-1|-2": "Squares the factor: the output halves, not quarters, when the input doubles.",
  "2|1": "Checks only the direction: doubling the input makes the output four times as large, not twice.",
  "2|-1": "Reads the direction wrongly: the output rises with the input, four times for a doubling.",
  "2|-2": "Gets the square right but the direction wrong: the output rises with the input.",
  "-2|1": "Reads the direction wrongly: the output falls as the input rises.",
  "-2|-1": "Misses the square: the output drops to a quarter, not a half, when the input doubles.",
  "-2|2": "Gets the square right but the direction wrong: the output falls as the input rises.",
};

const ANALYZE_TYPES: readonly EQuestionType[] = ["mcq", "short", "long"];

export const equationData: IForm = {
  id: "equation-data",
  fits: (type, level) => level === "Analyze" && ANALYZE_TYPES.includes(type),
  available: (kb) => kb.equations.reduce((n, e) => n + dependences(e).length, 0),
  *build(env) {
    for (const eq of ordered(env, 2, "equation-data")) {
      for (const d of dependences(eq).slice(0, 3)) {
        const read = readings(eq, d, env.random);
        if (!read) {
          env.trace?.("data: no plausible readings for the quantities");
          continue;
        }
        const { x, y } = read;
        const keep = kept(d);
        const setting = `A student kept the ${keep || "other conditions"} the same and measured the ${d.output.name} for four values of the ${d.input.name}:\n\n`;
        const rel = (e: number) => `The ${d.output.name} is ${RELATION[String(e)]} the ${d.input.name}.`;
        const doubling = (e: number) => doublingText(d.input.name, d.output.name, e);
        if (env.slot.type === "mcq") {
          const q = mcq(env, {
            prompt: `${setting}${table(d, x, y)}\n\nCompare the readings. Which conclusion do they support?`,
            key: { text: doubling(d.exponent) },
            distractors: [1, -1, 2, -2]
              .filter((e) => e !== d.exponent)
              .map((e) => ({
                text: doubling(e),
                rationale:
                  SLIP_OF[`${d.exponent}|${e}`] ??
                  `Takes the ${d.output.name} as ${RELATION[String(e)]} the ${d.input.name}, which the readings do not show.`,
              })),
            explanation: `When the ${d.input.name} doubles (${formatSig(x[0]!, 3)} → ${formatSig(x[1]!, 3)}), the ${d.output.name} is multiplied by ${formatSig(2 ** d.exponent, 3)} (${formatSig(y[0]!, 3)} → ${formatSig(y[1]!, 3)}), as ${show(eq.text)} predicts with the ${keep || "rest"} fixed.`,
            sources: source(eq),
          });
          if (q) yield q;
          continue;
        }
        const long = env.slot.type === "long";
        // The long form has one reading that does not fit.
        const bad = long ? 2 : -1;
        const shownY = y.map((v, i) => (i === bad ? roundSig(v * 1.3, 3) : v));
        const q = written(env, {
          prompt: `${setting}${table(d, x, shownY)}\n\n${long ? `(a) Which reading does not fit the pattern of the others? (b) Analyse the other readings: how does the ${d.output.name} depend on the ${d.input.name}, and does this agree with ${show(eq.text)}? (c) Predict the ${d.output.name} for a ${d.input.name} of ${formatSig(x[0]! * 5, 2)}${d.input.unit ? ` ${d.input.unit}` : ""}.` : `Analyse the readings: how does the ${d.output.name} depend on the ${d.input.name}? Use the readings to justify your answer.`}`,
          answer: `${rel(d.exponent)} When the ${d.input.name} doubles from ${formatSig(x[0]!, 3)} to ${formatSig(x[1]!, 3)}, the ${d.output.name} changes from ${formatSig(y[0]!, 3)} to ${formatSig(y[1]!, 3)}, a factor of ${formatSig(2 ** d.exponent, 3)}; ${show(eq.text)} gives this with the ${keep || "rest"} fixed.${long ? ` The reading at ${formatSig(x[2]!, 2)} does not fit (expected ${formatSig(y[2]!, 3)}). Prediction: ${formatSig(y[0]! * 5 ** d.exponent, 3)}${d.output.unit ? ` ${d.output.unit}` : ""}.` : ""}`,
          points: [
            ...(long
              ? [
                  {
                    point: `Identifies the reading at ${formatSig(x[2]!, 2)} as not fitting (expected ${formatSig(y[2]!, 3)})`,
                  },
                ]
              : []),
            {
              point: `Compares readings: doubling the ${d.input.name} multiplies the ${d.output.name} by ${formatSig(2 ** d.exponent, 3)}`,
            },
            { point: `Concludes: ${rel(d.exponent)}` },
            { point: `Links the pattern to ${show(eq.text)} with the ${keep || "rest"} fixed` },
            ...(long
              ? [
                  {
                    point: `Predicts ${formatSig(y[0]! * 5 ** d.exponent, 3)}${d.output.unit ? ` ${d.output.unit}` : ""}`,
                  },
                ]
              : []),
          ],
          keywords: keywords([d.output.name, d.input.name, "proportional"]),
          sources: source(eq),
        });
        if (q) yield q;
      }
    }
  },
};
