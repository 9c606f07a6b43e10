import { describe, expect, it } from "vitest";
import { createGateContext, gateQuestion } from "@/lib/generation/gate";
import { supportTable } from "@/lib/generation/offline/forms";
import { overGeneral } from "@/lib/generation/offline/forms/reasoning";
import { reverse } from "@/lib/generation/offline/forms/statements";
import { createOfflineGenerator } from "@/lib/generation/offline/generator";
import type { ISentence } from "@/lib/generation/offline/knowledge";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import { extractDependences, extractMonotonic } from "@/lib/generation/offline/knowledge/relations";
import type { EBloomLevel } from "@/types/bloom.types";
import type { IContextChunk } from "@/types/generation.types";
import { formSlot } from "../support/form-slots";

const DOC = "7a1c2e4a-1b2c-4d3e-8f40-123456789abc";
const sentence = (text: string): ISentence => ({
  text,
  chunkKey: `${DOC}:0`,
  heading: "",
  section: "Energy",
  position: 0,
  sideBox: false,
  standalone: true,
});
const PASSAGE: IContextChunk = {
  documentId: DOC,
  chunkIndex: 0,
  title: "Physics",
  sectionPath: "Chapter 9: Work and Energy > 9.1 Kinetic Energy",
  content: [
    "### Kinetic Energy",
    "",
    "Kinetic energy depends on the mass of an object and its speed.",
    "Electric power is proportional to the voltage and the current in a circuit.",
    "Most metals are good conductors of heat.",
    "The rate of evaporation of a liquid depends on its temperature and its surface area.",
  ].join("\n"),
};
const slot = (type: "mcq" | "short" | "long", bloomLevel: EBloomLevel) => formSlot(DOC, type, bloomLevel);

describe("generator v3 relations", () => {
  it("reads a stated dependence and each quantity of 'proportional to A and B'", () => {
    const [d] = extractDependences([
      sentence("Kinetic energy depends on the mass of an object and its speed."),
    ]);
    expect(d?.y).toBe("the kinetic energy");
    expect(d?.xs).toContain("the mass of an object");
    const m = extractMonotonic([
      sentence("Electric power is proportional to the voltage and the current in a circuit."),
    ]);
    expect(m.map((r) => [r.x, r.y, r.sign])).toEqual([
      ["the voltage", "the electric power", 1],
      ["the current in a circuit", "the electric power", 1],
    ]);
  });

  it("turns a qualified statement into the over-general claim a student might make", () => {
    expect(overGeneral("Most metals are good conductors of heat and electricity.")).toEqual({
      claim: "All metals are good conductors of heat and electricity.",
      qualifier: "most",
    });
    expect(
      overGeneral("Chloroplasts in plants are found mostly in the mesophyll cells of the leaf.")?.claim,
    ).toBe("Chloroplasts in plants are found only in the mesophyll cells of the leaf.");
    // Already absolute, or negated: no claim to build.
    expect(overGeneral("All metals are good conductors of heat and electricity.")).toBeNull();
    expect(overGeneral("Most metals are not good conductors of heat in the cold.")).toBeNull();
  });
});

describe("generator v3 forms", () => {
  it("plans a fair test from a stated dependence, keeping the other factor the same", () => {
    const gen = createOfflineGenerator([PASSAGE], 1);
    const plans = [...gen.candidates(slot("long", "Create"), { used: new Set(), keyAt: 0 })];
    // Wave 12: a school lab computes a kinetic energy or a power, it does not read one: no plan of them.
    expect(plans.map((c) => c.question.promptText)).not.toContainEqual(
      expect.stringMatching(/kinetic energy|electric power/),
    );
    const q = plans.find((c) => /the temperature affects/.test(c.question.promptText))?.question;
    expect(q?.type).toBe("long");
    if (q?.type !== "long") return;
    expect(q.promptText).toMatch(
      /^Plan a fair test of how the temperature affects the rate of evaporation of a liquid\./,
    );
    expect(q.markingScheme.map((p) => p.point).join(" ")).toMatch(
      /Keeps .+ constant \(controlled variables\)/,
    );
    expect(q.markingScheme.reduce((a, p) => a + p.marks, 0)).toBe(5);
  });

  it("never offers the dropped forms (cloze, define-and-fact, NOT correct)", () => {
    const gen = createOfflineGenerator([PASSAGE], 1);
    for (const type of ["mcq", "short", "long"] as const)
      for (const level of ["Remember", "Understand"] as const)
        for (const { form, question } of gen.candidates(slot(type, level), { used: new Set(), keyAt: 0 })) {
          expect(["called-cloze", "concept-cloze", "define-written"]).not.toContain(form);
          expect(question.promptText).not.toMatch(/________|NOT correct|state one further fact/);
        }
  });

  it("says per type and level what the passages can support, with a reason for each zero", () => {
    const table = supportTable(buildKnowledge([PASSAGE]));
    expect(table).toHaveLength(18);
    const at = (type: string, level: string) => table.find((s) => s.type === type && s.level === level)!;
    expect(at("long", "Create").count).toBeGreaterThan(0);
    expect(at("mcq", "Create")).toMatchObject({
      count: 0,
      reason: expect.stringMatching(/no MCQ form at Create/),
    });
    expect(at("short", "Analyze").count).toBe(0);
    for (const s of table) expect(s.count > 0 ? s.reason === "" : s.reason.length > 0).toBe(true);
  });
});

describe("proportion rule (Understand, read so by round 10)", () => {
  it("doubles a directly proportional quantity, never for a square law", () => {
    const gen = createOfflineGenerator([PASSAGE], 1);
    const q = [...gen.candidates(slot("mcq", "Understand"), { used: new Set(), keyAt: 1 })].find(
      (c) => c.form === "proportion-rule",
    )?.question;
    expect(q?.type).toBe("mcq");
    if (q?.type !== "mcq") return;
    expect(q.promptText).toMatch(
      /^If .+ is doubled while everything else is kept the same, what happens to the electric power\?$/,
    );
    // The key does not echo the stem's "doubled" (the gate refused "It doubles." as given away).
    expect(q.options[q.correctIndex]).toBe("It becomes twice as large.");
    expect(q.correctIndex).toBe(1);
    // The gate reads one stated proportion used once as Understand: no "reads as Apply" warning.
    const verdict = gateQuestion(q, "Understand", createGateContext([PASSAGE]), { accepted: [] });
    expect(verdict.demand).toBe("Understand");
    expect(verdict.findings.map((f) => f.flag)).not.toContain("bloom_mismatch");
    expect(
      [...gen.candidates(slot("mcq", "Apply"), { used: new Set(), keyAt: 1 })].some(
        (c) => c.form === "proportion-rule",
      ),
    ).toBe(false);
    const [square] = extractMonotonic([
      sentence("The force is inversely proportional to the square of the distance between the charges."),
    ]);
    expect(square?.proportional).toBeUndefined();
  });
});

describe("reversals a reader found still true or garbled", () => {
  it("reverses 'most intense' to 'least intense' and leaves reflection/refraction alone", () => {
    expect(
      reverse(
        sentence("At 4,000 K, the radiation is most intense in the yellow-green portion of the spectrum."),
      )?.text,
    ).toBe("At 4,000 K, the radiation is least intense in the yellow-green portion of the spectrum.");
    expect(
      reverse(sentence("Reflection causes a wave to change direction at a fixed end of a string.")),
    ).toBeNull();
  });

  it("takes no clause for a quantity ('the more the path of light bends')", () => {
    expect(
      extractMonotonic([sentence("The greater the difference in speeds, the more the path of light bends.")]),
    ).toEqual([]);
  });
});
