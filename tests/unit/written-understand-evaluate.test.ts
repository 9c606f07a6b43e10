import { describe, expect, it } from "vitest";
import { compareTerms, judgeClaim } from "@/lib/generation/offline/forms/reasoning";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import type { EBloomLevel } from "@/types/bloom.types";
import { formSlot } from "../support/form-slots";

// Passages in the style of OpenStax Biology 2e / Physics (CC BY 4.0) and an Indian board textbook.
const DOC = "7a1c2e4a-1b2c-4d3e-8f40-123456789abe";
const slot = (type: "mcq" | "short" | "long", bloomLevel: EBloomLevel) => formSlot(DOC, type, bloomLevel);
const kbOf = (section: string, ...lines: string[]) =>
  buildKnowledge([
    {
      documentId: DOC,
      chunkIndex: 0,
      title: "Biology",
      sectionPath: `Chapter 4: Cell Structure > ${section}`,
      content: [`### ${section.replace(/^[\d.]+\s*/, "")}`, "", ...lines].join("\n"),
    },
  ]);
const envOf = (kb: ReturnType<typeof buildKnowledge>, type: "short" | "long", level: EBloomLevel) => {
  const steps: string[] = [];
  return {
    env: {
      kb,
      slot: slot(type, level),
      random: () => 0.5,
      keyAt: 0,
      used: new Set<string>(),
      trace: (s: string) => steps.push(s),
    },
    steps,
  };
};

describe("--why: judge-claim and compare-terms say where they give up", () => {
  const kb = kbOf(
    "4.3 Eukaryotic Cells",
    "Ribosomes are the cellular structures responsible for protein synthesis.",
    "Contractile vacuoles allow the organism to excrete excess water.",
  );

  it("judge-claim: no stated direction, and no material claimed for it", () => {
    const { env, steps } = envOf(kb, "short", "Evaluate");
    expect([...judgeClaim.build(env)]).toEqual([]);
    expect(steps).toContain("no stated direction (as x increases, y …)");
    expect(judgeClaim.available(kb)).toBe(0);
  });

  it("compare-terms: fewer than two defined terms, and no material claimed for it", () => {
    const { env, steps } = envOf(kb, "short", "Understand");
    expect([...compareTerms.build(env)]).toEqual([]);
    expect(steps[0]).toMatch(/< 2 defined terms|no two defined terms share a genus or head/);
    expect(compareTerms.available(kb)).toBe(0);
  });
});
