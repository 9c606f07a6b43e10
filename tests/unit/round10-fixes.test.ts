import { describe, expect, it } from "vitest";
import { mixedDefinition } from "@/lib/generation/offline/forms/bio-claims";
import { compareTerms } from "@/lib/generation/offline/forms/reasoning";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import type { IContextChunk } from "@/types/generation.types";
import { formSlot } from "../support/form-slots";

/** Round 10 readers' rejects (eval/generation/round10.readers.jsonl), fixed in the forms. */

const DOC = "7a1c2e4a-1b2c-4d3e-8f40-1234567890aa";
const chunk = (content: string): IContextChunk =>
  ({
    documentId: DOC,
    chunkIndex: 0,
    title: "Biology",
    content,
    sectionPath: "Chapter 40 > 40.1 Overview of the Circulatory System",
  }) as IContextChunk;

const distinguish = (content: string) =>
  [
    ...compareTerms.build({
      kb: buildKnowledge([chunk(content)]),
      slot: formSlot(DOC, "short", "Understand"),
      random: () => 0.5,
      keyAt: 0,
      used: new Set<string>(),
    }),
  ].map((q) => q.promptText);

describe("compare-terms: two terms of one kind", () => {
  it("tells apart two terms the passage defines as the same kind of thing", () => {
    expect(
      distinguish(
        "### Blood vessels\n\nArteries are blood vessels that carry blood away from the heart. Veins are blood vessels that carry blood toward the heart.",
      ),
    ).toEqual(["Distinguish between arteries and veins."]);
  });

  it("does not pair terms whose only shared genus counts them ('a pair of …')", () => {
    expect(
      distinguish(
        "### Reproductive anatomy\n\nThe testes are a pair of male reproductive organs that produce sperm and some reproductive hormones. The labia majora are a pair of elongated folds of tissue that run posterior from the mons pubis.",
      ),
    ).toEqual([]);
  });

  it("does not ask about a position without its whole ('outermost layer', 'middle layer')", () => {
    expect(
      distinguish(
        "### Meninges\n\nThe outermost layer is the dura mater, a tough membrane that lines the skull. The middle layer is the arachnoid mater, a thin membrane with a web-like structure.",
      ),
    ).toEqual([]);
  });
});

describe("bio-mixed-definition: the same kin rules as compare-terms", () => {
  const mixed = (content: string) =>
    [
      ...mixedDefinition.build({
        kb: buildKnowledge([chunk(content)]),
        slot: formSlot(DOC, "short", "Remember"),
        random: () => 0.5,
        keyAt: 0,
        used: new Set<string>(),
      }),
    ].map((q) => q.promptText);

  it("gives no position a kin term's description, and pairs nothing by 'a pair of …'", () => {
    expect(
      mixed(
        "### Meninges\n\nThe outermost layer is the dura mater, a tough membrane that lines the skull. The middle layer is the arachnoid mater, a thin membrane with a web-like structure.",
      ),
    ).toEqual([]);
    expect(
      mixed(
        "### Reproductive anatomy\n\nThe testes are a pair of male reproductive organs that produce sperm and some reproductive hormones. The labia majora are a pair of elongated folds of tissue that run posterior from the mons pubis.",
      ),
    ).toEqual([]);
  });
});
