import { describe, expect, it } from "vitest";
import { createGateContext, gateQuestion } from "@/lib/generation/gate";
import { interpretEquation } from "@/lib/generation/offline/forms/written-interpret";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import type { IContextChunk, TQuestion } from "@/types/generation.types";
import { formSlot } from "../support/form-slots";

// Round 13 (wave 11): a stated equation put into words (short Understand). Passages in the style
// of OpenStax Physics (CC BY 4.0), an Indian board (NCERT Class 9 "Force and Laws of Motion")
// textbook, and an OpenStax Biology 2e passage with no equation.
const DOC = "7a1c2e4a-1b2c-4d3e-8f40-123456789abd";
const chunkOf = (section: string, ...lines: string[]): IContextChunk => ({
  documentId: DOC,
  chunkIndex: 0,
  title: "Book",
  sectionPath: `Chapter 4: Book > ${section}`,
  content: [`### ${section.replace(/^[\d.]+\s*/, "")}`, "", ...lines].join("\n"),
});
const kbOf = (section: string, ...lines: string[]) => buildKnowledge([chunkOf(section, ...lines)]);
const build = (kb: ReturnType<typeof buildKnowledge>, type: "short" | "long" = "short") => {
  const steps: string[] = [];
  const env = {
    kb,
    slot: formSlot(DOC, type, "Understand"),
    random: () => 0.5,
    keyAt: 0,
    used: new Set<string>(),
    trace: (s: string) => steps.push(s),
  };
  return { qs: interpretEquation.fits(type, "Understand") ? [...interpretEquation.build(env)] : [], steps };
};
const points = (q: TQuestion | undefined) =>
  q && q.type !== "mcq" ? (q.markingScheme ?? []).map((p) => p.point) : [];

describe("interpret-equation: a stated equation in words", () => {
  it("Physics: f = μN, one mark per factor with the other fixed", () => {
    const kb = kbOf(
      "4.2 Newton's First Law of Motion: Inertia",
      "The force of friction depends on two factors: the coefficient of friction and the normal force.",
      "In equation form, the force of friction is f = μN, where μ is the coefficient of friction and N is the normal force.",
    );
    const { qs, steps } = build(kb);
    const q = qs[0];
    expect(q?.promptText, steps.join("; ")).toBe(
      "The passages give the equation f = μN. Explain in words what it says about the force of friction: is it directly or inversely proportional to each of the coefficient of friction and the normal force (the other kept the same), and what does doubling each one do to the force of friction?",
    );
    expect(points(q)[0]).toMatch(/directly proportional to the/);
    expect(q?.type === "short" && q.suggestedAnswer).toMatch(
      /doubling the normal force doubles the force of friction/,
    );
    expect(q?.bloomLevel).toBe("Understand");
  });

  it("Indian board: a = F/m style (inverse dependence on the mass)", () => {
    const kb = kbOf(
      "9.4 Second Law of Motion",
      "The acceleration of an object is given by a = F/m, where F is the net force on the object and m is its mass.",
    );
    const { qs } = build(kb);
    const text = qs[0]?.type === "short" ? qs[0].suggestedAnswer : "";
    expect(text).toMatch(/inversely proportional to the mass: doubling the mass halves the acceleration/);
    expect(points(qs[0])[0]).toBe(
      "The acceleration is directly proportional to the net force (the mass kept the same)",
    );
    expect(interpretEquation.available(kb)).toBe(1);
  });

  it("passes the quality gate at Understand (Physics and Indian board)", () => {
    for (const c of [
      chunkOf(
        "4.2 Newton's First Law of Motion: Inertia",
        "In equation form, the force of friction is f = μN, where μ is the coefficient of friction and N is the normal force.",
      ),
      chunkOf(
        "9.4 Second Law of Motion",
        "The acceleration of an object is given by a = F/m, where F is the net force on the object and m is its mass.",
      ),
    ]) {
      const q = build(buildKnowledge([c])).qs[0]!;
      const gate = gateQuestion(q, "Understand", createGateContext([c]));
      expect(gate.passed, JSON.stringify(gate)).toBe(true);
    }
  });

  it("refuses a sum, a long slot and a passage with no equation (Biology)", () => {
    const sum = kbOf(
      "2.5 Motion Equations",
      "The final velocity is v = v_0 + at, where v_0 is the initial velocity, a is the acceleration and t is the time.",
    );
    expect(build(sum).qs).toEqual([]);
    const example = kbOf(
      "19.1 Current",
      "If a lightning strike moves 20 C of charge and lasts 2 ms, what is the average electric current?",
      "###### Strategy",
      "Use the definition of current, I = ΔQ/Δt, where ΔQ is the charge and Δt is the time.",
    );
    expect(build(example).qs).toEqual([]);
    const given = kbOf(
      "19.4 Electric Power",
      "We are given the voltage and the power output of a simple circuit, so we can use the equation P = IV to find the current I, where P is the power and V is the voltage.",
    );
    expect(build(given).qs).toEqual([]);
    const remnant = kbOf(
      "3.2 Representing Acceleration with Equations and Graphs",
      "v = v_0 + at, or a = v/t when v_0 = 0, where a is the acceleration, v is the velocity and t is the time.",
    );
    expect(build(remnant).qs).toEqual([]);
    expect(interpretEquation.fits("long", "Understand")).toBe(false);
    expect(interpretEquation.fits("mcq", "Understand")).toBe(false);
    const bio = kbOf(
      "7.1 Energy in Living Systems",
      "Aerobic respiration uses oxygen as the final electron acceptor and releases a large amount of ATP.",
    );
    expect(build(bio).qs).toEqual([]);
    expect(interpretEquation.available(bio)).toBe(0);
  });
});
