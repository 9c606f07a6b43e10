import { describe, expect, it } from "vitest";
import { judgeRelation } from "@/lib/generation/offline/forms/written-claim";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import type { IContextChunk, TQuestion } from "@/types/generation.types";
import { formSlot } from "../support/form-slots";

// Round 14: judge-relation writes no claim about a vague factor. (Its answers standing on the
// stated sentence were reverted after the blind reading: the items the gate then passed were read
// as rejects.) Wording from OpenStax Biology 2e (CC BY 4.0) and an NCERT-style sentence.
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
  return q;
};

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
    expect(first(section, line)).toBeUndefined();
  });
});
