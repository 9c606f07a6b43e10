import { describe, expect, it } from "vitest";
import { createGateContext, gateQuestion } from "@/lib/generation/gate";
import { kinship } from "@/lib/generation/offline/forms/recall";
import { createOfflineGenerator } from "@/lib/generation/offline/generator";
import type { ITerm } from "@/lib/generation/offline/knowledge";
import { extractMonotonic } from "@/lib/generation/offline/knowledge/relations";
import type { EBloomLevel } from "@/types/bloom.types";
import type { IContextChunk, TQuestion } from "@/types/generation.types";
import { formSlot } from "../support/form-slots";

const DOC = "7a1c2e4a-1b2c-4d3e-8f40-123456789abd";
const chunk = (chunkIndex: number, section: string, lines: string[]): IContextChunk => ({
  documentId: DOC,
  chunkIndex,
  title: "Physics",
  sectionPath: `Chapter 2: Kinematics > ${section}`,
  content: lines.join("\n"),
});
const SELECTED = chunk(0, "2.4 Velocity", [
  "### Velocity",
  "",
  "Velocity is the rate of change of displacement with time.",
  "Acceleration is the rate of change of velocity with time.",
]);
const CHAPTER = [
  SELECTED,
  chunk(1, "2.1 Displacement", [
    "### Displacement",
    "",
    "Displacement is the change in position of an object from its starting point.",
    "Distance is the total length of the path travelled between two positions.",
    "A reference frame is the coordinate system used to describe the positions of objects.",
    "Position is the location of an object relative to a chosen origin.",
    "Speed is the distance an object travels in a unit of time.",
    "Speed is the rate at which an object covers distance.",
    "Power is the rate at which work is done.",
  ]),
];
const slot = (type: "mcq" | "short" | "long", bloomLevel: EBloomLevel) => formSlot(DOC, type, bloomLevel);

const candidates = (
  chunks: IContextChunk[],
  scope: IContextChunk[],
  type: "mcq" | "short" | "long",
  level: EBloomLevel,
) => [
  ...createOfflineGenerator(chunks, 1, scope).candidates(slot(type, level), { used: new Set(), keyAt: 2 }),
];

describe("definition MCQ (term ↔ its genuine definition)", () => {
  it("keys the stated definition; the options are other terms' definitions from the chapter, and the gate passes it", () => {
    const found = candidates([SELECTED], CHAPTER, "mcq", "Remember").filter((c) => c.form === "defines-mcq");
    expect(found.length).toBeGreaterThan(0);
    const q = found[0]!.question as Extract<TQuestion, { type: "mcq" }>;
    expect(q.promptText).toMatch(/velocity|acceleration/i);
    expect(q.correctIndex).toBe(2);
    const key = q.options[q.correctIndex]!;
    expect(key).toMatch(/^The rate of change of (?:displacement|velocity)/);
    // Every wrong option is another term's definition, each rationale names that term.
    expect(q.options.filter((o) => o !== key).every((o) => /^(?:The|A) /.test(o))).toBe(true);
    expect(q.distractorRationales.every((r) => /^This defines \S/.test(r))).toBe(true);
    const verdict = gateQuestion(q, "Remember", createGateContext([SELECTED]), { accepted: [] });
    expect(verdict.findings.filter((f) => f.severity === "reject")).toEqual([]);
  });

  it("writes nothing when the chapter defines fewer than three other terms", () => {
    const found = candidates([SELECTED], [SELECTED], "mcq", "Remember").filter(
      (c) => c.form === "defines-mcq",
    );
    expect(found).toEqual([]);
  });
});

describe("readers' faults (round 6)", () => {
  const CAUSES = chunk(2, "12.3 Entropy", [
    "### Heat and temperature",
    "",
    "Friction converts some of the kinetic energy of a sliding block into thermal energy.",
    "Therefore, the temperature of the rubbing surfaces increases during the motion.",
    "Because the molecules move faster when heated, the gas expands in the container.",
    "Most metals are good conductors of heat and electricity.",
  ]);

  it("assertion–reason takes A and R from two statements, never one 'because' sentence, and its keys vary", () => {
    const keys = new Set<number>();
    for (const keyAt of [0, 1, 2, 3]) {
      const found = [
        ...createOfflineGenerator([CAUSES], 1, [CAUSES]).candidates(slot("mcq", "Analyze"), {
          used: new Set(),
          keyAt,
        }),
      ].filter((c) => c.form === "assertion-reason");
      for (const c of found) {
        const q = c.question as Extract<TQuestion, { type: "mcq" }>;
        expect(q.promptText).not.toMatch(/gas expands[\s\S]*Reason \(R\): The molecules move faster/i);
      }
      const first = found[0]?.question as Extract<TQuestion, { type: "mcq" }> | undefined;
      if (first) keys.add(first.correctIndex);
    }
    expect(keys.size).toBeGreaterThan(1);
  });

  it("offers no assertion–reason at Understand cut from one sentence", () => {
    const found = candidates([CAUSES], [CAUSES], "mcq", "Understand").filter(
      (c) => c.form === "stated-reason",
    );
    expect(found).toEqual([]);
  });

  it("an Evaluate claim is never a 'usually/most' → 'always/all' swap", () => {
    for (const type of ["mcq", "short", "long"] as const) {
      const found = candidates([CAUSES], [CAUSES], type, "Evaluate").filter((c) => c.form === "judge-claim");
      for (const c of found) expect(c.question.promptText).not.toMatch(/\ball metals\b|\balways\b/i);
    }
  });

  it("plans no fair test of a weapon or of quantities a class cannot measure", () => {
    const bomb = chunk(3, "32.6 Fission", [
      "### Fission",
      "",
      "As the amount of uranium increases, the energy yield of the bomb increases.",
      "As the temperature of a gas increases, the pressure of the gas increases.",
    ]);
    const found = candidates([bomb], [bomb], "long", "Create").filter(
      (c) => c.form === "design-investigation",
    );
    expect(found.length).toBeGreaterThan(0);
    for (const c of found) expect(c.question.promptText).not.toMatch(/uranium|bomb/i);
  });
});

describe("stated proportions read from ordinary exposition", () => {
  const read = (text: string) =>
    extractMonotonic([
      { text, chunkKey: "k", heading: "", section: "", position: 0, sideBox: false, standalone: true },
    ]).map((r) => [r.x, r.y, r.sign, r.proportional === true]);

  it("reads 'its mass', a quantity with its place ('the distance from the center') and a symbol after the name", () => {
    expect(read("The acceleration of an object is inversely proportional to its mass.")).toEqual([
      ["the mass", "the acceleration of an object", -1, true],
    ]);
    expect(
      read(
        "The equation v = rω says that the tangential speed v is proportional to the distance r from the center of rotation.",
      ),
    ).toEqual([["the distance", "the tangential speed", 1, true]]);
  });

  it("keeps the direction of 'proportional to its amplitude squared' but not a doubling rule", () => {
    expect(read("The intensity of a sound is proportional to its amplitude squared.")).toEqual([
      ["the amplitude", "the intensity of a sound", 1, false],
    ]);
  });
});

describe("Understand: a stated proportion recognised in new words", () => {
  const LAW = chunk(4, "4.3 Newton's Second Law", [
    "### Newton's second law",
    "",
    "The acceleration of an object is inversely proportional to its mass.",
  ]);

  it("is not offered: the stem would state the relation the key restates (round 8 readers)", () => {
    const all = candidates([LAW], [LAW], "mcq", "Understand");
    expect(all.filter((c) => c.form === "restate-proportion")).toEqual([]);
    for (const c of all) expect(c.question.promptText).not.toMatch(/inversely proportional to its mass/);
  });
});

describe("definition MCQ siblings (round 8: same kind only)", () => {
  // Round 7 reader O rejected items like this one: the wrong options defined unrelated terms
  // (benzene, matter, atom), so the key about macromolecules stood out.
  const bio = (chunkIndex: number, section: string, lines: string[]): IContextChunk => ({
    documentId: DOC,
    chunkIndex,
    title: "Biology",
    sectionPath: `Chapter 2: The Chemical Foundation of Life > ${section}`,
    content: lines.join("\n"),
  });
  const CARBON = bio(0, "2.3 Carbon", [
    "### Carbon",
    "",
    "Macromolecules are a subset of organic molecules that are especially important for life.",
  ]);
  const UNRELATED = bio(1, "2.1 Atoms", [
    "### Atoms",
    "",
    "Matter is any substance that occupies space and has mass.",
    "An atom is the smallest unit of matter that retains all of the element's chemical properties.",
    "Benzene is a natural component of crude oil and has been classified as a carcinogen.",
  ]);

  it("does not fire when the chapter's other definitions are of unrelated terms", () => {
    const found = candidates([CARBON], [CARBON, UNRELATED], "mcq", "Remember").filter(
      (c) => c.form === "defines-mcq" && /macromolecule/i.test(c.question.promptText),
    );
    expect(found).toEqual([]);
  });

  it("fires with same-kind siblings: other molecules of the section", () => {
    const KIN = bio(2, "2.3 Carbon", [
      "### Hydrocarbons",
      "",
      "A hydrocarbon is an organic molecule consisting entirely of carbon and hydrogen.",
      "A carbohydrate is an organic molecule made of carbon, hydrogen, and oxygen in a ratio of one to two to one.",
      "A nucleic acid is an organic molecule that stores and transmits hereditary information.",
    ]);
    const found = candidates([CARBON], [CARBON, UNRELATED, KIN], "mcq", "Remember").filter(
      (c) => c.form === "defines-mcq" && /macromolecule/i.test(c.question.promptText),
    );
    expect(found.length).toBeGreaterThan(0);
    const q = found[0]!.question as Extract<TQuestion, { type: "mcq" }>;
    const wrong = q.options.filter((_, i) => i !== q.correctIndex);
    expect(wrong.join(" | ")).not.toMatch(/crude oil|occupies space|smallest unit of matter/);
    expect(q.distractorRationales.filter(Boolean).join(" ")).toMatch(
      /hydrocarbon|carbohydrate|nucleic acid/i,
    );
  });

  it("ranks Physics siblings by kind: the same genus before a term the definition names", () => {
    const found = candidates([SELECTED], CHAPTER, "mcq", "Remember").filter((c) => c.form === "defines-mcq");
    const velocity = found.find(
      (c) => /velocity\?$/.test(c.question.promptText) || /of velocity/.test(c.question.promptText),
    );
    if (!velocity) return expect(found.length).toBeGreaterThan(0);
    const q = velocity.question as Extract<TQuestion, { type: "mcq" }>;
    expect(q.options.join(" | ")).toMatch(/rate of change of velocity/);
    expect(q.options.join(" | ")).not.toMatch(/coordinate system|chosen origin/);
  });
});

describe("kinship (which defined terms may be wrong options for each other)", () => {
  const term = (t: string, definition: string, genus: string, head: string): ITerm => ({
    term: t,
    definition,
    genus,
    head,
    plural: false,
    sentence: `${t} is ${definition}.`,
    chunkKey: `${DOC}:0`,
    aliases: [],
  });
  // Physics (waves) and Biology (chapter 2) sentences as the corpus states them.
  const antinode = term(
    "antinode",
    "the location of maximum amplitude of a standing wave",
    "location",
    "antinode",
  );
  const node = term("node", "the point of zero amplitude of a standing wave", "point", "node");
  const standing = term("standing wave", "a wave produced by the superposition of two waves", "wave", "wave");
  const frame = term(
    "reference frame",
    "the coordinate system used to describe the positions of objects",
    "system",
    "frame",
  );
  const macro = term(
    "macromolecules",
    "a subset of organic molecules that are especially important for life",
    "subset",
    "macromolecule",
  );
  const water = term("water", "a polar molecule with partial charges on its atoms", "molecule", "water");
  const hydrocarbon = term(
    "hydrocarbon",
    "an organic molecule consisting entirely of carbon and hydrogen",
    "molecule",
    "hydrocarbon",
  );

  it("scores same-topic terms as kin and unrelated ones as 0", () => {
    expect(kinship(antinode, node)).toBeGreaterThan(0); // "amplitude", "standing wave"
    expect(kinship(antinode, standing)).toBeGreaterThan(0); // names "standing wave"
    expect(kinship(antinode, frame)).toBe(0);
    expect(kinship(macro, hydrocarbon)).toBeGreaterThan(0); // "organic molecule"
    expect(kinship(macro, water)).toBe(0); // one shared word ("molecule") is not kin
    expect(kinship(hydrocarbon, water)).toBe(3); // same genus
  });
});
