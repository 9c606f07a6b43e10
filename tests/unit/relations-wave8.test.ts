import { describe, expect, it } from "vitest";
import { createGateContext, gateQuestion } from "@/lib/generation/gate";
import { mulberry32 } from "@/lib/generation/offline/forms/common";
import { createOfflineGenerator } from "@/lib/generation/offline/generator";
import {
  analyseWorkedExample,
  findWorkedExamples,
  makeNumericProblem,
} from "@/lib/generation/offline/knowledge/numeric";
import { partA } from "@/lib/generation/offline/knowledge/numeric/problem";
import { extractDependences, extractMonotonic } from "@/lib/generation/offline/knowledge/relations";
import type { EBloomLevel } from "@/types/bloom.types";
import type { IContextChunk, TQuestion } from "@/types/generation.types";
import { formSlot } from "../support/form-slots";
import { testSentence } from "../support/sentence";

/** Round 10: relations stated in more of the ways textbooks state them (Physics, Biology, Indian board). */

const sentence = (text: string) => testSentence(text);
const read = (text: string) =>
  extractMonotonic([sentence(text)]).map((r) => [r.x, r.y, r.sign, r.proportional === true]);

describe("wider relation reading", () => {
  it("reads 'the faster the X moves' as the speed of X, and refuses an adjective after 'the more'", () => {
    expect(read("The faster the ambulance moves, the greater the shift.")).toEqual([
      ["the speed of the ambulance", "the shift", 1, false],
    ]);
    expect(read("The hotter the water is, the faster the rate of evaporation.")).toEqual([
      ["the temperature of the water", "the rate of evaporation", 1, false],
    ]);
    // "the more sudden the shift": "sudden" names no quantity; nor does "ordered" in "the more ordered a system".
    expect(read("The closer the ambulance is to you, the more sudden the shift.")).toEqual([]);
    expect(read("The more ordered a system, the lower its entropy.")).toEqual([]);
  });

  it("drops a symbol set off by commas and reads each 'and the greater …'", () => {
    expect(
      read("The greater the plane’s speed, vs, the greater the Doppler shift and the greater the pitch."),
    ).toEqual([
      ["the plane’s speed", "the Doppler shift", 1, false],
      ["the plane’s speed", "the pitch", 1, false],
    ]);
  });

  it("names no quantity by a symbol ('the value of fobs')", () => {
    expect(read("The greater the speed of the source, the greater the value of fobs.")).toEqual([]);
  });

  it("reads 'its' after 'the greater' (Indian board style)", () => {
    expect(read("The greater the mass of the body, the greater its inertia.")).toEqual([
      ["the mass of the body", "the inertia", 1, false],
    ]);
  });

  it("keeps the direction of an inverse-square law, not its factor", () => {
    expect(
      read(
        "For a point charge or a sphere of uniform charge, the electric field is inversely proportional to the square of the distance from the point charge or from the center of the sphere.",
      ),
    ).toEqual([["the distance", "the electric field", -1, false]]);
  });

  it("reads 'varies directly as' and 'varies inversely with' as proportions, 'is directly related to' as a direction", () => {
    expect(read("The resistance of a wire varies directly as its length.")).toEqual([
      ["the length", "the resistance of a wire", 1, true],
    ]);
    expect(read("The pressure of a gas varies inversely with its volume.")).toEqual([
      ["the volume", "the pressure of a gas", -1, true],
    ]);
    expect(read("The rate of photosynthesis is directly related to the light intensity.")).toEqual([
      ["the light intensity", "the rate of photosynthesis", 1, false],
    ]);
    expect(
      read("The time period of a simple pendulum varies directly as the square root of its length."),
    ).toEqual([["the length", "the time period of a simple pendulum", 1, false]]);
  });

  it("reads a changed quantity that causes another to change (Biology style)", () => {
    expect(
      read(
        "Increased temperature, such as from increased activity of skeletal muscle, causes the affinity of hemoglobin for oxygen to be reduced.",
      ),
    ).toEqual([["the temperature", "the affinity of hemoglobin for oxygen", -1, false]]);
    expect(read("A higher concentration of substrate leads to a faster rate of reaction.")).toEqual([
      ["the concentration of substrate", "the rate of reaction", 1, false],
    ]);
  });

  it("reads 'increases with an increase in X'", () => {
    expect(read("The rate of evaporation increases with an increase in temperature.")).toEqual([
      ["the temperature", "the rate of evaporation", 1, false],
    ]);
    expect(read("The solubility of a gas decreases with a rise in temperature.")).toEqual([
      ["the temperature", "the solubility of a gas", -1, false],
    ]);
  });

  it("reads 'depends both on', but not 'is dependent on … for …' (a need, not a quantity)", () => {
    const deps = (text: string) => extractDependences([sentence(text)]).map((d) => [d.y, d.xs]);
    expect(
      deps("The pressure exerted by a liquid depends both on the depth and the density of the liquid."),
    ).toEqual([["the pressure exerted by a liquid", ["the depth", "the density of the liquid"]]]);
    expect(deps("Virtually all animal life is dependent on plants for survival.")).toEqual([]);
  });
});

const DOC = "7a1c2e4a-1b2c-4d3e-8f40-123456789ac8";
const chunk = (chunkIndex: number, section: string, lines: string[]): IContextChunk => ({
  documentId: DOC,
  chunkIndex,
  title: "Physics",
  sectionPath: `Chapter 14: Sound > ${section}`,
  content: lines.join("\n"),
});
const DOPPLER = chunk(0, "14.3 Doppler Effect", [
  "### Doppler Effect",
  "",
  "The Doppler effect is the change in observed frequency caused by motion of the source or the observer.",
  "The greater the speed of the source, vs, the greater the observed frequency.",
]);
const candidates = (type: "mcq" | "short" | "long", level: EBloomLevel) => [
  ...createOfflineGenerator([DOPPLER], 1, [DOPPLER]).candidates(formSlot(DOC, type, level), {
    used: new Set(),
    keyAt: 1,
  }),
];

describe("the widened relations feed Apply, Evaluate and Create", () => {
  it("predicts a change from 'the greater …, the greater …' with a symbol in it (Apply MCQ)", () => {
    const found = candidates("mcq", "Apply").filter((c) => c.form === "predict-change");
    expect(found.length).toBeGreaterThan(0);
    const q = found[0]!.question as Extract<TQuestion, { type: "mcq" }>;
    expect(q.promptText).toMatch(/the speed of the source is lowered/i);
    expect(q.options[q.correctIndex]).toBe("Observed frequency decreases");
    expect(q.promptText).not.toMatch(/\bvs\b/);
  });

  it("asks to judge a prediction made the wrong way round (Evaluate), marked on the justification", () => {
    const found = candidates("short", "Evaluate").filter((c) => c.form === "judge-relation");
    expect(found.length).toBeGreaterThan(0);
    const q = found[0]!.question as Extract<TQuestion, { type: "short" }>;
    expect(q.promptText).toMatch(
      /Reducing the speed of the source will make the observed frequency increase/,
    );
    expect(q.promptText).toMatch(/marks are for the justification/);
    expect(q.suggestedAnswer).toMatch(/^No\./);
    expect(q.suggestedAnswer).toMatch(/makes the observed frequency decrease/);
    const verdict = gateQuestion(q, "Evaluate", createGateContext([DOPPLER]), { accepted: [] });
    expect(verdict.findings.filter((f) => f.severity === "reject")).toEqual([]);
  });

  it("plans a fair test of it (Create)", () => {
    const found = candidates("long", "Create").filter((c) => c.form === "design-investigation");
    expect(found.length).toBeGreaterThan(0);
    expect(found[0]!.question.promptText).toMatch(
      /how the speed of the source affects the observed frequency/,
    );
  });

  it("accepts the plan after a question citing the same sentence, but not the same plan twice", () => {
    const plan = candidates("long", "Create").find((c) => c.form === "design-investigation")!.question;
    const cited = new Set(plan.contextRefs.map((r) => r.quote));
    // Other slots of the set on the same sentence (their own ids: a question is never its own duplicate).
    const earlier = candidates("mcq", "Apply")
      .map((c) => c.question)
      .filter((q) => q.contextRefs.every((r) => cited.has(r.quote)))
      .map((q, i) => ({ ...q, id: `e${i}` }));
    expect(earlier.length).toBeGreaterThan(0);
    const flags = (accepted: TQuestion[]) =>
      gateQuestion(plan, "Create", createGateContext([DOPPLER]), { accepted }).findings.map((f) => f.flag);
    expect(flags(earlier)).not.toContain("duplicate_fact");
    expect(flags([{ ...plan, id: "other" }])).toContain("duplicate_fact");
  });
});

describe("part (a) of a multi-part worked example", () => {
  const DOC2 = "7a1c2e4a-1b2c-4d3e-8f40-123456789ac9";
  const example = (text: string) =>
    findWorkedExamples([
      {
        documentId: DOC2,
        chunkIndex: 0,
        title: "Physics",
        sectionPath: "Chapter 19 > 19.5 Capacitors",
        content: text,
      },
    ]);
  // Written for this test in the book's style: part (a) solved, part (b) left to a later block.
  const CAPACITOR = `#### Charge on a Capacitor

Problem: A capacitor has a capacitance of 4.00 × 10^(−6) F. (a) What charge does it store when a potential difference of 12.0 V is applied across it? (b) How much energy is then stored in it?

###### Strategy

Use the equation Q = CV.

Solution: Q = CV = (4.00 × 10^(−6) F)(12.0 V) = 4.80 × 10^(−5) C.`;

  it("poses the set-up and part (a) when the solution answers part (a) alone", () => {
    const found = example(CAPACITOR);
    expect(found).toHaveLength(1);
    const result = analyseWorkedExample(found[0]!);
    expect(result.ok).toBe(true);
    const problem = makeNumericProblem(found[0]!, mulberry32(3), 3);
    expect(problem).not.toBeNull();
    expect(problem!.stem).toMatch(/What charge does it store/);
    expect(problem!.stem).not.toMatch(/\(a\)|\(b\)|energy/);
  });

  it("refuses part (a) when the solution goes on to answer later parts", () => {
    const both = CAPACITOR.replace(
      "= 4.80 × 10^(−5) C.",
      "= 4.80 × 10^(−5) C.\n\nThe energy is U = 1/2QV = 1/2(4.80 × 10^(−5) C)(12.0 V) = 2.88 × 10^(−4) J.",
    );
    expect(analyseWorkedExample(example(both)[0]!)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/several parts/),
    });
  });

  it("refuses parts that do not open a sentence of their own", () => {
    expect(partA("Calculate a) how much energy is needed (b) how much heat is given out.")).toBeNull();
    expect(partA("A pan is heated. (a) How much heat is required? What percentage heats (b) the pan?")).toBe(
      "A pan is heated. How much heat is required?",
    );
  });
});

describe("names keep their capital", () => {
  it("keeps a capital after 'the' (a name), lowers a sentence's first word", () => {
    expect(read("The greater the Earth’s mass, the greater the weight of a body.")).toEqual([
      ["the Earth’s mass", "the weight of a body", 1, false],
    ]);
    expect(read("Electric power is proportional to the voltage.")).toEqual([
      ["the voltage", "the electric power", 1, true],
    ]);
  });
});
