import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createGateContext, gateQuestion } from "@/lib/generation/gate";
import { conceptDistractors, mulberry32, unitPhrase } from "@/lib/generation/offline/forms/common";
import { unitMcq } from "@/lib/generation/offline/forms/mcq-units";
import { definitionMcq } from "@/lib/generation/offline/forms/recall";
import { lawMcq, lawParts, namedLaws, stateLaw } from "@/lib/generation/offline/forms/recall-laws";
import { powerUnit, usedUnits } from "@/lib/generation/offline/forms/recall-units";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import { wordNetKinds } from "@/lib/generation/offline/knowledge/lexicon";
import type { ISentence } from "@/lib/generation/offline/knowledge/sentences";
import type { EBloomLevel } from "@/types/bloom.types";
import type { IContextChunk, ISlot, TQuestion } from "@/types/generation.types";
import { testChunk, testSentence } from "../support/sentence";

const sentence = (text: string): ISentence => testSentence(text);

const chunk = (content: string, i: number, section: string, documentId = "doc") =>
  testChunk(content, i, section, documentId);

const slot = (type: "mcq" | "short" | "long", bloomLevel: EBloomLevel, marks = 1): ISlot =>
  ({ id: "s", index: 0, type, bloomLevel, marks, difficulty: "medium" }) as ISlot;

function build(
  form: { build: typeof unitMcq.build },
  chunks: IContextChunk[],
  s: ISlot,
  scope: IContextChunk[] = [],
): TQuestion[] {
  const kb = buildKnowledge(chunks, scope);
  return [...form.build({ kb, slot: s, random: mulberry32(3), keyAt: 1, used: new Set() })];
}

describe("units read from use (Remember: What is the SI unit of …?)", () => {
  it("reads a quantity's SI unit from a value the passage gives it, in OpenStax and Indian board styles", () => {
    const read = (t: string) => usedUnits([sentence(t)]).map((u) => [u.quantity, u.unit]);
    expect(read("A car moves with a speed of 25.0 m/s along a straight road.")).toEqual([["speed", "m/s"]]);
    expect(read("Air has a density of 1.29 kg/m^3 at atmospheric pressure and 0ºC.")).toEqual([
      ["density", "kg/m³"],
    ]);
    expect(read("The fundamental frequency is 128 Hz.")).toEqual([["frequency", "Hz"]]);
    // NCERT writes negative powers: "m s–1", "kg m s–1".
    expect(read("A body of mass 5 kg is moving with a velocity of 10 m s–1.")).toEqual([
      ["mass", "kg"],
      ["velocity", "m/s"],
    ]);
    expect(read("The momentum of the ball is 4.5 kg m s–1.")).toEqual([["momentum", "kg⋅m/s"]]);
    expect(powerUnit("m s–2 near the ground")).toBe("m/s^2");
  });

  it("never takes a unit that is not the SI one, or a number that has no unit", () => {
    const read = (t: string) => usedUnits([sentence(t)]);
    expect(read("The bus has a speed of 12 km/h.")).toEqual([]);
    expect(read("The distance traveled is 5 kilometers.")).toEqual([]);
    expect(read("Multiply by a power of 10 when the number is large.")).toEqual([]);
    expect(read("The index of refraction of water is 1.33 in visible light.")).toEqual([]);
  });

  const SOUND =
    "The speed of sound is 344 m/s. The fundamental frequency is 128 Hz. A standing wave forms when two identical waves travel in opposite directions along a string with fixed ends.";

  it("asks the unit with wrong options of other dimensions, citing the sentence that uses it", () => {
    const title = "14.1 Speed of Sound, Frequency, and Wavelength";
    const chunks = [chunk(`## ${title}\n\n${SOUND}`, 0, title)];
    const qs = build(unitMcq, chunks, slot("mcq", "Remember"));
    expect(qs.map((q) => q.promptText)).toEqual([
      "What is the SI unit of speed?",
      "What is the SI unit of frequency?",
    ]);
    const q = qs[0]!;
    if (q.type !== "mcq") throw new Error("mcq expected");
    expect(q.options[q.correctIndex]).toBe("m/s");
    expect(new Set(q.options).size).toBe(4);
    expect(q.contextRefs[0]?.quote).toBe("The speed of sound is 344 m/s.");
    expect(q.explanation).toContain("uses it");
    expect(gateQuestion(q, "Remember", createGateContext(chunks), { accepted: [] }).passed).toBe(true);
  });

  it("asks no unit of a quantity met in passing (no heading or definition names it)", () => {
    // Round 10 readers rejected "SI unit of speed" in a section on electromagnetic radiation and
    // "SI unit of mass" in one on gravitation: prior knowledge, not the lesson.
    const title = "14.4 Sound Interference and Resonance";
    const chunks = [chunk(`## ${title}\n\n${SOUND}`, 0, title)];
    expect(build(unitMcq, chunks, slot("mcq", "Remember"))).toEqual([]);
    const defined = [
      chunk(`## ${title}\n\nFrequency is the number of cycles per unit time. ${SOUND}`, 0, title),
    ];
    expect(build(unitMcq, defined, slot("mcq", "Remember")).map((q) => q.promptText)).toEqual([
      "What is the SI unit of frequency?",
    ]);
    // A worked example's heading names what the problem uses, not what the section teaches.
    const example = chunk(SOUND, 0, `${title} > Resonance > Solving for Speed and Frequency`);
    expect(build(unitMcq, [example], slot("mcq", "Remember"))).toEqual([]);
  });
});

// Newton's laws as OpenStax Physics (ch. 4) states them; thermodynamics (ch. 12); an NCERT-style
// Class 9 passage; Mendel (Biology 2e, ch. 12).
const NEWTON = `## 4.4 Newton's Third Law of Motion

Newton’s third law of motion states that whenever a first object exerts a force on a second object, the first object experiences a force equal in magnitude but opposite in direction to the force that it exerts. Rockets and airplanes are pushed forward by thrust.`;
const NEWTON_CHAPTER = `## 4.2 Newton's First Law of Motion: Inertia

Newton’s first law of motion states that a body at rest remains at rest, or, if in motion, remains in motion at a constant velocity unless acted on by a net external force.

## 4.3 Newton's Second Law of Motion

Newton’s second law of motion states that the acceleration of a system is directly proportional to and in the same direction as the net external force acting on the system, and inversely proportional to its mass.

## 12.1 The First Law of Thermodynamics

The first law of thermodynamics states that the change in internal energy of a closed system equals the net heat transfer into the system minus the net work done by the system.

## 8.3 Conservation of Momentum

The law of conservation of momentum states that the total momentum of an isolated system of objects remains the same before and after a collision.`;
const NCERT = `## 9.4 Third Law of Motion

The third law of motion states that when one object exerts a force on another object, the second object instantaneously exerts a force back on the first. This law states that to every action there is an equal and opposite reaction.`;

describe("named laws (Remember: State …; which is a statement of …)", () => {
  it("reads the law's name and statement, never a pointer (This law), a recall aside or a formula", () => {
    const kb = buildKnowledge([chunk(NCERT, 0, "9.4 Third Law of Motion")]);
    const { own } = namedLaws(kb);
    expect(own.map((l) => l.name)).toEqual(["the third law of motion"]);
    expect(own[0]!.body).toMatch(/^when one object exerts a force on another object/);
    const aside = buildKnowledge([
      chunk(
        "## 12.2 Heat\n\nRecall that the principle of conservation of energy states that energy cannot be created or destroyed, but it can be altered from one form to another.",
        0,
        "12.2 Heat",
      ),
    ]);
    expect(namedLaws(aside).own.map((l) => l.name)).toEqual(["the principle of conservation of energy"]);
    // An opening phrase before the name is not part of it (round 11: "a statement of Expressed in …").
    const opened = buildKnowledge([
      chunk(
        "## 13.2 Newton's Universal Law of Gravitation\n\nExpressed in modern language, Newton’s universal law of gravitation states that every particle in the universe attracts every other particle with a force along a line joining them.",
        0,
        "13.2 Gravitation",
      ),
    ]);
    expect(namedLaws(opened).own.map((l) => l.name)).toEqual(["Newton’s universal law of gravitation"]);
    expect(
      lawParts(
        "whenever a first object exerts a force on a second object, the first object experiences a force equal in magnitude but opposite in direction to the force that it exerts",
      ),
    ).toEqual([
      "whenever a first object exerts a force on a second object",
      "the first object experiences a force equal in magnitude",
      "opposite in direction to the force that it exerts",
    ]);
  });

  it("asks to state the law with a mark on each part, and the gate takes the statement as the answer", () => {
    const chunks = [chunk(NEWTON, 0, "4.4 Newton's Third Law of Motion")];
    const [q] = build(stateLaw, chunks, slot("short", "Remember", 3));
    if (q?.type !== "short") throw new Error("short expected");
    expect(q.promptText).toBe("State Newton’s third law of motion.");
    expect(q.markingScheme?.map((p) => p.marks)).toEqual([1, 1, 1]);
    expect(q.markingScheme?.[2]?.point).toContain("opposite in direction");
    expect(gateQuestion(q, "Remember", createGateContext(chunks), { accepted: [] }).passed).toBe(true);
    // A law of one idea carries no marks to share out: not asked.
    const one = [
      chunk(
        "## 45.6 Community Ecology\n\nThe competitive exclusion principle states that two species cannot occupy the same niche in a habitat.",
        0,
        "45.6 Community Ecology",
      ),
    ];
    expect(build(stateLaw, one, slot("short", "Remember", 3))).toEqual([]);
  });

  it("offers the chapter's other laws as the wrong options, never another form of the same law", () => {
    const chunks = [chunk(NEWTON, 0, "4.4 Newton's Third Law of Motion")];
    const scope = [chunk(NEWTON_CHAPTER, 1, "4.2 Newton's First Law of Motion: Inertia"), ...chunks];
    const qs = build(lawMcq, chunks, slot("mcq", "Remember"), scope);
    const q = qs[0];
    if (q?.type !== "mcq") throw new Error("mcq expected");
    expect(q.promptText).toBe("Which of the following is a statement of Newton’s third law of motion?");
    expect(q.options[q.correctIndex]).toMatch(/^Whenever a first object exerts a force/);
    const wrong = q.options.filter((_, i) => i !== q.correctIndex);
    expect(wrong.some((o) => o.startsWith("A body at rest remains at rest"))).toBe(true);
    expect(wrong.every((o) => !/equal in magnitude but opposite/.test(o))).toBe(true);
    expect(q.distractorRationales.every((r) => /^This is /.test(r) || /^Reverses /.test(r))).toBe(true);
    expect(gateQuestion(q, "Remember", createGateContext(chunks), { accepted: [] }).passed).toBe(true);
    // A law the set already asks (its sentence is used) is not offered as a wrong option.
    const kb = buildKnowledge(chunks, scope);
    const first = NEWTON_CHAPTER.split("\n").find((l) => l.startsWith("Newton’s first law"));
    const again = [
      ...lawMcq.build({
        kb,
        slot: slot("mcq", "Remember"),
        random: mulberry32(3),
        keyAt: 1,
        used: new Set([first ?? ""]),
      }),
    ][0];
    if (again?.type !== "mcq") throw new Error("mcq expected");
    expect(again.options.some((o) => o.startsWith("A body at rest remains at rest"))).toBe(false);
    // Without other laws in the chapter there are no wrong options of the same kind.
    expect(build(lawMcq, chunks, slot("mcq", "Remember"))).toEqual([]);
  });
});

describe("definition MCQ options confirmed by WordNet", () => {
  it("knows organelles and sugars, but only as a check on the genus the text gives", () => {
    expect(wordNetKinds("ribosomes").has("organelle")).toBe(true);
    expect(wordNetKinds("lactose").has("disaccharide")).toBe(true);
    expect(wordNetKinds("velocity").has("organelle")).toBe(false);
  });

  it("offers other organelles the chapter names for a term defined as an organelle", () => {
    const chunks = [
      chunk(
        `## 4.3 Eukaryotic Cells

A lysosome is a digestive organelle of animal cells. A ribosome makes proteins. A centriole organizes the spindle. The nucleolus makes ribosomal RNA. A ribosome sits on the rough ER. A centriole lies near the nucleus. The nucleolus sits inside the nucleus. A ribosome reads messenger RNA. A centriole comes in a pair. The nucleolus grows in active cells.`,
        0,
        "4.3 Eukaryotic Cells",
      ),
    ];
    const qs = build(definitionMcq, chunks, slot("mcq", "Remember"));
    const q = qs[0];
    if (q?.type !== "mcq") throw new Error("mcq expected");
    expect(q.options[q.correctIndex]).toBe("lysosome");
    for (const o of q.options) expect(wordNetKinds(o).has("organelle")).toBe(true);
  });
});

describe("definitions with examples", () => {
  it("keeps what precedes a closing list of examples, and drops claims that are not definitions", () => {
    const terms = (text: string) =>
      buildKnowledge([chunk(`## 4.4 Forces\n\n${text}`, 0, "4.4 Forces")]).terms.map((t) => [
        t.term,
        t.definition,
      ]);
    expect(
      terms(
        "The pulling force that acts along a stretched flexible connector, such as a rope or cable, is called tension.",
      ),
    ).toEqual([["tension", "the pulling force that acts along a stretched flexible connector"]]);
    // The examples sit inside a clause that goes on: cutting them would cut the definition.
    expect(
      terms(
        "Estuaries are biomes that occur where a source of fresh water, such as a river, meets the ocean.",
      ),
    ).toEqual([]);
    expect(
      terms(
        "DNA replication is a highly accurate process, but mistakes can occasionally occur in the copies.",
      ),
    ).toEqual([]);
  });
});

describe("definition MCQ: no second defensible option", () => {
  it("never offers a name that is itself a kind of the definition's genus", () => {
    const chunks = [
      chunk(
        `## 2.1 Atoms, Isotopes, Ions, and Molecules

Cations are positive ions that form by losing electrons. Anions are negative ions that form by gaining electrons. Water splits into hydrogen ions and hydroxide ions. Sodium ions and chloride ions form table salt. Hydrogen ions make a solution acidic. Hydroxide ions make a solution basic. Sodium ions carry nerve signals. Chloride ions balance the charge.`,
        0,
        "2.1 Atoms, Isotopes, Ions, and Molecules",
      ),
    ];
    const kb = buildKnowledge(chunks);
    const cations = kb.terms.find((t) => t.term === "cations");
    if (!cations) throw new Error("cations expected as a defined term");
    const env = { kb, slot: slot("mcq", "Remember"), random: () => 0.5, keyAt: 0, used: new Set<string>() };
    // "hydrogen ions" and "sodium ions" are positive ions too: the only safe option is anions.
    expect(
      conceptDistractors(env, { ...cations, name: cations.term }, "Positive ions …", 1).map((o) => o.name),
    ).toEqual(["anions"]);
    // Three same-kind options cannot be found without one of them: no question.
    expect(conceptDistractors(env, { ...cations, name: cations.term }, "Positive ions …", 3)).toEqual([]);
    expect(
      buildKnowledge([
        chunk(
          "## 38.2 Bone\n\nExamples of flat bones are the sternum (breast bone), ribs, scapulae (shoulder blades), and the roof of the skull.",
          0,
          "38.2 Bone",
        ),
      ]).terms,
    ).toEqual([]);
  });
});

describe("no unit as a concept option", () => {
  it("reads 'km minute' (from '0.5 km/minute') and 'kg m' as units, not concepts (round 11 readers)", () => {
    expect(unitPhrase("km minute")).toBe(true);
    expect(unitPhrase("kg m")).toBe(true);
    expect(unitPhrase("newtons")).toBe(true);
    expect(unitPhrase("average speed")).toBe(false);
    expect(unitPhrase("time interval")).toBe(false);
    expect(unitPhrase("mass")).toBe(false);
  });
});

describe("a shared list is not a shared kind when WordNet says otherwise", () => {
  it("offers organelles, not lipids or nucleic acids, beside lysosomes (the demo chapter; rounds 10–11)", () => {
    const text = readFileSync(
      path.join(import.meta.dirname, "../../supabase/seed/demo/biology-2e/ch04-cell-structure.md"),
      "utf8",
    );
    const kb = buildKnowledge(
      text.split(/\n(?=#)/).map((content, i) => chunk(content, i, "4.3 Eukaryotic Cells", "demo")),
    );
    const lysosomes = kb.scopeTerms.find((t) => t.term === "lysosomes");
    if (!lysosomes) throw new Error("lysosomes expected as a defined term");
    const env = { kb, slot: slot("mcq", "Remember"), random: () => 0.5, keyAt: 0, used: new Set<string>() };
    const names = conceptDistractors(
      env,
      { ...lysosomes, name: lysosomes.term },
      "the digestive organelles of animal cells",
      6,
      { atLeast: 0 },
    ).map((o) => o.name);
    expect(names).not.toContain("lipids");
    expect(names).not.toContain("nucleic acids");
    expect(names.length).toBeGreaterThan(0);
    // Other organelles the chapter names (chloroplasts, ribosomes, centrioles, mitochondria, cilia).
    expect(names).toEqual(expect.arrayContaining(["ribosomes", "mitochondria"]));
  });
});
