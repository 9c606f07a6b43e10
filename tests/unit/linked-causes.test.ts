import { describe, expect, it } from "vitest";
import { createGateContext, gateQuestion } from "@/lib/generation/gate";
import { asWritten } from "@/lib/generation/offline/forms/relations";
import { createOfflineGenerator } from "@/lib/generation/offline/generator";
import { extractLinkedCauses, resolveSubject } from "@/lib/generation/offline/knowledge/causes";
import type { IContextChunk, TQuestion } from "@/types/generation.types";
import { formSlot } from "../support/form-slots";
import { testSentence } from "../support/sentence";

/** Two sentences of one block, next to each other (positions 0 and 1). */
const pair = (s1: string, s2: string, over: { sideBox?: boolean; gap?: boolean } = {}) => [
  testSentence(s1),
  testSentence(s2, { position: over.gap ? 2 : 1, sideBox: over.sideBox ?? false, standalone: false }),
];
const read = (s1: string, s2: string, over?: { sideBox?: boolean; gap?: boolean }) =>
  extractLinkedCauses(pair(s1, s2, over)).map((c) => [c.cause, c.effect]);

describe("causes stated across two sentences (extractLinkedCauses)", () => {
  it("reads 'This explains why …' as the earlier sentence causing the later (Biology 2e wording)", () => {
    expect(
      read(
        "In fact, water's specific heat capacity is about five times more than that of sand.",
        "This explains why the land cools faster than the sea.",
      ),
    ).toEqual([
      [
        "Water's specific heat capacity is about five times more than that of sand",
        "The land cools faster than the sea",
      ],
    ]);
  });

  it("reads 'This is because …' as the later sentence causing the earlier, naming the subject for 'they'", () => {
    expect(
      read(
        "Lipids include a diverse group of compounds that are largely nonpolar in nature.",
        "This is because they are hydrocarbons that include mostly nonpolar carbon–carbon or carbon–hydrogen bonds.",
      ),
    ).toEqual([
      [
        "Lipids are hydrocarbons that include mostly nonpolar carbon–carbon or carbon–hydrogen bonds",
        "Lipids include a diverse group of compounds that are largely nonpolar in nature",
      ],
    ]);
  });

  it("reads NCERT-style wording and a physics 'This is why'", () => {
    expect(
      read(
        "Metals have free electrons in their structure.",
        "This is why metals are good conductors of electricity.",
      ),
    ).toEqual([
      ["Metals have free electrons in their structure", "Metals are good conductors of electricity"],
    ]);
    expect(
      read(
        "Gases expand much more than solids when their temperature increases.",
        "This is why railroad tracks and bridges have expansion joints between sections.",
      ),
    ).toEqual([
      [
        "Gases expand much more than solids when their temperature increases",
        "Railroad tracks and bridges have expansion joints between sections",
      ],
    ]);
  });

  it("refuses a definition as the effect, 'This means that', a side box and sentences not next to each other", () => {
    expect(
      read(
        "Dispersion is defined as the spreading of white light into the wavelengths of which it is composed.",
        "This happens because the index of refraction varies slightly with wavelength.",
      ),
    ).toEqual([]);
    expect(
      read(
        "Many prokaryotes are facultatively anaerobic organisms in the soil.",
        "This means that they can switch between aerobic respiration and fermentation.",
      ),
    ).toEqual([]);
    const s1 = "Metals have free electrons in their structure.";
    const s2 = "This is why metals are good conductors of electricity.";
    expect(read(s1, s2, { sideBox: true })).toEqual([]);
    expect(read(s1, s2, { gap: true })).toEqual([]);
  });

  it("keeps 'it / they' when the earlier subject is not a plain noun phrase of the same number", () => {
    expect(resolveSubject("they are hydrocarbons", "Lipids include many compounds")).toBe(
      "Lipids are hydrocarbons",
    );
    expect(resolveSubject("it is an open system", "Lipids include many compounds")).toBe(
      "it is an open system",
    );
    expect(resolveSubject("they move", "In a cell, reactions never reach equilibrium")).toBe("they move");
  });
});

const DOC = "7a1c2e4a-1b2c-4d3e-8f40-123456789abe";
const chunk = (lines: string[]): IContextChunk => ({
  documentId: DOC,
  chunkIndex: 0,
  title: "Biology",
  sectionPath: "Chapter 2: The Chemical Foundation of Life > 2.2 Water",
  content: lines.join("\n"),
});

describe("assertion–reason from a cause stated across two sentences", () => {
  const WATER = chunk([
    "### Water's high heat capacity",
    "",
    "In fact, water's specific heat capacity is about five times more than that of sand.",
    "This explains why the land cools faster than the sea.",
  ]);

  it("relates A (the later sentence) to R (the earlier), keys vary, and the gate passes it", () => {
    const keys = new Set<number>();
    for (const keyAt of [0, 1, 2, 3]) {
      const found = [
        ...createOfflineGenerator([WATER], 1, [WATER]).candidates(formSlot(DOC, "mcq", "Analyze"), {
          used: new Set(),
          keyAt,
        }),
      ].filter((c) => c.form === "assertion-reason");
      expect(found.length).toBeGreaterThan(0);
      const q = found[0]!.question as Extract<TQuestion, { type: "mcq" }>;
      expect(q.promptText).toMatch(/Assertion \(A\): The land (?:cools|warms)/);
      expect(q.promptText).toMatch(/Reason \(R\): Water's specific heat capacity/);
      keys.add(q.correctIndex);
      if (q.correctIndex === 0) {
        const verdict = gateQuestion(q, "Analyze", createGateContext([WATER]), { accepted: [] });
        expect(verdict.findings.filter((f) => f.severity === "reject")).toEqual([]);
      }
    }
    expect(keys.has(0)).toBe(true);
  });
});

describe("assertion–reason halves as the book writes them", () => {
  it("puts back a lower-case first letter the book uses ('tRNAs', 'mRNA', 'pH')", () => {
    expect(
      asWritten(
        "TRNAs are the molecules that actually translate the language of RNA",
        "Aminoacyl-tRNAs bind to the ribosome. Therefore, tRNAs are the molecules that actually translate the language of RNA.",
      ),
    ).toBe("tRNAs are the molecules that actually translate the language of RNA");
    expect(asWritten("The pH of blood stays near 7.4", "The pH of blood stays near 7.4.")).toBe(
      "The pH of blood stays near 7.4",
    );
  });

  it("writes no assertion–reason from a one-sentence 'X results in Y' (noun phrases, NCERT style)", () => {
    const SMOG = chunk([
      "### Air pollution",
      "",
      "The burning of fossil fuels in vehicles and factories results in increased levels of smoke and smog in cities.",
      "Smog in cities is a thick mixture of smoke, fog and harmful gases.",
    ]);
    const found = [
      ...createOfflineGenerator([SMOG], 1, [SMOG]).candidates(formSlot(DOC, "mcq", "Analyze"), {
        used: new Set(),
        keyAt: 1,
      }),
    ].filter((c) => c.form === "assertion-reason");
    expect(found).toEqual([]);
  });
});
