import { describe, expect, it } from "vitest";
import { createGateContext, gateQuestion } from "@/lib/generation/gate";
import { compareTerms, judgeClaim } from "@/lib/generation/offline/forms/reasoning";
import {
  denied,
  explainDifference,
  judgeGeneralisation,
  parallel,
  pluralPredicate,
  sharedKind,
} from "@/lib/generation/offline/forms/written-contrast";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import { readContrast } from "@/lib/generation/offline/knowledge/contrasts";
import type { EBloomLevel } from "@/types/bloom.types";
import type { IContextChunk, TQuestion } from "@/types/generation.types";
import { formSlot } from "../support/form-slots";

// Passages in the style of OpenStax Biology 2e / Physics (CC BY 4.0) and an Indian board textbook.
const DOC = "7a1c2e4a-1b2c-4d3e-8f40-123456789abe";
const slot = (type: "mcq" | "short" | "long", bloomLevel: EBloomLevel) => formSlot(DOC, type, bloomLevel);
const chunkOf = (section: string, ...lines: string[]): IContextChunk => ({
  documentId: DOC,
  chunkIndex: 0,
  title: "Biology",
  sectionPath: `Chapter 4: Cell Structure > ${section}`,
  content: [`### ${section.replace(/^[\d.]+\s*/, "")}`, "", ...lines].join("\n"),
});
const kbOf = (section: string, ...lines: string[]) => buildKnowledge([chunkOf(section, ...lines)]);
const points = (q: TQuestion | undefined) =>
  q && q.type !== "mcq" ? (q.markingScheme ?? []).map((p) => p.point) : [];
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

// OpenStax Biology 2e style (30.5 Transport in plants; 14.3 DNA replication) and an Indian board
// (NCERT Class 10 "Life Processes") style passage.
const PLANTS = [
  "30.5 Transport of Water and Solutes in Plants",
  "Unlike xylem conducting cells, phloem conducting cells are alive at maturity.",
  "Xylem conducting cells form hollow tubes that carry water and minerals up from the roots.",
] as const;
const RESPIRATION = [
  "6.4 Respiration",
  "Unlike aerobic respiration, anaerobic respiration takes place in the absence of oxygen.",
  "In yeast, anaerobic respiration produces ethanol and carbon dioxide as its end products.",
] as const;

describe("contrast wording: the pieces", () => {
  it("finds the kind two contrasted things share, or none", () => {
    expect(sharedKind("xylem conducting cells", "phloem conducting cells", "are alive")).toBe(
      "conducting cells",
    );
    expect(sharedKind("The leading strand", "the lagging strand", "is synthesized continuously")).toBe(
      "strands",
    );
    expect(sharedKind("aerobic respiration", "anaerobic respiration", "takes place")).toBe(
      "kinds of respiration",
    );
    expect(sharedKind("Ribosomal RNA (rRNA)", "transfer RNA", "carries the amino acid")).toBe("kinds of RNA");
    expect(sharedKind("Gram-positive bacteria", "gram-negative bacteria", "have a thin cell wall")).toBe(
      "bacteria",
    );
    // No shared word, a broad one ("organisms"), or an "of" phrase: no kind.
    expect(sharedKind("Shoots", "roots", "exhibit positive gravitropism")).toBeNull();
    expect(sharedKind("aerobic organisms", "anaerobic organisms", "use oxygen")).toBeNull();
    expect(sharedKind("the axons of motor neurons", "the somas of motor neurons", "are long")).toBeNull();
  });

  it("makes a predicate plural and denies it in good English", () => {
    expect(pluralPredicate("is alive at maturity")).toBe("are alive at maturity");
    expect(pluralPredicate("carries water")).toBe("carry water");
    expect(pluralPredicate("takes place in the absence of oxygen")).toBe(
      "take place in the absence of oxygen",
    );
    expect(denied("xylem conducting cells", "are alive at maturity")).toBe(
      "xylem conducting cells are not alive at maturity",
    );
    expect(denied("aerobic respiration", "takes place in the absence of oxygen")).toBe(
      "aerobic respiration does not take place in the absence of oxygen",
    );
    expect(denied("cardiac muscle", "can be controlled")).toBe("cardiac muscle cannot be controlled");
  });

  it("reads two features as exclusive only when they are parallel", () => {
    expect(parallel("exhibit negative gravitropism", "exhibit positive gravitropism")).toBe(true);
    expect(parallel("is permeable to small molecules", "is impermeable to ions")).toBe(false);
  });

  it('reads the book\'s "; whereas," as a contrast', () => {
    const c = readContrast({
      text: "The fatty acid chains are hydrophobic and cannot interact with water; whereas, the phosphate-containing groups are hydrophilic and interact with water.",
      chunkKey: `${DOC}:0`,
    });
    expect(c?.b).toBe("the phosphate-containing groups");
  });
});

describe("explain-difference (Understand)", () => {
  it("tells two counterparts apart from the stated difference and a further sentence, and the gate passes it", () => {
    const kb = kbOf(...PLANTS);
    const [q] = [...explainDifference.build(envOf(kb, "short", "Understand").env)];
    expect(q?.promptText).toBe(
      "Xylem conducting cells and phloem conducting cells are both conducting cells. Explain how they differ.",
    );
    expect(points(q)).toEqual([
      "States that phloem conducting cells are alive at maturity",
      "States that xylem conducting cells are not alive at maturity",
      "Adds a further feature of xylem conducting cells: xylem conducting cells form hollow tubes that carry water and minerals up from the roots",
    ]);
    expect(q?.contextRefs).toHaveLength(2);
    expect(gateQuestion(q!, "Understand", createGateContext([chunkOf(...PLANTS)])).passed).toBe(true);
  });

  it("writes nothing from the contrast alone (one copied sentence), and says so", () => {
    const { env, steps } = envOf(kbOf(PLANTS[0], PLANTS[1]), "short", "Understand");
    expect([...explainDifference.build(env)]).toEqual([]);
    expect(steps).toContain("no further sentence on either of the two");
  });
});

describe("judge-generalisation (Evaluate)", () => {
  it("judges an over-general claim with the stated counterexample; marks on the justification", () => {
    const kb = kbOf(...PLANTS);
    const [q] = [...judgeGeneralisation.build(envOf(kb, "short", "Evaluate").env)];
    expect(q?.promptText).toContain("A student claims: “All conducting cells are alive at maturity.”");
    expect(points(q)).toEqual([
      "Judges the claim wrong: it gives the feature of phloem conducting cells to all conducting cells",
      "Gives the counterexample from the text: xylem conducting cells are not alive at maturity",
      "Corrects the scope: it is phloem conducting cells that are alive at maturity, not all conducting cells",
    ]);
    expect(gateQuestion(q!, "Evaluate", createGateContext([chunkOf(...PLANTS)])).passed).toBe(true);
  });

  it("says 'kinds of' for a mass noun (Indian board style)", () => {
    const [q] = [...judgeGeneralisation.build(envOf(kbOf(...RESPIRATION), "short", "Evaluate").env)];
    expect(q?.promptText).toContain("“All kinds of respiration take place in the absence of oxygen.”");
  });

  it("makes no claim from features that can both hold", () => {
    const { env, steps } = envOf(
      kbOf(
        "5.1 Membranes",
        "The outer membrane is permeable to small molecules, whereas the inner membrane is impermeable to most ions.",
      ),
      "short",
      "Evaluate",
    );
    expect([...judgeGeneralisation.build(env)]).toEqual([]);
    expect(steps).toContain("the two features are not parallel (one may hold with the other)");
  });
});

describe("compare-terms pairs only terms defined as things", () => {
  it("does not set a description of what people do beside a two-clause definition (dev reading)", () => {
    const kb = kbOf(
      "17.4 Proteomics",
      "Medical professionals are using different biomarkers to analyze each cancer type.",
      "An individual protein is a biomarker; whereas, a set of proteins with altered expression levels is a protein signature.",
    );
    const prompts = [...compareTerms.build(envOf(kb, "short", "Understand").env)].map((q) => q.promptText);
    expect(prompts.some((p) => /medical professionals/i.test(p))).toBe(false);
  });
});
