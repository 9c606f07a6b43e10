import { type IForm, type IFormEnv, keywords, sentence, written } from "./common";

/**
 * Create, written: a fair test of a relation the passages state between two things a school
 * laboratory or field study can set and measure. Moved out of `reasoning.ts` in wave 10.
 */

/** A relation a fair test can check: y against x, with a stated direction (±1) or none (0). */
interface ITestable {
  x: string;
  y: string;
  sign: 1 | -1 | 0;
  /** Other quantities the text says y depends on: what to keep the same. */
  others: string[];
  sentence: string;
  chunkKey: string;
}

/** Quantities a school investigation can set or measure (a fair test needs both ends measurable). */
const MEASURABLE =
  /\b(?:mass|weight|speed|velocity|acceleration|force|friction|temperature|time|period|frequency|wavelength|amplitude|length|distance|height|width|area|volume|density|pressure|current|voltage|potential difference|resistance|power|energy|intensity|brightness|loudness|charge|angle|radius|diameter|thickness|concentration|rate|ph|light|heat|moisture|humidity|yield|growth|number|size|depth|tension|stretch|extension|momentum|efficiency|capacitance|field|range|displacement|work|torque|impulse|magnification|refractive index|index of refraction|pitch|strain|stress|deflection|elongation|absorbance|transpiration|germination)\b/i;
/** Not a school investigation (round 6: a fair test of a bomb's yield). */
const UNSAFE_TOPIC =
  /\b(?:bomb|weapon|missile|warhead|explosive|explosion|nuclear|uranium|plutonium|radioactive|fission|gun|bullet|firearm|poison|toxin|virus|disease|patient|human subjects?)\b/i;

function testables(kb: IFormEnv["kb"], trace?: (step: string) => void): ITestable[] {
  return allTestables(kb).filter((t) => {
    const ok = MEASURABLE.test(t.x) && MEASURABLE.test(t.y);
    if (!ok) trace?.(`stated relation: ${MEASURABLE.test(t.x) ? "y" : "x"} is not a measurable quantity`);
    else if (UNSAFE_TOPIC.test(`${t.sentence} ${t.x} ${t.y}`))
      trace?.("stated relation: not a school investigation");
    return ok && !UNSAFE_TOPIC.test(`${t.sentence} ${t.x} ${t.y}`);
  });
}

function allTestables(kb: IFormEnv["kb"]): ITestable[] {
  const out: ITestable[] = kb.monotonic.map((r) => ({
    x: r.x,
    y: r.y,
    sign: r.sign,
    others: kb.scopeMonotonic.filter((o) => o.y === r.y && o.x !== r.x).map((o) => o.x),
    sentence: r.sentence,
    chunkKey: r.chunkKey,
  }));
  for (const d of kb.dependences)
    for (const x of d.xs)
      if (!out.some((t) => t.x === x && t.y === d.y))
        out.push({
          x,
          y: d.y,
          sign: 0,
          others: d.xs.filter((o) => o !== x),
          sentence: d.sentence,
          chunkKey: d.chunkKey,
        });
  return out;
}

/**
 * Create, written: plan a fair test of a relation the text states between two measurable
 * quantities ("as x increases, y decreases"; "y depends on a and b"), marked on the method: what
 * to change, what to measure, what to keep the same, and what result would support the relation.
 */
export const designInvestigation: IForm = {
  id: "design-investigation",
  fits: (type, level) => type !== "mcq" && level === "Create",
  available: (kb) => testables(kb).length,
  *build(env) {
    if (env.kb.monotonic.length + env.kb.dependences.length === 0)
      env.trace?.("no stated relation or dependence in the passages");
    for (const r of testables(env.kb, env.trace)) {
      if (env.used.has(r.sentence)) {
        env.trace?.("relation already used in the set");
        continue;
      }
      const controls = r.others.slice(0, 2);
      const keep = controls.length
        ? controls.join(" and ")
        : `every other condition that could change ${r.y}`;
      const long = env.slot.type === "long";
      // Kept to the words of the method and the relation: the gate checks the answer against the passages.
      const supports =
        r.sign === 0
          ? `${r.y} changes as ${r.x} changes, with the controlled variables kept the same`
          : `${r.y} ${r.sign > 0 ? "increases" : "decreases"} as ${r.x} increases`;
      const q = written(env, {
        prompt: `Plan a fair test of how ${r.x} affects ${r.y}. Say what you would change, what you would measure, what you would keep the same, and what result would support the relationship.`,
        answer: `Change ${r.x} over at least five values (the independent variable). Measure ${r.y} at each value (the dependent variable). Keep ${keep} the same (controlled variables), and repeat each value three times. The results support the relationship if ${supports}. ${sentence(r.sentence)}`,
        points: [
          { point: `Varies ${r.x} over a range of values (independent variable)` },
          { point: `Measures ${r.y} each time (dependent variable)` },
          { point: `Keeps ${keep} constant (controlled variables)` },
          ...(long ? [{ point: "Repeats each value and averages, to make the results reliable" }] : []),
          { point: `States the result that would support the relationship: ${supports}` },
        ],
        keywords: keywords([r.x, r.y, "independent", "dependent", "control"]),
        sources: [{ chunkKey: r.chunkKey, quote: r.sentence }],
      });
      if (q) yield q;
    }
  },
};
