import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/generation/offline/forms/common";
import { definitionMcq, narrower, quantityOptions } from "@/lib/generation/offline/forms/recall";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import type { IContextChunk, TQuestion } from "@/types/generation.types";
import { rememberMcqSlot } from "../support/form-slots";
import { testChunk } from "../support/sentence";

const slot = rememberMcqSlot;
const envOf = (chunks: IContextChunk[], seed = 3) => ({
  kb: buildKnowledge(chunks),
  slot,
  random: mulberry32(seed),
  keyAt: 1,
  used: new Set<string>(),
});
const definitionItems = (chunks: IContextChunk[], seed = 3): TQuestion[] => [
  ...definitionMcq.build(envOf(chunks, seed)),
];
const options = (q: TQuestion) => (q.type === "mcq" ? q.options : []);
const keyOf = (q: TQuestion) => (q.type === "mcq" ? q.options[q.correctIndex] : undefined);

// OpenStax Physics 3.1 "Acceleration" wording.
const ACCELERATION = [
  "### Acceleration",
  "",
  "## Time",
  "",
  "Acceleration is the rate of change of velocity. Average acceleration is the change in velocity divided by the time over which it changes. The SI unit for acceleration is meters per second squared. A net force on a body changes its momentum and its kinetic energy. The displacement of a car and its speed are read from the same graph.",
].join("\n");

describe("a school quantity defined in the passage is asked with other quantities as options", () => {
  it("asks for acceleration from 'the rate of change of velocity' (a definition the tagger reads as a verb)", () => {
    const qs = definitionItems([testChunk(ACCELERATION, 0, "3.1 Acceleration", "phys")]);
    const q = qs.find((x) => keyOf(x) === "acceleration");
    if (!q) throw new Error("an acceleration item expected");
    const wrong = options(q).filter((o) => o !== "acceleration");
    expect(wrong).toHaveLength(3);
    // Other quantities the chapter names, never the stem's own (velocity), never the key's dimensions.
    for (const o of wrong)
      expect(["force", "momentum", "displacement", "speed", "time", "energy"]).toContain(o);
    expect(wrong).not.toContain("velocity");
    // Lower case like the key, whatever heading named them.
    for (const o of wrong) expect(o).toBe(o.toLowerCase());
    // Speed and velocity share m/s, displacement and distance share m: at most one of each.
    expect(new Set(wrong.map((o) => (o === "speed" ? "m/s" : o))).size).toBe(3);
  });

  it("never offers a near name of the key (speed beside velocity, work beside energy)", () => {
    const text = [
      "### Speed and Velocity",
      "",
      "Velocity is the rate of change of displacement. Speed is how fast an object moves, and the time of travel is measured with a clock. The force on the object and its momentum are discussed later in the chapter. A car's acceleration is read from its graph.",
    ].join("\n");
    const env = envOf([testChunk(text, 0, "2.3 Speed and Velocity", "phys")]);
    const t = env.kb.terms.find((x) => x.term === "velocity");
    if (!t) throw new Error("velocity expected as a defined term");
    const names = quantityOptions(env, t, "Which term describes the rate of change of displacement?", []).map(
      (o) => o.text,
    );
    expect(names).toHaveLength(3);
    expect(names).not.toContain("speed");
    expect(names).not.toContain("displacement");
  });

  it('reads an NCERT-style definition ("Power is the rate at which work is done") and leaves out the stem quantity', () => {
    const text = [
      "### Power",
      "",
      "Power is the rate at which work is done by a body. A force does work on a body when the body moves, and the energy spent is measured in joules. The time taken and the velocity of the body also change the power.",
    ].join("\n");
    const env = envOf([testChunk(text, 0, "11.4 Power", "ncert-phys")]);
    const t = env.kb.terms.find((x) => x.term === "power");
    if (!t) throw new Error("power expected as a defined term");
    const names = quantityOptions(
      env,
      t,
      "The rate at which work is done by a body is called ________.",
      [],
    ).map((o) => o.text);
    expect(names.length).toBeGreaterThan(0);
    expect(names).not.toContain("work");
    expect(names).not.toContain("power");
    // Energy (J) and work (J) are one dimension: at most one of them.
    expect(names.filter((n) => n === "energy" || n === "work").length).toBeLessThanOrEqual(1);
  });

  it("gives Biology's terms no quantity options (a lysosome is no quantity)", () => {
    const text = [
      "### Lysosomes",
      "",
      "Lysosomes are the digestive organelles of animal cells. Their enzymes break down proteins, and the energy of the cell comes from mitochondria over time.",
    ].join("\n");
    const env = envOf([testChunk(text, 0, "4.3 Eukaryotic Cells", "bio")]);
    const t = env.kb.terms.find((x) => x.term === "lysosomes");
    if (!t) throw new Error("lysosomes expected as a defined term");
    expect(
      quantityOptions(env, t, "The digestive organelles of animal cells are called ________.", []),
    ).toEqual([]);
  });
});

describe("no narrower kind of the key among its options", () => {
  it("reads 'phospholipids' as a kind of lipids and 'glycoproteins' of proteins, not 'nucleic acids' of amino acids", () => {
    expect(narrower("phospholipids", "lipids")).toBe(true);
    expect(narrower("glycoproteins", "proteins")).toBe(true);
    expect(narrower("proteins", "lipids")).toBe(false);
    expect(narrower("nucleic acids", "amino acids")).toBe(false);
    expect(narrower("cell", "cell")).toBe(false);
  });

  it("leaves phospholipids out of the options for 'a class of macromolecules that are nonpolar and hydrophobic'", () => {
    // OpenStax Biology 3.3 "Lipids" wording.
    const text = [
      "### Lipids",
      "",
      "Lipids are a class of macromolecules that are nonpolar and hydrophobic in nature. Major types include fats and oils, waxes, phospholipids, and steroids. Proteins are a class of macromolecules that perform a diverse range of functions for the cell. Nucleic acids are the macromolecules that store the genetic information of a cell. Carbohydrates are macromolecules with which most consumers are somewhat familiar.",
    ].join("\n");
    for (const seed of [1, 2, 3, 4]) {
      for (const q of definitionItems([testChunk(text, 0, "3.3 Lipids", "bio")], seed)) {
        if (keyOf(q) === "lipids") expect(options(q)).not.toContain("phospholipids");
      }
    }
  });
});

describe("quantity options the lesson makes plausible (round 13 reading)", () => {
  it("offers no base quantity (time, length) for a derived key, and only quantities the selected passages name", () => {
    const text = [
      "### Speed and Velocity",
      "",
      "Velocity is the rate of change of displacement. The time of travel is read from a clock, and the distance along the path is measured. A net force gives the object an acceleration, and its momentum changes. The kinetic energy of the car rises as it speeds up.",
    ].join("\n");
    // "power" is named only in the chapter's other passage: not an option for this lesson.
    const elsewhere = testChunk(
      "### Power\n\nThe engine's power is discussed later.",
      1,
      "2.9 Power",
      "phys",
    );
    const selected = testChunk(text, 0, "2.3 Speed and Velocity", "phys");
    const env = { ...envOf([selected]), kb: buildKnowledge([selected], [selected, elsewhere]) };
    const t = env.kb.terms.find((x) => x.term === "velocity");
    if (!t) throw new Error("velocity expected as a defined term");
    const names = quantityOptions(env, t, "Which term describes the rate of change of displacement?", []).map(
      (o) => o.text,
    );
    expect(names.length).toBeGreaterThan(0);
    for (const base of ["time", "distance", "length", "mass", "power"]) expect(names).not.toContain(base);
    for (const n of names)
      expect(["force", "acceleration", "momentum", "energy", "kinetic energy"]).toContain(n);
  });
});
