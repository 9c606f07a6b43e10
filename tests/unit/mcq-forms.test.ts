import { describe, expect, it } from "vitest";
import { createGateContext, gateQuestion } from "@/lib/generation/gate";
import { mulberry32 } from "@/lib/generation/offline/forms/common";
import { equationProblem } from "@/lib/generation/offline/forms/equations";
import {
  equationChoice,
  equationScaling,
  equivalent,
  factorText,
  lawOf,
  showLaw,
  wrongLaws,
} from "@/lib/generation/offline/forms/mcq-equations";
import { unitMcq } from "@/lib/generation/offline/forms/mcq-units";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import { extractEquations, parseLaw } from "@/lib/generation/offline/knowledge/equations";
import { sameDims } from "@/lib/generation/offline/knowledge/numeric/units";
import { dimsOfUnit, readUnit, statedUnits } from "@/lib/generation/offline/knowledge/numeric-units";
import type { ISentence } from "@/lib/generation/offline/knowledge/sentences";
import type { EBloomLevel } from "@/types/bloom.types";
import type { IContextChunk, ISlot, TQuestion } from "@/types/generation.types";
import { testSentence } from "../support/sentence";

// Sentences and passages from the Physics corpus (OpenStax Physics, ch. 6, 18, 19).
const ROTATION = `## 6.1 Angle of Rotation and Angular Velocity

The angle of rotation Δθ is measured in units of radians (rad), where 2 πrad = 360° = 1 revolution. The units of angular velocity are radians per second (rad/s). Tangential speed v and angular speed ω are related by v = rω, and tangential velocity has units of m/s. The equation v = rω says that the tangential speed v is proportional to the distance r from the center of rotation. Momentum and force also appear in this chapter, as do energy and frequency.`;

const FIELD = `## 18.3 Electric Field

Note that the electric field is a vector field that points in the same direction as the force on the positive test charge. The units of electric field are N/C.`;

const POWER = `## 19.4 Electric Power

Thus, equation above tells us that electric power is voltage times current, or

P = IV.

This equation gives the electric power consumed by a circuit with a voltage drop of V and a current of I. Electric power is proportional to the voltage and the current in a circuit.`;

const chunk = (content: string, i: number, section: string): IContextChunk =>
  ({
    documentId: "phys",
    chunkIndex: i,
    title: "Physics",
    content,
    sectionPath: `Chapter ${section.split(".")[0]} > ${section}`,
  }) as IContextChunk;

const sentence = (text: string): ISentence => testSentence(text, { chunkKey: "phys:0" });

const slot = (bloomLevel: EBloomLevel): ISlot =>
  ({ id: "s", index: 0, type: "mcq", bloomLevel, marks: 1, difficulty: "medium" }) as ISlot;

function build(form: typeof unitMcq, chunks: IContextChunk[], level: EBloomLevel): TQuestion[] {
  const kb = buildKnowledge(chunks);
  return [...form.build({ kb, slot: slot(level), random: mulberry32(3), keyAt: 2, used: new Set() })];
}

const passes = (q: TQuestion, chunks: IContextChunk[], level: EBloomLevel) =>
  gateQuestion(q, level, createGateContext(chunks), { accepted: [] });

describe("stated units (Remember: What is the SI unit of …?)", () => {
  it("reads units stated in words, symbols or both, checked against the quantity's name", () => {
    expect(readUnit("radians per second (rad/s)")?.unit).toBe("rad/s");
    expect(readUnit("N/C")?.unit).toBe("N/C");
    expect(readUnit("watts per meter squared")?.unit).toBe("W/m²");
    expect(readUnit("newtons (kg)")).toBeNull(); // words and symbol disagree
    const units = statedUnits([
      sentence("The units of angular velocity are radians per second (rad/s)."),
      sentence("The units of electric field are N/C."),
      sentence(
        "Sound intensity level in decibels (dB) is more relevant for how humans perceive sounds than sound intensity (in W/m^2), even though sound intensity is the SI unit.",
      ),
      // Wrong dimensions for the name: never asked.
      sentence("The units of momentum are newtons."),
      // Not a quantity with an SI unit the name calls for.
      sentence("The angle of rotation Δθ is measured in units of radians (rad)."),
    ]);
    expect(units.map((u) => [u.quantity, u.unit])).toEqual([
      ["angular velocity", "rad/s"],
      ["electric field", "N/C"],
      ["sound intensity", "W/m²"],
    ]);
  });

  it("asks for the unit with three units of other dimensions, and the gate passes it", () => {
    const chunks = [chunk(FIELD, 0, "18.3 Electric Field")];
    const [q] = build(unitMcq, chunks, "Remember");
    expect(q?.type).toBe("mcq");
    if (q?.type !== "mcq") return;
    expect(q.promptText).toBe("What is the SI unit of electric field?");
    expect(q.options[q.correctIndex]).toBe("N/C");
    const key = dimsOfUnit("N/C")!;
    const dims = q.options.map((o) => dimsOfUnit(o));
    expect(dims.every((d) => d !== null)).toBe(true);
    // Exactly one option has the dimensions of N/C, and no two options share dimensions.
    expect(dims.filter((d) => sameDims(d!, key))).toHaveLength(1);
    for (let i = 0; i < 4; i++)
      for (let j = i + 1; j < 4; j++) expect(sameDims(dims[i]!, dims[j]!)).toBe(false);
    expect(q.contextRefs[0]?.quote).toBe("The units of electric field are N/C.");
    const v = passes(q, chunks, "Remember");
    expect(
      v.findings.filter((f) => f.severity === "reject"),
      JSON.stringify(q),
    ).toEqual([]);
  });

  it("prefers wrong units of quantities the passage names, never one equal in dimension (rad/s vs Hz)", () => {
    const chunks = [chunk(ROTATION, 0, "6.1 Angle of Rotation and Angular Velocity")];
    const qs = build(unitMcq, chunks, "Remember");
    const q = qs.find((x) => x.promptText.includes("angular velocity"));
    if (q?.type !== "mcq") throw new Error("no question on angular velocity");
    expect(q.options[q.correctIndex]).toBe("rad/s");
    expect(q.options).not.toContain("Hz");
    const named = ["kg⋅m/s", "N", "J", "m/s"];
    expect(q.options.filter((o) => named.includes(o)).length).toBeGreaterThanOrEqual(2);
  });

  it("builds nothing where no unit is stated", () => {
    expect(build(unitMcq, [chunk(POWER, 0, "19.4 Electric Power")], "Remember")).toEqual([]);
  });
});

describe("equation laws: equivalence and wrong arrangements", () => {
  const [pIV] = extractEquations([chunk(POWER, 0, "19.4 Electric Power")]);

  it("treats rearrangements as one law and inversions as another", () => {
    const law = {
      subject: "P",
      coefficient: 1,
      powers: new Map([
        ["I", 1],
        ["V", 1],
      ]),
    };
    expect(
      equivalent(law, {
        subject: "I",
        coefficient: 1,
        powers: new Map([
          ["P", 1],
          ["V", -1],
        ]),
      }),
    ).toBe(true);
    expect(
      equivalent(law, {
        subject: "P",
        coefficient: 1,
        powers: new Map([
          ["I", 1],
          ["V", -1],
        ]),
      }),
    ).toBe(false);
    const ke = {
      subject: "E",
      coefficient: 0.5,
      powers: new Map([
        ["m", 1],
        ["v", 2],
      ]),
    };
    expect(
      equivalent(ke, {
        subject: "m",
        coefficient: 2,
        powers: new Map([
          ["E", 1],
          ["v", -2],
        ]),
      }),
    ).toBe(true);
    expect(equivalent(ke, { ...ke, coefficient: 1 })).toBe(false);
  });

  it("offers only arrangements that are NOT the stated equation", () => {
    expect(pIV?.text).toBe("P = IV");
    const wrong = wrongLaws(pIV!);
    expect(wrong.length).toBeGreaterThanOrEqual(3);
    expect(wrong.map((w) => w.text)).not.toContain("P = IV");
    expect(wrong.map((w) => w.text)).not.toContain("P = VI");
    expect(wrong.map((w) => w.text)).toContain("P = V/I");
    expect(showLaw(lawOf(pIV!))).toBe("P = IV");
  });

  it("asks which equation relates P, I and V, and the gate passes it at Remember", () => {
    const chunks = [chunk(POWER, 0, "19.4 Electric Power")];
    const [q] = build(equationChoice, chunks, "Remember");
    if (q?.type !== "mcq") throw new Error("no question");
    expect(q.promptText).toBe("Which equation relates the power P, the current I and the voltage V?");
    expect(q.options[q.correctIndex]).toBe("P = IV");
    expect(new Set(q.options).size).toBe(4);
    expect(passes(q, chunks, "Remember").passed).toBe(true);
  });
});

describe("two changes at once (Apply, read so by rounds 9 and 10)", () => {
  it("words factors plainly and refuses ones with no plain words", () => {
    expect(factorText({ n: 4, d: 1 })).toBe("It becomes four times as large.");
    expect(factorText({ n: 1, d: 2 })).toBe("It becomes half as large.");
    expect(factorText({ n: 1, d: 1 })).toBe("It stays the same.");
    expect(factorText({ n: 3, d: 2 })).toBe("It becomes 3/2 as large.");
    expect(factorText({ n: 27, d: 1 })).toBeNull();
  });

  it("computes the key from the exponents, with slips as the wrong options, read as Apply", () => {
    const chunks = [chunk(POWER, 0, "19.4 Electric Power")];
    const [q] = build(equationScaling, chunks, "Apply");
    if (q?.type !== "mcq") throw new Error("no question");
    expect(q.promptText).toMatch(
      /^Using P = IV: in situation B the current is doubled and the voltage is (?:halved|doubled|tripled) compared with situation A\. How does the power in B compare with that in A\?$/,
    );
    const change = /voltage is (\w+)/.exec(q.promptText)![1]!;
    const expected = {
      halved: "It stays the same.",
      doubled: "It becomes four times as large.",
      tripled: "It becomes 6 times as large.",
    }[change];
    expect(q.options[q.correctIndex]).toBe(expected);
    expect(new Set(q.options).size).toBe(4);
    const verdict = passes(q, chunks, "Apply");
    expect(verdict.demand).toBe("Apply");
    expect(verdict.passed).toBe(true);
    // No "reads as …" warning either: the label and the gate's reading moved together.
    expect(verdict.findings.map((f) => f.flag)).not.toContain("bloom_mismatch");
  });

  it("is not a duplicate of a calculation on the same equation (a factor, not a value)", () => {
    const chunks = [chunk(POWER, 0, "19.4 Electric Power")];
    const [calc] = build(equationProblem, chunks, "Apply");
    const [scaling] = build(equationScaling, chunks, "Apply");
    expect(calc?.contextRefs[0]?.quote).toBe(scaling?.contextRefs[0]?.quote);
    const verdict = gateQuestion(scaling!, "Apply", createGateContext(chunks), { accepted: [calc!] });
    expect(verdict.findings.map((f) => f.flag)).not.toContain("duplicate_fact");
  });

  it("never changes a constant (c = fλ: the speed of light stays c)", () => {
    const light = `## 17.1 Diffraction\n\nAs we have seen previously, light obeys the equation c = fλ, where c = 3.00 × 10^8 m/s is the speed of light in vacuum, f is the frequency of the electromagnetic wave in Hz (or s^–1), and λ is its wavelength in m.`;
    const chunks = [chunk(light, 0, "17.1 Diffraction")];
    expect(extractEquations(chunks).map((e) => e.text)).toEqual(["c = fλ"]);
    expect(build(equationScaling, chunks, "Apply")).toEqual([]);
    expect(build(equationChoice, chunks, "Remember")).toHaveLength(1);
  });

  it("needs two quantities to change", () => {
    const one = `## Weight\n\nThe weight of an object is w = mg, where m is the mass of the object.`;
    expect(build(equationScaling, [chunk(one, 0, "4.3 Weight")], "Apply")).toEqual([]);
  });
});

describe("equations the extraction used to miss (Physics corpus sentences)", () => {
  const eqs = (text: string) =>
    extractEquations([chunk(`## X\n\n${text}`, 0, "1.1 X")]).map(
      (e) => `${e.text} [${e.subject.name}; ${e.factors.map((f) => f.name).join(", ")}]`,
    );

  it("takes the last name of a list before a symbol, and never 'v is proportional to …' as a name", () => {
    expect(
      eqs(
        "Tangential speed v and angular speed ω are related by v = rω, and tangential velocity has units of m/s. The equation v = rω says that the tangential speed v is proportional to the distance r from the center of rotation.",
      ),
    ).toEqual(["v = rω [tangential speed; distance, angular speed]"]);
  });

  it("reads a name that is several words as a whole (index of refraction)", () => {
    expect(
      eqs(
        "The index of refraction n of a material is defined as n = c/v, where v is the observed speed of light in the material.",
      ),
    ).toEqual(["n = c/v [index of refraction; speed of light, speed]"]);
  });

  it("reads upper-case subscripts and electric potential (V = U_E/q), and a bracketed square in a product", () => {
    expect(
      eqs(
        "The electric potential V is V = U_E/q, where U_E is the electric potential energy of a test charge q.",
      ),
    ).toEqual(["V = U_E/q [electric potential; electric potential energy, charge]"]);
    expect(parseLaw("m(v^2)/r")?.factors).toEqual([
      { symbol: "m", power: 1 },
      { symbol: "v", power: 2 },
      { symbol: "r", power: -1 },
    ]);
  });

  it("still refuses symbols the passage does not name (Planck's constant h)", () => {
    expect(eqs("We can see that photon momentum is small, since p = h/λ. and h is very small.")).toEqual([]);
  });
});
