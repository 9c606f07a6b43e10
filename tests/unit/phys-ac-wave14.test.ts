import { describe, expect, it } from "vitest";
import { createGateContext, gateQuestion } from "@/lib/generation/gate";
import { equationPlans } from "@/lib/generation/offline/forms/higher-equation-plan";
import { createOfflineGenerator } from "@/lib/generation/offline/generator";
import { extractEquations, type IEquation, isProperty } from "@/lib/generation/offline/knowledge/equations";
import { extractCausal } from "@/lib/generation/offline/knowledge/relations";
import { formSlot } from "../support/form-slots";
import { testChunk, testSentence } from "../support/sentence";

/** Wave 14 (issue 25): Physics Apply, Analyze and Create from the equations the lessons state. */

const chunkOf = (text: string, i = 0, section = "18.5 Capacitors and Dielectrics") =>
  testChunk(text, i, section, `7a1c2e4a-1b2c-4d3e-8f40-12345678901${i}`);
const eqs = (...texts: string[]) => extractEquations(texts.map((t, i) => chunkOf(t, i)));
const show = (e: IEquation) => [e.text, e.subject.name, ...e.factors.map((f) => f.name)];

describe("equations the reader now takes", () => {
  it("reads a half in front (U_E = 1/2CV^2, KE = ½mv^2 style) as the coefficient 0.5", () => {
    const found = eqs(
      "### Energy Stored in Capacitors\n\nThe energy stored in a capacitor is U_E = 1/2CV^2, where C is the capacitance and V is the voltage.",
    );
    expect(found.map(show)).toEqual([["U_E = 1/2CV^2", "energy", "capacitance", "voltage"]]);
    expect(found[0]!.coefficient).toBe(0.5);
    expect(
      extractEquations([
        chunkOf(
          "### Kinetic Energy\n\nThe kinetic energy is E = ½mv^2, where m is the mass and v is the speed of the object.",
          0,
          "9.1 Work",
        ),
      ])[0]?.coefficient,
    ).toBe(0.5);
  });

  it("names C as the capacitance when the lesson uses the word (OpenStax Physics 18.5, NCERT wording)", () => {
    expect(
      eqs(
        "### Capacitance\n\nThe capacitance of a capacitor is the charge it stores per volt: C = Q/V, where Q is the charge on each plate and V is the voltage across the plates.",
      ).map(show),
    ).toEqual([["C = Q/V", "capacitance", "charge", "voltage"]]);
  });

  it("keeps an equation only a worked example states out when the lesson never names a guessed symbol", () => {
    const example =
      "### Average Current to Charge a Capacitor\n\nProblem: It takes 1 min to charge a 16 μF capacitor by using a 9-V battery. What is the average current during this time?\n\nSolution: We can determine the charge on the capacitor by using the definition of capacitance: C = Q/V, where Q is the charge and V is the voltage.";
    const lesson =
      "### Ohm's Law\n\nIn ohmic materials, voltage drop along a path is proportional to the current that runs through the path.";
    const why: string[] = [];
    const found = extractEquations(
      [chunkOf(example, 0, "19.1 Ohm's law"), chunkOf(lesson, 1, "19.1 Ohm's law")],
      (w) => why.push(w),
    );
    expect(found.map((e) => e.text)).not.toContain("C = Q/V");
    expect(why.join(" ")).toMatch(
      /only a worked example states it, and the lesson does not name the capacitance/,
    );
  });
});

describe("a property of the object never follows the quantities of its defining ratio", () => {
  it("knows the properties", () => {
    for (const name of ["capacitance", "resistance", "force constant", "density", "specific heat"])
      expect(isProperty({ name })).toBe(true);
    for (const name of ["charge", "voltage", "current", "mass", "extension"])
      expect(isProperty({ name })).toBe(false);
  });

  it("writes no claim, table or scaling item in which the capacitance changes with the charge", () => {
    const chunk = chunkOf(
      "### Capacitance\n\nThe capacitance of a capacitor is the charge it stores per volt: C = Q/V, where Q is the charge on each plate and V is the voltage across the plates.",
    );
    const gen = createOfflineGenerator([chunk], 1, [chunk]);
    const prompts: string[] = [];
    for (const [type, level] of [
      ["mcq", "Apply"],
      ["mcq", "Analyze"],
      ["short", "Analyze"],
      ["short", "Evaluate"],
      ["long", "Evaluate"],
    ] as const)
      for (const c of gen.candidates(formSlot(chunk.documentId, type, level), { used: new Set(), keyAt: 0 }))
        prompts.push(c.question.promptText);
    expect(prompts.length).toBeGreaterThan(0);
    for (const p of prompts) {
      expect(p).not.toMatch(/measured the capacitance|the capacitance (?:doubles|halves|becomes)/);
      expect(p).not.toMatch(/How does the capacitance in B compare/);
    }
  });
});

const planOf = (text: string, section: string) =>
  extractEquations([chunkOf(text, 0, section)]).flatMap((e) =>
    equationPlans(e).map((p) => `${p.input.name} → ${p.output.name} (${p.holds.join("; ")})`),
  );

describe("school practicals for more stated equations (Create)", () => {
  it("plans v = fλ: a signal generator sets the frequency, a metre rule reads the wavelength (OpenStax 14.1)", () => {
    expect(
      planOf(
        "### Sound\n\nv = fλ, where v is the speed of sound (in units of m/s), f is its frequency (in units of hertz), and λ is its wavelength (in units of meters).",
        "14.1 Speed of Sound, Frequency, and Wavelength",
      ),
    ).toEqual([
      "frequency → wavelength (use the same medium under the same conditions, so the wave speed stays the same)",
    ]);
  });

  it("never plans light's c = fλ (a constant of nature)", () => {
    expect(
      planOf(
        "### Light\n\nFor light, c = fλ, where c is the speed of light, f is the frequency and λ is the wavelength.",
        "15.1 The Electromagnetic Spectrum",
      ),
    ).toEqual([]);
  });

  it("plans Hooke's law with the spring's position read as its extension, and the gate passes it at Create", () => {
    const chunk = chunkOf(
      "### Hooke's Law\n\nThe force constant is k = F/x, where F is the force applied to the spring and x is the position of its end.",
      0,
      "5.5 Simple Harmonic Motion",
    );
    const found = [
      ...createOfflineGenerator([chunk], 1, [chunk]).candidates(
        formSlot(chunk.documentId, "long", "Create"),
        {
          used: new Set(),
          keyAt: 0,
        },
      ),
    ].filter((c) => c.form === "equation-plan");
    const q = found[0]?.question;
    expect(q?.promptText).toMatch(/how the extension depends on the force/);
    expect(q?.type === "long" && q.suggestedAnswer).toMatch(/Control variables: use the same spring/);
    const verdict = gateQuestion(q!, "Create", createGateContext([chunk]), { accepted: [] });
    expect(verdict.findings.filter((f) => f.severity === "reject")).toEqual([]);
  });

  it("plans the density practical: volumes in a measuring cylinder, masses on a balance (NCERT wording)", () => {
    expect(
      planOf(
        "### Density\n\nThe density of a substance is ρ = m/V, where m is the mass of the substance and V is its volume.",
        "11.2 Density",
      ),
    ).toContain("volume → mass (use the same liquid, at the same temperature)");
  });
});

describe("causes stated with a short clause or an opener (Analyze)", () => {
  const causal = (text: string) => extractCausal([testSentence(text)]).map((c) => [c.cause, c.effect]);
  it("reads a short 'X is Y' half (OpenStax Physics 8.3, 3.2)", () => {
    expect(
      causal(
        "Because momentum is conserved, the components of momentum along the x- and y-axes will also be conserved.",
      ),
    ).toEqual([
      ["momentum is conserved", "the components of momentum along the x- and y-axes will also be conserved"],
    ]);
    expect(
      causal(
        "In many cases, acceleration is not uniform because the force acting on the accelerating object is not constant over time.",
      ),
    ).toEqual([
      [
        "the force acting on the accelerating object is not constant over time",
        "In many cases, acceleration is not uniform",
      ],
    ]);
  });
  it("never reads a pronoun, a dangling article or a fragment as a short half", () => {
    expect(causal("Because it is charged, the sphere is repelled by the rod.")).toEqual([]);
    expect(causal("Energy is the because heat flows from hot to cold objects in contact.")).toEqual([]);
    expect(causal("This is true because the total momentum of an isolated system is constant.")).toEqual([]);
  });
});
