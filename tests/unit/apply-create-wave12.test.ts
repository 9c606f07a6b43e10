import { describe, expect, it } from "vitest";
import { createGateContext, gateQuestion } from "@/lib/generation/gate";
import { reported } from "@/lib/generation/offline/forms/relations";
import { createOfflineGenerator } from "@/lib/generation/offline/generator";
import {
  extractDependences,
  extractEffects,
  extractMonotonic,
} from "@/lib/generation/offline/knowledge/relations";
import { formSlot } from "../support/form-slots";
import { testChunk, testSentence } from "../support/sentence";

/** Wave 12 (issue 25): a wider relations reader for Apply (predict-change, predict-effect) and Create plans. */

const mono = (t: string) => extractMonotonic([testSentence(t)]).map((m) => `${m.x} → ${m.y} (${m.sign})`);
const deps = (t: string) => extractDependences([testSentence(t)]).map((d) => `${d.y} ← ${d.xs.join(" | ")}`);
const effs = (t: string) =>
  extractEffects([testSentence(t)]).map((e) => `${e.agent} → ${e.target} (${e.sign})`);

describe("proportions stated with a modifier after the quantity (Physics, NCERT)", () => {
  it("reads Newton's second law with 'to and in the same direction as' and ', and inversely' (OpenStax Physics 4.3)", () => {
    expect(
      mono(
        "Newton’s second law of motion states that the acceleration of a system is directly proportional to and in the same direction as the net external force acting on the system, and inversely proportional to the system’s mass.",
      ),
    ).toEqual([
      "the net external force acting on the system → the acceleration of a system (1)",
      "the system’s mass → the acceleration of a system (-1)",
    ]);
  });

  it("reads a quantity before 'that runs …', 'applied to it', 'flowing through it' (OpenStax Physics 19.1, NCERT)", () => {
    expect(
      mono(
        "In ohmic materials, voltage drop along a path is proportional to the current that runs through the path.",
      ),
    ).toEqual(["the current → the voltage drop along a path (1)"]);
    expect(mono("The extension of a spring is directly proportional to the force applied to it.")).toEqual([
      "the force → the extension of a spring (1)",
    ]);
    // NCERT Class 10, Ohm's law.
    expect(
      mono(
        "The potential difference across the ends of a given metallic wire is directly proportional to the current flowing through it, provided its temperature remains the same.",
      ),
    ).toEqual(["the current → the potential difference (1)"]);
  });

  it("still reads no quantity from a verb-led phrase", () => {
    expect(mono("The force is proportional to what it acts on.")).toEqual([]);
  });
});

describe("dependences named with 'factors such as' or a setting after the quantity (Biology)", () => {
  it("reads 'Many factors can affect Y, such as A, B, and C' (OpenStax Biology 5.2)", () => {
    expect(
      deps(
        "Many factors can affect the diffusion rate, such as concentration gradient, diffusing, particle sizes, and the system's temperature.",
      ),
    ).toEqual([
      "the diffusion rate ← the concentration gradient | the particle sizes | the system's temperature",
    ]);
  });

  it("names a measure before its setting ('… of solutes in a solution'), not a bare change or a pronoun clause", () => {
    expect(deps("Osmotic pressure is influenced by the concentration of solutes in a solution.")).toEqual([
      "the osmotic pressure ← the concentration of solutes in a solution",
    ]);
    expect(
      deps(
        "The rate of evaporation depends on the surface area, the temperature and the humidity of the air.",
      ),
    ).toEqual(["the rate of evaporation ← the surface area | the temperature | the humidity of the air"]);
    // "the change in …" cut to "the change" names nothing; "the materials that it is made from" leans on the sentence.
    expect(deps("The boiling point depends on the change in the pressure above the liquid.")).toEqual([]);
    expect(
      deps(
        "Capacitance is determined by the geometry of the capacitor and the materials that it is made from.",
      ),
    ).toEqual(["the capacitance ← the geometry of the capacitor"]);
  });
});

describe("an effect stated in a ', which …' clause (Biology, NCERT)", () => {
  it("reads the thing named before ', which inhibits …' (OpenStax Biology 43.4) and an NCERT-style sentence", () => {
    expect(effs("Follicle cells produce the hormone inhibin, which inhibits FSH production.")).toEqual([
      "the hormone inhibin → FSH production (-1)",
    ]);
    expect(effs("The pancreas secretes insulin, which lowers the blood glucose level.")).toEqual([
      "insulin → the blood glucose level (-1)",
    ]);
  });

  it("reads no target that is an organ and an infinitive clause (OpenStax Biology 34.4)", () => {
    expect(
      effs(
        "In order to neutralize the acidic chyme, a hormone called secretin stimulates the pancreas to produce alkaline bicarbonate solution and deliver it to the duodenum.",
      ),
    ).toEqual([]);
    expect(effs("Gastrin stimulates the release of stomach acid.")).toEqual([
      "gastrin → the release of stomach acid (1)",
    ]);
  });

  it("refuses a target cut at 'and', and a target that is no measurable process", () => {
    expect(
      effs(
        "The hypothalamus produces gonadotropin-releasing hormone (GnRH), which stimulates the production and release of follicle-stimulating hormone (FSH) from the anterior pituitary.",
      ),
    ).toEqual([]);
    expect(
      effs(
        "The anterior pituitary releases the thyroid-stimulating hormone, which then stimulates the thyroid gland to produce the hormones T3 and T4.",
      ),
    ).toEqual([]);
  });
});

describe("what the Apply and Create questions say", () => {
  it("reports a sentence without 'Second,' and without '… law states that'", () => {
    expect(reported("Second, the size of the deformation is proportional to the force.")).toBe(
      "the size of the deformation is proportional to the force.",
    );
    expect(
      reported(
        "Newton’s second law of motion states that the acceleration of a system is directly proportional to the net external force.",
      ),
    ).toBe("the acceleration of a system is directly proportional to the net external force.");
  });

  const doc = "7a1c2e4a-1b2c-4d3e-8f40-1234567890f3";
  const plans = (text: string, section: string) => {
    const chunk = testChunk(text, 0, section, doc);
    const slot = formSlot(doc, "long", "Create");
    const found = [
      ...createOfflineGenerator([chunk], 1, [chunk]).candidates(slot, { used: new Set(), keyAt: 0 }),
    ]
      .filter((c) => c.form === "design-investigation")
      .map((c) => c.question);
    return { found, ctx: createGateContext([chunk]) };
  };

  it("plans a fair test of temperature and the diffusion rate the gate passes at Create (OpenStax Biology 5.2)", () => {
    const { found, ctx } = plans(
      "### Factors That Affect Diffusion\n\nMany factors can affect the diffusion rate, such as concentration gradient, particle sizes, and the system's temperature.",
      "5.2 Passive Transport",
    );
    const q = found.find((x) => /temperature/.test(x.promptText));
    expect(q?.promptText).toMatch(/how the system's temperature affects the diffusion rate/);
    expect(q?.type === "long" && q.suggestedAnswer).toMatch(
      /Keep the concentration gradient and the particle sizes the same/,
    );
    const verdict = gateQuestion(q!, "Create", ctx, { accepted: [] });
    expect(verdict.findings.filter((f) => f.severity === "reject")).toEqual([]);
  });

  it("plans no fair test of what a school lab cannot set or read (OpenStax Physics 18.3, 19.4, 12.4, 15.1)", () => {
    for (const [text, section] of [
      [
        "For a point charge or a sphere of uniform charge, the electric field is inversely proportional to the square of the distance from the point charge or from the center of the sphere.",
        "18.3 Electric Field",
      ],
      ["Electric power is proportional to the voltage and the current in a circuit.", "19.4 Electric Power"],
      [
        "The amount of work a heat engine can do is determined by the net heat transfer of energy during a cycle; more waste heat leads to less work output.",
        "12.4 Applications of Thermodynamics",
      ],
      [
        "As frequency increases across the spectrum, wavelength decreases.",
        "15.1 The Electromagnetic Spectrum",
      ],
    ] as const)
      expect(plans(`### Section\n\n${text}`, section).found.map((q) => q.promptText)).toEqual([]);
    // An NCERT-style Ohm's law statement is still planned.
    expect(
      plans(
        "### Ohm's Law\n\nThe potential difference across the ends of a given metallic wire is directly proportional to the current flowing through it, provided its temperature remains the same.",
        "12.2 Electric Current and Circuit",
      ).found.map((q) => q.promptText),
    ).toContainEqual(expect.stringMatching(/how the current affects the potential difference/));
  });

  it("leaves a relation its stated equation plans to equation-plan (OpenStax Physics 4.3)", () => {
    const law =
      "Newton’s second law of motion states that the acceleration of a system is directly proportional to and in the same direction as the net external force acting on the system, and inversely proportional to the system’s mass.";
    const eq =
      "F_net = ma, where F_net is the net external force, m is the mass of the system, and a is the acceleration.";
    expect(plans(`### Newton's Second Law\n\n${law}`, "4.3 Newton's Second Law of Motion").found).not.toEqual(
      [],
    );
    expect(
      plans(`### Newton's Second Law\n\n${law} ${eq}`, "4.3 Newton's Second Law of Motion").found.map(
        (q) => q.promptText,
      ),
    ).toEqual([]);
  });

  it("plans no school investigation of a quantity inside a body (an axon's diameter)", () => {
    const { found } = plans(
      "### Conduction\n\nThe speed of conduction of an action potential along an axon is influenced by both the diameter of the axon and the axon’s resistance to current leak.",
      "35.2 How Neurons Communicate",
    );
    expect(found).toEqual([]);
  });
});
