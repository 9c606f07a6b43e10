import { describe, expect, it } from "vitest";
import { runGeneration } from "@/lib/generation/generate";
import { judgeClaim } from "@/lib/generation/offline/forms/reasoning";
import { judgeRelation, relationClaims } from "@/lib/generation/offline/forms/written-claim";
import type { ISentence } from "@/lib/generation/offline/knowledge";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import {
  extractDependences,
  extractMechanisms,
  extractMonotonic,
} from "@/lib/generation/offline/knowledge/relations";
import { GenerationRequestSchema } from "@/schema/generation.schema";
import type { EBloomLevel } from "@/types/bloom.types";
import type { IContextChunk } from "@/types/generation.types";
import { formSlot } from "../support/form-slots";

// Sentences from the evaluation corpora (OpenStax Physics and Biology 2e, CC BY 4.0).
const DOC = "7a1c2e4a-1b2c-4d3e-8f40-123456789abd";
const sentence = (text: string): ISentence => ({
  text,
  chunkKey: `${DOC}:0`,
  heading: "",
  section: "Magnetism",
  position: 0,
  sideBox: false,
  standalone: true,
});
const slot = (type: "mcq" | "short" | "long", bloomLevel: EBloomLevel) => formSlot(DOC, type, bloomLevel);

describe("stated mechanisms, purposes and consequences", () => {
  it("reads a means (by …ing), a purpose (so that), a named cause (causes, due to) and a prevention", () => {
    const got = extractMechanisms(
      [
        "Electromagnets are magnets made by passing a current through a system of wires.",
        "The current is reversed every half rotation so that the torque on the loop is always in the same direction.",
        "Friction causes the loss of some useful energy.",
        "All sound resonances are due to constructive and destructive interference.",
        "The normal force prevents the object from penetrating the surface.",
        "Hormones mediate changes in target cells by binding to specific hormone receptors.",
        "Torque is maximized by applying force perpendicular to the lever arm and at a point as far as possible from the pivot point or fulcrum.",
      ].map(sentence),
    );
    expect(got.map((m) => [m.link, m.cause, m.effect])).toEqual([
      ["by", "passing a current through a system of wires", "Electromagnets are magnets made"],
      [
        "so that",
        "the torque on the loop is always in the same direction",
        "The current is reversed every half rotation",
      ],
      ["causes", "Friction", "the loss of some useful energy"],
      ["due to", "constructive and destructive interference", "All sound resonances"],
      ["prevents", "The normal force", "the object from penetrating the surface"],
      ["by", "binding to specific hormone receptors", "Hormones mediate changes in target cells"],
      [
        "by",
        "applying force perpendicular to the lever arm and at a point as far as possible from the pivot point or fulcrum",
        "Torque is maximized",
      ],
    ]);
  });

  it("leaves out definitions, lab steps, pronouns, worked-example numbers and relations of amount", () => {
    const got = extractMechanisms(
      [
        // A definition with "due to" is not an effect to explain.
        "Heat is the transfer of energy due to a temperature difference.",
        // An instruction (imperative), a pronoun, a number.
        "Move your hand up the string so that its length is 50 cm.",
        "The normal force is the outward force that a surface applies to an object, and it prevents the object from penetrating it.",
        // "by" of an agent or an amount, not a means.
        "The speed is increased by a factor of two.",
        // A monotonic relation ("more … leads to less …"), read by the relation extractor instead.
        "The amount of work a heat engine can do is determined by the net heat transfer of energy during a cycle; more waste heat leads to less work output.",
        // Development, not causation.
        "The mesoderm gives rise to the muscle cells and connective tissue in the body.",
        // A description ("characterized by"), and a hedged effect that leans on a group named before.
        "The climate of a biome is characterized by having consistent seasonal temperature and rainfall ranges.",
        "The fungi usually reproduce asexually by producing sporangiospores.",
      ].map(sentence),
    );
    expect(got).toEqual([]);
  });
});

describe("relations a fair test can check, widened", () => {
  it("reads 'y increases with x', 'a larger x means a greater y' and a clause after a semicolon", () => {
    const got = extractMonotonic(
      [
        "The amplitude of a sound wave decreases with distance from its source, because the energy of the wave is spread over a larger and larger area.",
        "The index of refraction of the lens increases with decreasing wavelength, so violet rays are refracted more than red rays.",
        "A larger angular velocity for the tire means a greater linear velocity for the car.",
        "The amount of work a heat engine can do is determined by the net heat transfer of energy during a cycle; more waste heat leads to less work output.",
      ].map(sentence),
    );
    expect(got.map((r) => [r.x, r.y, r.sign])).toEqual([
      ["the distance", "the amplitude of a sound wave", -1],
      ["the wavelength", "the index of refraction of the lens", -1],
      ["the angular velocity for the tire", "the linear velocity for the car", 1],
      ["the waste heat", "the work output", -1],
    ]);
  });

  it("reads 'varies with' and 'is determined by' as dependences, not a method ('determined by comparing')", () => {
    const got = extractDependences(
      [
        "The wavelength of light varies with the refractive index of the medium.",
        "Capacitance is determined by the geometry of the capacitor and the materials that it is made from.",
        "The mass of an object is determined by comparing it with the standard kilogram.",
      ].map(sentence),
    );
    expect(got.map((d) => [d.y, d.xs])).toEqual([
      ["the wavelength of light", ["the refractive index of the medium"]],
      ["the capacitance", ["the geometry of the capacitor"]],
    ]);
  });
});

const _PASSAGE: IContextChunk = {
  documentId: DOC,
  chunkIndex: 0,
  title: "Physics",
  sectionPath: "Chapter 20: Magnetism > 20.3 Electric Motors",
  content: [
    "### Electric Motors",
    "",
    "An electric motor converts electrical energy into mechanical work.",
    "The current is reversed every half rotation so that the torque on the loop is always in the same direction.",
    "The torque on the loop is produced by the magnetic force on the current in the loop.",
  ].join("\n"),
};

describe("stand-ins come after every slot tried its own level (offline set)", () => {
  // One stated equation: the Evaluate claim (equation-claim) stands on it, and a Remember slot that
  // may stand in must not take it first.
  const SOUND: IContextChunk = {
    documentId: DOC,
    chunkIndex: 0,
    title: "Physics",
    sectionPath: "Chapter 19: Electric Current > 19.4 Electric Power",
    content:
      "### Electric Power\n\nThe electric power is given by P = IV, where P is the power in watts, I is the current in amperes and V is the voltage in volts.",
  };
  const request = (strictLevels: boolean) =>
    GenerationRequestSchema.parse({
      filters: { board: "OpenStax", grade: "11", subject: "Physics" },
      context: [{ documentId: DOC, chunkIndex: 0 }],
      blueprint: {
        items: [
          { type: "mcq", count: 1 },
          { type: "short", count: 1, marks: 3 },
        ],
        bloomTargets: ["Remember", "Evaluate"],
        strictLevels,
      },
      seed: 1,
    });
  const events = { question: () => undefined, progress: () => undefined, error: () => undefined };

  it("fills the Evaluate slot at its own level before the Remember slot may borrow the relation", async () => {
    const strict = await runGeneration(
      { model: null, timeoutMs: 0 },
      [SOUND],
      request(true),
      events,
      (i) => `s${i}`,
    );
    const evaluate = strict.questions.find((q) => q.bloomLevel === "Evaluate");
    expect(evaluate?.type).toBe("short");
    const open = await runGeneration(
      { model: null, timeoutMs: 0 },
      [SOUND],
      request(false),
      events,
      (i) => `s${i}`,
    );
    // Standing in is allowed, yet the Evaluate claim is still there at its own level.
    expect(open.questions.find((q) => q.type === "short")?.bloomLevel).toBe("Evaluate");
    expect(open.questions.find((q) => q.type === "short")?.validation.substitutedFor).toBeUndefined();
  });
});

describe("judge-relation (Evaluate, written)", () => {
  const kbOf = (...lines: string[]) =>
    buildKnowledge([
      {
        documentId: DOC,
        chunkIndex: 0,
        title: "Physics",
        sectionPath: "Chapter 19: Electric Current > 19.4 Electric Power",
        content: ["### Power", "", ...lines].join("\n"),
      },
    ]);

  it("denies a stated dependence, swaps a named cause, and makes a direct proportion inverse", () => {
    const kb = kbOf(
      "Capacitance is determined by the geometry of the capacitor and the materials that it is made from.",
      "Friction causes the loss of some useful energy.",
      "Electric power is proportional to the voltage and the current in a circuit.",
    );
    const claims = relationClaims(kb).map((c) => c.claim);
    expect(claims).toContain("Changing the geometry of the capacitor has no effect on the capacitance.");
    expect(claims).toContain("The cause of friction is the loss of some useful energy.");
    expect(claims).toContain("If the voltage is doubled, the electric power is halved.");
  });

  it("marks the justification from the stated relation, not the verdict alone", () => {
    const kb = kbOf("Electric power is proportional to the voltage and the current in a circuit.");
    const env = { kb, slot: slot("short", "Evaluate"), random: () => 0.5, keyAt: 0, used: new Set<string>() };
    const [q] = [...judgeRelation.build(env)];
    expect(q?.type).toBe("short");
    if (q?.type !== "short") return;
    expect(q.promptText).toContain("Is the student right? Justify");
    expect(q.markingScheme?.map((p) => p.point)).toEqual([
      "Judges the claim wrong and names the error: the student has treated a direct proportion as an inverse one",
      "Justifies with the stated relation: The electric power is directly proportional to the voltage",
      "Gives the corrected statement: if the voltage is doubled (everything else the same), the electric power doubles",
    ]);
    expect(judgeRelation.fits("mcq", "Evaluate")).toBe(false);
  });

  it("offers nothing from a plain definition", () => {
    expect(
      relationClaims(kbOf("Electric power is the rate at which electrical energy is transferred.")),
    ).toEqual([]);
  });
});

describe("judge-claim keeps to clauses", () => {
  it("offers no claim from a noun phrase with a relative clause ('a faulty protein that …')", () => {
    const kb = buildKnowledge([
      {
        documentId: DOC,
        chunkIndex: 0,
        title: "Biology",
        sectionPath: "Chapter 6: Metabolism > 6.1 Cancer",
        content:
          "### Cancer\n\nAll cancers start when a gene mutation gives rise to a faulty protein that plays a key role in cell reproduction.",
      },
    ]);
    const env = { kb, slot: slot("short", "Evaluate"), random: () => 0.5, keyAt: 0, used: new Set<string>() };
    const claims = [...judgeClaim.build(env)].map((q) => q.promptText);
    expect(claims.some((p) => p.includes("A faulty protein that does not"))).toBe(false);
  });
});
