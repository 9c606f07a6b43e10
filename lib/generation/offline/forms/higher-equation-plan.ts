import {
  exponentOf,
  type IEquation,
  type IQuantity,
  quantitiesOf,
} from "@/lib/generation/offline/knowledge/equations";
import { type IForm, keywords, written } from "./common";

/**
 * Create, written (wave 11): a school practical that tests a stated equation's proportionality
 * ("f = μN, where μ is the coefficient of friction and N is the normal force" → change the normal
 * force by loading the block, measure the friction force with a force meter, keep the two surfaces
 * the same; a straight line through the origin supports f ∝ N).
 *
 * Round 10's readers rejected plans from an equation alone: the algebraic subject was "measured"
 * while a quantity that follows from the others was "kept the same" (F = ma with the acceleration
 * fixed). Here a pair is planned only when, by a fixed table of school practicals:
 *   - the changed quantity is one a school lab sets directly (a mass, a force from hanging masses,
 *     a length, a voltage from the supply),
 *   - the measured quantity is read off an instrument (a force meter, a stopwatch, a thermometer,
 *     an ammeter, a metre rule, light gates),
 *   - every other quantity of the equation is a property held by using the same object (the same
 *     two surfaces, the same spring, the same resistor, the same liquid) or one a school lab sets
 *     and holds (a mass, a force, a voltage, the same heater for the same time).
 * Anything else (speed of light, g, a speed "kept the same") is no plan: the slot says why.
 */

interface IRole {
  /** How a school lab changes it (the independent variable); absent when it cannot set it. */
  set?: string;
  /** The instrument it is read with (the dependent variable); absent when it is not read directly. */
  read?: string;
  /** How it is held the same (a control); absent when it cannot be held. */
  hold?: string;
}

/** School-practical roles by quantity name (the names `extractEquations` gives), most specific first. */
const ROLES: readonly [RegExp, IRole][] = [
  [/^coefficient of (?:\w+ )?friction$/, { hold: "use the same two surfaces" }],
  [/^(?:spring|force) constant$/, { hold: "use the same spring" }],
  [/^resistance$/, { hold: "use the same resistor, kept at the same temperature" }],
  [/^specific heat(?: capacity)?$/, { hold: "use the same liquid" }],
  [
    /^normal force$/,
    {
      set: "by adding known masses to the object resting on a level surface",
      hold: "keep the load on the object the same",
    },
  ],
  [
    /^(?:friction|frictional force|force of friction|tension|weight)$/,
    { read: "a force meter (newton meter)" },
  ],
  [
    /^(?:net |net external |applied )?force$/,
    {
      set: "by hanging different known masses from a string over a pulley",
      read: "a force meter (newton meter)",
      hold: "keep the pulling force the same (the same hanging mass)",
    },
  ],
  [
    /^mass$/,
    {
      set: "by using different masses, measured on a balance",
      read: "a balance",
      hold: "keep the mass the same",
    },
  ],
  [/^acceleration$/, { read: "light gates (or a ticker timer) and a ruler" }],
  [/^(?:change in temperature|temperature change)$/, { read: "a thermometer" }],
  [/^(?:heat|energy)$/, { hold: "supply the same energy (the same heater switched on for the same time)" }],
  [/^current$/, { read: "an ammeter" }],
  [
    /^(?:voltage|potential difference)$/,
    { set: "with a variable power supply", read: "a voltmeter", hold: "keep the supply voltage the same" },
  ],
  [/^(?:period|time)$/, { read: "a stopwatch (timing several swings or repeats)" }],
  [/^(?:extension|length)$/, { set: "by using lengths measured with a metre rule", read: "a metre rule" }],
  // Wave 14: the density practical (mass against volume of one liquid) …
  [/^density$/, { hold: "use the same liquid, at the same temperature" }],
  [
    /^volume$/,
    {
      set: "by pouring different volumes of the liquid into a measuring cylinder",
      read: "a measuring cylinder",
    },
  ],
];

/**
 * Roles a quantity has only in one law (wave 14): in v = fλ the frequency is set on a signal
 * generator, the wavelength read with a metre rule across several waves, and the medium holds the
 * speed; in Hooke's law (k = F/x) the "position" or "displacement" of the spring's end is its
 * extension, read with a metre rule.
 */
const isWaveLaw = (eq: IEquation) => {
  const names = quantitiesOf(eq).map((q) => q.name);
  return (
    names.some((n) => /^(?:wave )?(?:speed|velocity)$/.test(n)) &&
    names.includes("wavelength") &&
    names.includes("frequency")
  );
};
const isSpringLaw = (eq: IEquation) =>
  quantitiesOf(eq).some((q) => /^(?:spring|force) constant$/.test(q.name));
const SPRING_END = /^(?:position|displacement|deformation)$/;

function roleOf(q: IQuantity, eq?: IEquation): IRole | null {
  if (eq && isWaveLaw(eq)) {
    if (q.name === "frequency") return { set: "with a signal generator (read off its display)" };
    if (q.name === "wavelength")
      return {
        read: "a metre rule (the length of ten whole waves, divided by ten)",
      };
    if (/^(?:wave )?(?:speed|velocity)$/.test(q.name))
      return { hold: "use the same medium under the same conditions, so the wave speed stays the same" };
  }
  if (eq && isSpringLaw(eq) && SPRING_END.test(q.name)) return ROLES.find(([re]) => re.test("extension"))![1];
  return ROLES.find(([re]) => re.test(q.name))?.[1] ?? null;
}

export interface IEquationPlan {
  eq: IEquation;
  input: IQuantity;
  output: IQuantity;
  exponent: number;
  setBy: string;
  readWith: string;
  holds: string[];
}

/** The plannable (changed, read) pairs of a stated equation, by the school-practical table. */
export function equationPlans(eq: IEquation, why?: (step: string) => void): IEquationPlan[] {
  const out: IEquationPlan[] = [];
  const all = quantitiesOf(eq);
  // "c = fλ", "W = mg": a constant of nature in the law is not a school practical of it.
  if (all.some((q) => q.symbol === "g" || (q.symbol === "c" && /light/.test(q.name)))) {
    why?.("equation plan: a constant of nature in the equation");
    return out;
  }
  for (const input of all)
    for (const output of all) {
      if (input === output) continue;
      const rin = roleOf(input, eq);
      const rout = roleOf(output, eq);
      if (!rin?.set || !rout?.read) continue;
      const e = exponentOf(eq, output, input);
      if (![1, -1, 2].includes(e)) continue;
      const others = all.filter((q) => q !== input && q !== output);
      const holds = others.map((q) => roleOf(q, eq)?.hold);
      if (holds.some((h) => !h)) {
        why?.("equation plan: a quantity of the equation cannot be held the same in a school lab");
        continue;
      }
      // F = ma: a hanging mass also adds to the mass accelerated, so the force is changed by moving
      // masses from the trolley to the hanger (the total mass stays the same).
      const accelerated = all.some((q) => /\bacceleration$/.test(q.name));
      out.push({
        eq,
        input,
        output,
        exponent: e,
        setBy:
          accelerated && /\bforce$/.test(input.name)
            ? "by moving known masses from the trolley to a hanger on a string over a pulley, so the total mass accelerated stays the same"
            : rin.set,
        readWith: rout.read,
        holds: holds as string[],
      });
    }
  if (out.length === 0)
    why?.("equation plan: no quantity a school lab sets with one it reads off an instrument");
  return out;
}

/**
 * A quantity's name as a plan says it ("friction" is read as the force of friction; the spring's
 * "position" in Hooke's law is its extension).
 */
const label = (q: IQuantity, eq?: IEquation) =>
  q.name === "friction"
    ? "force of friction"
    : eq && isSpringLaw(eq) && SPRING_END.test(q.name)
      ? "extension"
      : eq && isWaveLaw(eq) && /^(?:speed|velocity)$/.test(q.name)
        ? "wave speed"
        : q.name;

/** The graph that shows the proportionality, and what it looks like. */
function graphOf(p: IEquationPlan): { plot: string; shape: string; relation: string } {
  const y = label(p.output, p.eq);
  const x = label(p.input, p.eq);
  if (p.exponent === 1)
    return {
      plot: `${y} against ${x}`,
      shape: "a straight line through the origin",
      relation: `${y} is directly proportional to ${x}`,
    };
  if (p.exponent === -1)
    return {
      plot: `${y} against 1/${x}`,
      shape: `a straight line through the origin (doubling the ${x} halves the ${y})`,
      relation: `${y} is inversely proportional to ${x}`,
    };
  return {
    plot: `${y} against (${x})²`,
    shape: "a straight line through the origin",
    relation: `${y} is proportional to the square of ${x}`,
  };
}

const show = (t: string) =>
  t
    .replace(/\^2/g, "²")
    .replace(/\^3/g, "³")
    .replace(/_\(([^()]+)\)/g, "_$1");

export const equationPlan: IForm = {
  id: "equation-plan",
  fits: (type, level) => type !== "mcq" && level === "Create",
  available: (kb) => kb.equations.filter((eq) => equationPlans(eq).length > 0).length,
  *build(env) {
    if (env.kb.equations.length === 0)
      env.trace?.("equation plan: no stated equation with its symbols named");
    const seen = new Set<string>();
    for (const eq of env.kb.equations) {
      // A calculation with the equation may already be in the set: a practical that tests it is
      // another demand (Create), on the same cited equation.
      for (const p of equationPlans(eq, env.trace)) {
        // One plan per pair of quantities (a_c = v²/r and a_c = (v²)/r are one law).
        const id = `${p.input.name}|${p.output.name}`;
        if (seen.has(id)) continue;
        seen.add(id);
        const g = graphOf(p);
        const x = label(p.input, p.eq);
        const y = label(p.output, p.eq);
        const long = env.slot.type === "long";
        const holds = p.holds.join("; ");
        const q = written(env, {
          prompt: `The ${label(p.eq.subject, p.eq)} is given by ${show(p.eq.text)}. Plan an experiment to test how the ${y} depends on the ${x}: say what you would change and how, what you would measure and with what, what you would keep the same, and what graph you would plot to test the equation.`,
          answer: `Change the ${x} ${p.setBy}, over at least five values (independent variable). Measure the ${y} with ${p.readWith} at each value, and repeat (dependent variable). Control variables: ${holds}. Plot a graph of ${g.plot}: the equation is supported if it is ${g.shape}, as ${g.relation}.`,
          points: [
            { point: `Changes the ${x} over a range of values, ${p.setBy} (independent variable)` },
            { point: `Measures the ${y} with ${p.readWith} (dependent variable)` },
            { point: `Keeps the rest of the equation fixed: ${holds}` },
            ...(long ? [{ point: "Repeats each value and averages, to make the results reliable" }] : []),
            { point: `Plots ${g.plot} and expects ${g.shape}, as ${g.relation}` },
          ],
          keywords: keywords([x, y, "independent", "dependent", "control", "graph"]),
          sources: [{ chunkKey: p.eq.chunkKey, quote: p.eq.quote }],
        });
        if (q) yield q;
      }
    }
  },
};
