import type { IEffect } from "@/lib/generation/offline/knowledge";
import { wordNetKinds } from "@/lib/generation/offline/knowledge/lexicon";
import { escapeRegExp } from "@/lib/text/regex";
import { type IForm, type IFormEnv, keywords, sentence, written } from "./common";
import { equationPlans } from "./higher-equation-plan";
import { reported } from "./relations";

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
  /** From a stated effect ("salt reduces the germination of seeds"): the substance or radiation x is the amount of. */
  agent?: string;
  /** The effect is a stated need ("water is required for germination"). */
  required?: boolean;
  /** Stated as "(directly) proportional to" (not a square): a straight line through the origin. */
  proportional?: boolean;
}

/** Quantities a school investigation can set or measure (a fair test needs both ends measurable). */
const MEASURABLE =
  /\b(?:mass|weight|speed|velocity|acceleration|force|friction|temperature|time|period|frequency|wavelength|amplitude|length|distance|height|width|area|volume|density|pressure|current|voltage|potential difference|resistance|power|energy|intensity|brightness|loudness|charge|angle|radius|diameter|thickness|concentration|rate|ph|light|heat|moisture|humidity|yield|growth|number|size|depth|tension|stretch|extension|momentum|efficiency|capacitance|field|range|displacement|work|torque|impulse|magnification|refractive index|index of refraction|pitch|strain|stress|deflection|elongation|absorbance|transpiration|germination)\b/i;
const bare = (np: string) => np.replace(/^the\s+/i, "");
/** Not a school investigation (round 6: a fair test of a bomb's yield). */
const UNSAFE_TOPIC =
  /\b(?:bomb|weapon|missile|warhead|explosive|explosion|nuclear|uranium|plutonium|radioactive|fission|gun|bullet|firearm|poison|toxin|virus|disease|patient|human subjects?)\b/i;

/**
 * Quantities no school laboratory can set or read (wave 12, as the wider relation reader found
 * them): inside a body or a cell ("the diameter of the axon", "the frequency of neural
 * stimulation"), of genes and molecules, or of the planet ("gravity", "the climate").
 */
const NOT_IN_SCHOOL_LAB =
  /\b(?:axons?|neurons?|neural|nerves?|synap\w*|muscle fib(?:er|re)s?|cell cycle|genes?|genomes?|dna|rna|chromosomes?|alleles?|proteins?|receptors?|ligands?|hormones?|blood|heart|kidneys?|organs?|patients?|species|populations?|generations?|evolution\w*|climate|global|gravity|altitude|planets?|stars?|galax\w*|matric|ecosystems?|biomes?|branch(?:es)?|electrostatic|coulomb|components?|wavelengths? of light)\b/i;

/**
 * What a school lab computes rather than reads (a field, an energy, a power, a momentum): no
 * dependent variable of a fair test (wave 12: "measure the electric field at each distance").
 */
const NOT_READ = /\b(?:field|energy|power|work|momentum|impulse|charge|entropy|potential(?! difference))\b/i;
/** Machines and bodies no school lab builds or reaches (a heat engine, a reactor, a point charge). */
const NOT_SCHOOL_SETTING =
  /\b(?:engines?|reactors?|power (?:plants?|stations?)|refrigerators?|heat pumps?|turbines?|rockets?|satellites?|point charges?|spectrum|electromagnetic)\b/i;
/** Two quantities a circuit ties together: one cannot be held while the other is changed. */
const LINKED = /\b(?:voltage|potential difference|current)\b/i;

/** Why a stated relation gives no school fair test, or null when it does. */
function notTestable(t: ITestable): string | null {
  if (!MEASURABLE.test(t.x) || !MEASURABLE.test(t.y))
    return `stated relation: ${MEASURABLE.test(t.x) ? "y" : "x"} is not a measurable quantity`;
  if (UNSAFE_TOPIC.test(`${t.sentence} ${t.x} ${t.y}`)) return "stated relation: not a school investigation";
  if (NOT_IN_SCHOOL_LAB.test(`${t.x} ${t.y}`) || NOT_READ.test(t.y) || NOT_SCHOOL_SETTING.test(t.sentence))
    return "stated relation: a quantity no school lab can set or measure";
  // "Electric power is proportional to the voltage and the current": the current is not held while the voltage changes.
  if (LINKED.test(t.x) && t.others.some((o) => LINKED.test(o)))
    return "stated relation: a control the changed quantity sets (voltage and current)";
  return null;
}

function testables(kb: IFormEnv["kb"], trace?: (step: string) => void): ITestable[] {
  return allTestables(kb).filter((t) => {
    const why = notTestable(t);
    if (why) trace?.(why);
    return why === null;
  });
}

function allTestables(kb: IFormEnv["kb"]): ITestable[] {
  // A stated effect of a settable thing first: "sodium chloride reduces the rate of …" is also read
  // as a relation whose x is the thing itself, which is no quantity to vary.
  const effects = kb.effects.map(effectTestable).filter((t): t is ITestable => t !== null);
  const out: ITestable[] = [
    ...effects,
    ...kb.monotonic
      .filter((r) => !effects.some((e) => e.sentence === r.sentence && e.y === r.y))
      .map((r) => ({
        x: r.x,
        y: r.y,
        sign: r.sign,
        ...(r.proportional && r.sign > 0 ? { proportional: true } : {}),
        others: kb.scopeMonotonic.filter((o) => o.y === r.y && o.x !== r.x).map((o) => o.x),
        sentence: r.sentence,
        chunkKey: r.chunkKey,
      })),
  ];
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
 * The two conditions a school investigation of a living process holds fixed, by what is measured
 * (the usual controls of school biology and chemistry practicals), without the one being changed.
 * None for other measurements: the scheme then names "every other condition".
 */
const USUAL_CONTROLS: [RegExp, string[]][] = [
  [
    /\b(?:germination|growth|elongation|height|yield)\b/i,
    ["the temperature", "the amount of light", "the amount of water"],
  ],
  [
    /\bphotosynthesis\b/i,
    ["the temperature", "the intensity of light", "the concentration of carbon dioxide"],
  ],
  [/\b(?:transpiration|water loss|evaporation)\b/i, ["the temperature", "the humidity", "the air movement"]],
  [
    /\b(?:digestion|breakdown|reaction|activity|fermentation|respiration)\b/i,
    ["the temperature", "the pH", "the volume of solution"],
  ],
];
function usualControls(r: ITestable): string[] {
  const row = USUAL_CONTROLS.find(([re]) => re.test(r.y));
  if (!row) return [];
  const own = new Set(
    r.x
      .toLowerCase()
      .split(/\W+/)
      .filter((w) => w.length > 3 && !/^(?:amount|intensity|concentration)$/.test(w)),
  );
  return row[1]
    .filter((c) => !c.split(/\W+/).some((w) => own.has(w)) && !r.x.includes(c.replace(/^the /, "")))
    .slice(0, 2);
}

/**
 * What a school laboratory can add in measured amounts, by WordNet's kinds of the agent's name:
 * a chemical, an element, a gas or a liquid, a plant hormone, an enzyme, light or other radiation.
 * Not an animal hormone, a body part or a structure (FSH, ANP, the cuticle): a school cannot set
 * how much of it there is.
 */
const SETTABLE_KIND =
  /^(?:chemical|chemical substance|compound|chemical compound|element|chemical element|metallic element|mineral|salt|acid|base|sugar|fertilizer|nutrient|ga|gas|oxide|dioxide|liquid|fluid|phytohormone|plant hormone|growth regulator|enzyme|catalyst|radiation|electromagnetic radiation|actinic radiation)$/;
const RADIATION_KIND = /radiation$/;
const ANIMAL_BODY =
  /\b(?:blood|heart|pulse|kidneys?|urine|plasma|uterus|sperm|ovar(?:y|ies)|testes|brain|neurons?|nerves?|liver|pancreas|hormones?|patients?|humans?|mammals?)\b/i;
const LIQUID_KIND = /^(?:liquid|fluid)$/;

/** A fair test of a stated effect, when its agent is settable and its target measurable; else null. */
export function effectTestable(e: IEffect): ITestable | null {
  const name = e.agent.replace(/^the /i, "");
  const kinds = [...wordNetKinds(name)];
  if (
    !kinds.some((k) => SETTABLE_KIND.test(k)) ||
    (kinds.includes("hormone") && !kinds.includes("plant hormone")) ||
    !MEASURABLE.test(e.target) ||
    // "root growth and fruit dropping": two things measured at once is no single dependent variable.
    / and /.test(e.target) ||
    // An effect inside an animal's body is measured on people or animals, not in a school lab.
    ANIMAL_BODY.test(`${e.target} ${e.sentence}`)
  )
    return null;
  const x = kinds.some((k) => RADIATION_KIND.test(k))
    ? `the intensity of ${name}`
    : kinds.some((k) => LIQUID_KIND.test(k))
      ? `the amount of ${name}`
      : `the concentration of ${name}`;
  return {
    x,
    y: e.target,
    sign: e.required ? 1 : e.sign,
    others: [],
    sentence: e.sentence,
    chunkKey: e.chunkKey,
    agent: name,
    required: e.required,
  };
}

/** A stated equation has a school practical changing x's quantity and reading y's (by name). */
function plannedFromEquation(kb: IFormEnv["kb"], r: ITestable): boolean {
  const names = (text: string) => (name: string) => new RegExp(`\\b${escapeRegExp(name)}\\b`, "i").test(text);
  return kb.equations.some((eq) =>
    equationPlans(eq).some((p) => names(r.x)(p.input.name) && names(r.y)(p.output.name)),
  );
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
    if (env.kb.monotonic.length + env.kb.dependences.length + env.kb.effects.length === 0)
      env.trace?.("no stated relation, dependence or effect in the passages");
    for (const e of env.kb.effects)
      if (!effectTestable(e))
        env.trace?.("stated effect: the agent cannot be set in a school lab, or the target is not measured");
    for (const r of testables(env.kb, env.trace)) {
      // "the acceleration is proportional to the net external force" beside F_net = ma: the
      // equation's practical (`equation-plan`: how the force is changed, the graph) is the better plan.
      if (plannedFromEquation(env.kb, r)) {
        env.trace?.("relation planned from its stated equation (equation-plan)");
        continue;
      }
      // A relation another question of the set already uses is not planned again (planning it
      // anyway was tried in wave 12: the plans it wrote were read as rejects, round 14).
      if (env.used.has(r.sentence)) {
        env.trace?.("relation already used in the set");
        continue;
      }
      const controls = r.others.length > 0 ? r.others.slice(0, 2) : usualControls(r);
      const keep = controls.length
        ? controls.join(" and ")
        : `every other condition that could change ${r.y}`;
      const long = env.slot.type === "long";
      // Kept to the words of the method and the relation: the gate checks the answer against the passages.
      // A stated effect is about the agent's presence, not a dose–response curve: the supporting
      // result compares with and without it (a value of none is the control).
      const supports = r.agent
        ? r.required
          ? `there is no ${bare(r.y)} without ${r.agent}`
          : `${r.y} is ${r.sign > 0 ? "greater" : "smaller"} with ${r.agent} than without it`
        : r.sign === 0
          ? `${r.y} changes as ${r.x} changes, with the controlled variables kept the same`
          : r.proportional
            ? // "y is proportional to x" (wave 12): the graph tests the proportion, not only its direction.
              `a graph of ${r.y} against ${r.x} is a straight line through the origin`
            : `${r.y} ${r.sign > 0 ? "increases" : "decreases"} as ${r.x} increases`;
      const range = r.agent ? "over at least five values, including none" : "over at least five values";
      const q = written(env, {
        prompt: `Plan a fair test of how ${r.x} affects ${r.y}. Say what you would change, what you would measure, what you would keep the same, and what result would support the relationship.`,
        answer: `Change ${r.x} ${range} (the independent variable). Measure ${r.y} at each value (the dependent variable). Keep ${keep} the same (controlled variables), and repeat each value three times. The results support the relationship if ${supports}. ${sentence(reported(r.sentence))}`,
        points: [
          {
            point: r.agent
              ? `Varies ${r.x} over a range of values, including none (independent variable)`
              : `Varies ${r.x} over a range of values (independent variable)`,
          },
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
