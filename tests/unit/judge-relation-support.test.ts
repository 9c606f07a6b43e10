import { describe, expect, it } from "vitest";
import { createGateContext, gateQuestion } from "@/lib/generation/gate";
import { answerSupport } from "@/lib/generation/gate/checks";
import { judgeRelation } from "@/lib/generation/offline/forms/written-claim";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import type { IContextChunk, TQuestion } from "@/types/generation.types";
import { formSlot } from "../support/form-slots";

// Round 14: judge-relation's answers stand on the stated sentence, so the gate's support check
// passes them where the book words the relation its own way ("varies with", "amplitude squared").
// Wording from OpenStax Physics / Biology 2e (CC BY 4.0) and an NCERT-style sentence.
const DOC = "7a1c2e4a-1b2c-4d3e-8f40-123456789ad2";
const chunkOf = (section: string, line: string): IContextChunk =>
  ({
    documentId: DOC,
    chunkIndex: 0,
    title: "Book",
    sectionPath: `Chapter ${section.split(".")[0]}: Book > ${section}`,
    content: [`### ${section.replace(/^[\d.]+\s*/, "")}`, "", line].join("\n"),
  }) as IContextChunk;
const first = (section: string, line: string) => {
  const chunks = [chunkOf(section, line)];
  const kb = buildKnowledge(chunks);
  const env = {
    kb,
    slot: formSlot(DOC, "short", "Evaluate"),
    random: () => 0.5,
    keyAt: 0,
    used: new Set<string>(),
  };
  const q = [...judgeRelation.build(env)][0] as TQuestion | undefined;
  return { q, ctx: createGateContext(chunks, { selected: [`${DOC}:0`] }) };
};

describe("judge-relation answers stand on the stated sentence", () => {
  it.each([
    [
      "17.1 Understanding Diffraction",
      "The wavelength of light varies with the refractive index of the medium.",
    ],
    ["14.2 Sound Intensity", "The intensity of a sound is proportional to its amplitude squared."],
    ["19.4 Electric Power", "Electric power is proportional to the voltage and the current in a circuit."],
    [
      "30.5 Transport of Water",
      "The rate of transpiration increases as the temperature of the air increases.",
    ],
    ["12.1 Electricity", "The resistance of a conductor depends on the length of the conductor."],
  ])("%s: the answer cites the sentence and the gate passes it", (section, line) => {
    const { q, ctx } = first(section, line);
    expect(q?.type).toBe("short");
    if (q?.type !== "short") return;
    expect(q.suggestedAnswer).toContain(
      `The text states that ${line.charAt(0).toLowerCase()}${line.slice(1, -1)}`,
    );
    expect(answerSupport(q, ctx)).toBeGreaterThanOrEqual(0.45);
    expect(gateQuestion(q, "Evaluate", ctx, { accepted: [] }).passed).toBe(true);
  });
});

describe("judge-relation refuses a dependence nothing could be changed in", () => {
  it.each([
    ["7.7 Regulation of Cellular Respiration", "Cellular respiration is controlled by a variety of means."],
    ["31.3 Nutritional Adaptations", "A parasitic plant depends on its host for survival."],
    [
      "42.3 Antibodies",
      "The avidity depends on the number of identical binding sites on the antigen being detected, as well as other physical and chemical factors.",
    ],
    ["12.1 Electricity (NCERT-style)", "The current in a circuit depends on several factors."],
  ])("%s", (section, line) => {
    const { q } = first(section, line);
    expect(q).toBeUndefined();
  });
});
