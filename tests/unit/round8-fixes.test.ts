import { describe, expect, it } from "vitest";
import { doublingText, plausible } from "@/lib/generation/offline/forms/equations";
import { clozeable } from "@/lib/generation/offline/forms/recall";
import { reverse, SWEEPING, selfContained } from "@/lib/generation/offline/forms/statements";
import { createOfflineGenerator } from "@/lib/generation/offline/generator";
import type { ISentence } from "@/lib/generation/offline/knowledge";
import type { EBloomLevel } from "@/types/bloom.types";
import type { EQuestionType, IContextChunk, ISlot } from "@/types/generation.types";
import { testSentence } from "../support/sentence";

/** Round 8 rejects and edits (eval/generation/round8.readers.jsonl), fixed in the forms. */

const chunkOf = (content: string, sectionPath: string, chunkIndex = 0): IContextChunk =>
  ({ documentId: "d1", chunkIndex, title: "Physics", content, sectionPath }) as IContextChunk;

const slot = (type: EQuestionType, bloomLevel: EBloomLevel): ISlot =>
  ({
    id: "s",
    index: 0,
    type,
    bloomLevel,
    marks: type === "mcq" ? 1 : type === "short" ? 3 : 5,
    difficulty: "medium",
  }) as ISlot;

const candidates = (chunks: IContextChunk[], type: EQuestionType, level: EBloomLevel, seed = 3) => [
  ...createOfflineGenerator(chunks, seed).candidates(slot(type, level), { used: new Set(), keyAt: 1 }),
];

/** The rows of a "| Name (unit) | v | v | …" table in a stem. */
function tableOf(stem: string): { head: string; values: number[] }[] {
  return stem
    .split("\n")
    .filter((l) => l.startsWith("|"))
    .map((l) => {
      const cells = l
        .split("|")
        .map((c) => c.trim())
        .filter(Boolean);
      return { head: cells[0]!, values: cells.slice(1).map(Number) };
    });
}

const WEIGHT = chunkOf(
  `## Weight

When the net external force on an object is its weight, we say that it is in free fall. The weight of an object is given by

W = mg,

where W is the weight, m is the mass of the object and g is the acceleration due to gravity.`,
  "Chapter 4 > 4.4 Weight",
);

const LIGHT = chunkOf(
  `## Electromagnetic Waves

All electromagnetic waves travel at the speed of light. The relationship between frequency and wavelength is

c = fλ,

where c is the speed of light, f is the frequency and λ is the wavelength.`,
  "Chapter 29 > 29.1 Blackbody Radiation",
);

describe("data tables (equation-data): grammar and physical sense", () => {
  it("words each option as a full sentence", () => {
    expect(doublingText("mass", "weight", 1)).toBe(
      "Doubling the mass doubles the weight: the weight is directly proportional to the mass.",
    );
    expect(doublingText("wavelength", "frequency", -1)).toBe(
      "Doubling the wavelength halves the frequency: the frequency is inversely proportional to the wavelength.",
    );
    expect(doublingText("mass", "force", 2)).toMatch(/^Doubling the mass makes the force 4 times as large: /);
    expect(doublingText("mass", "force", -2)).toMatch(
      /^Doubling the mass reduces the force to 1\/4 of its value: /,
    );
  });

  it("keeps values in school ranges (a coefficient of friction of 2.8 and 316 V are out)", () => {
    expect(plausible(0.7, "")).toBe(true);
    expect(plausible(2.8, "")).toBe(false);
    expect(plausible(76, "N")).toBe(true);
    expect(plausible(4.7e7, "Hz")).toBe(false);
  });

  it("a weight table implies g = 9.8 m/s², not 50 (round 8, section:12)", () => {
    let seen = 0;
    for (const seed of [1, 2, 3, 4, 5]) {
      for (const c of candidates([WEIGHT], "mcq", "Analyze", seed).filter(
        (c) => c.form === "equation-data",
      )) {
        const rows = tableOf(c.question.promptText);
        const mass = rows.find((r) => /^Mass/.test(r.head));
        const weight = rows.find((r) => /^Weight/.test(r.head));
        if (!mass || !weight) continue;
        seen++;
        mass.values.forEach((m, i) => {
          expect(weight.values[i]! / m).toBeCloseTo(9.8, 1);
          // The quantity changed: exact multiples of its first reading (the pattern is in the numbers).
          expect(rows[0]!.values[i]).toBeCloseTo(rows[0]!.values[0]! * (i + 1), 6);
        });
        if (c.question.type === "mcq") {
          expect(c.question.options[c.question.correctIndex]).toMatch(
            /^Doubling the (mass|weight) doubles the (mass|weight): the \2 is directly proportional to the \1\.$/,
          );
        }
      }
    }
    expect(seen).toBeGreaterThan(0);
  });

  it("makes no table for light with metre wavelengths and hertz frequencies (fλ = 44.8 m/s)", () => {
    const tables = candidates([LIGHT], "mcq", "Analyze")
      .filter((c) => c.form === "equation-data")
      .map((c) => tableOf(c.question.promptText));
    const implied = tables.flatMap((rows) => {
      const f = rows.find((r) => /^Frequency/.test(r.head));
      const l = rows.find((r) => /^Wavelength/.test(r.head));
      return f && l ? f.values.map((v, i) => v * l.values[i]!) : [];
    });
    // Every table that is made implies c; with school units none can be.
    expect(implied.filter((v) => Math.abs(v / 3e8 - 1) > 0.02)).toEqual([]);
  });

  it("still makes a table for a wave whose speed is a quantity of its own (v_w = fλ)", () => {
    const WAVE = chunkOf(
      `## Wave Speed

The speed of a wave depends on its frequency and wavelength:

v_w = fλ,

where v_w is the wave speed, f is the frequency and λ is the wavelength.`,
      "Chapter 16 > 16.9 Waves",
    );
    const data = candidates([WAVE], "mcq", "Analyze").filter((c) => c.form === "equation-data");
    expect(data.length).toBeGreaterThan(0);
    for (const c of data) {
      const rows = tableOf(c.question.promptText);
      expect(rows.every((r) => r.values.every((v) => v > 0))).toBe(true);
    }
  });
});

const sentenceOf = (text: string): ISentence => testSentence(text);

describe("statements (statement-mcq, spot-the-error): swaps a teacher would set", () => {
  it("makes no swap that reads as nonsense or gives itself away", () => {
    for (const text of [
      // "open or close" → "closed or close" (biology:16)
      "The addition or removal of chemical modifications (or flags) to histone proteins or DNA signals the cell to open or close a chromosomal region.",
      // "the dominant phylum" (most common) → "recessive phylum" (biology:28)
      "Conifers are the dominant phylum of gymnosperms, with the greatest variety of species.",
      // "released as pollen" → "absorbed as pollen" (biology:34)
      "The microspores develop into male gametophytes that are released as pollen.",
      // "crushed into smaller pieces" → "larger pieces" (biology:38)
      "Birds have evolved a digestive system that includes a gizzard where the food is crushed into smaller pieces.",
      // "sporophyte (2n)" → "gametophyte (2n)": the parenthesis gives it away (biology:30)
      "The sporophyte (2n) phase is the longest phase in the life of a gymnosperm.",
      // before/after in an anecdote (section:8, section:34, section:44)
      "When the air is turned off, the puck slides only a short distance before friction slows it to a stop.",
    ])
      expect(reverse(sentenceOf(text))?.text ?? null, text).toBeNull();
  });

  it("reverses the comparison, not the thing compared with (biology:62)", () => {
    expect(reverse(sentenceOf("Cold water has more dissolved oxygen than warmer water."))?.text).toBe(
      "Cold water has less dissolved oxygen than warmer water.",
    );
  });

  it("still reverses a stated quality or direction", () => {
    expect(
      reverse(sentenceOf("A normal force is always perpendicular to the contact surface between systems."))
        ?.text,
    ).toBe("A normal force is always parallel to the contact surface between systems.");
    expect(
      reverse(
        sentenceOf(
          "Rubbing two surfaces together increases the transfer of electrons, because it creates a closer contact between the materials.",
        ),
      )?.text,
    ).toMatch(/increases the transfer of protons/);
  });

  it("offers no statement that leans on its passage (round 8 fragments)", () => {
    for (const text of [
      "Energy exchanges between them and their surroundings, as they consume energy-storing molecules and release energy to the environment by doing work.",
      "By comparison, in fertilized eggs (and early embryos) of fruit flies, the cell cycle is completed in about eight minutes.",
      "Some of the salient features are that the two strands that make up the double helix have complementary base sequences and anti-parallel orientations.",
      "A less precise definition is that it acts on the system of interest.",
      "The effect is caused by the wave nature of light.",
      "The child has accumulated excess positive charge by sliding on the slide.",
      "Among other things, the ground determines the potential of the negative terminal of the battery.",
      "The pump takes water at low pressure and does work on it, ejecting water at a higher pressure.",
      "Water is very effective at this, since neutrons collide with protons in water molecules and lose energy.",
      "Protons and electrons are thus the fundamental particles that carry electric charge.",
      "The force is directly proportional to the product of their masses and inversely proportional to the square of the distance between them.",
      "Within months after the announcement of the discovery of fission, Adolf Hitler banned the export of uranium from newly occupied Czechoslovakia.",
      "Before launch, the skin of the missile had to be at the same voltage as the rail from which it was launched.",
      "The spheres are electrically neutral, so they carry the same amounts of positive and negative charge.",
      "The energy in parentheses is released by the reaction.",
      // section:33 (after the first fixes): "another", a diagram, a story told in the past tense
      "Friction f acting on the wheels is another internal force acting on the system.",
      "The thick black lines in the electric circuit diagram represent the pathway that the electric charge must follow.",
      "The enormous energy known to be in nuclei, but considered inaccessible, now seemed to be available on a large scale.",
    ])
      expect(selfContained(text), text).toBe(false);
  });

  it("keeps statements that stand alone", () => {
    for (const text of [
      "Friction is a contact force between systems that opposes the motion or attempted motion between them.",
      "Like charges repel each other, and unlike charges attract each other.",
      "A normal force is always perpendicular to the contact surface between systems.",
      "The laws of thermodynamics govern the transfer of energy in and among all systems in the universe.",
      "Because the glass and silk have opposite charges, they attract one another like clothes that have rubbed together in a dryer.",
      // Biology statements both readers used (round 8): a passive, "such as", a defined structure.
      "The green algae are subdivided into the chlorophytes and the charophytes.",
      "Secondary metabolites of fungi are used as medicines, such as antibiotics and anticoagulants.",
      "The hypothalamus is an endocrine organ located in the diencephalon of the brain.",
      // Links inside the sentence are not pointers back (Biology statements, round 6–8 passages).
      "Snow easily slides off needle-shaped leaves, keeping the snow load light, thus reducing broken branches.",
      "The green algae exhibit features similar to those of the land plants, particularly in terms of chloroplast structure.",
      "Prokaryotes can transfer DNA from one cell to another by three mechanisms: transformation, transduction and conjugation.",
    ])
      expect(selfContained(text), text).toBe(true);
  });
});

describe("Evaluate claims (judge-claim)", () => {
  const FRICTION = chunkOf(
    `## Friction

Friction varies from surface to surface because different substances are rougher than others. As the temperature of a gas increases, the pressure of the gas increases. As the speed of a sliding block increases, the heat produced by friction increases.`,
    "Chapter 5 > 5.1 Friction",
  );
  it("is never a passage sentence with 'not' put in (section:13, selection:16, biology:31)", () => {
    const found = candidates([FRICTION], "mcq", "Evaluate").filter((c) => c.form === "judge-claim");
    expect(found.length).toBeGreaterThan(0);
    for (const c of found) expect(c.question.promptText).not.toMatch(/\b(?:not|never)\b/i);
    expect(found.some((c) => /pressure of the gas decreases/.test(c.question.promptText))).toBe(true);
  });

  it("is not written out: a reversed direction quoted back read as recall (rounds 10–12)", () => {
    expect(candidates([FRICTION], "short", "Evaluate").filter((c) => c.form === "judge-claim")).toEqual([]);
  });
});

describe("'… are called ________' stems (definition-mcq)", () => {
  it("never cuts the subject off a predicate (biology:32, biology:55)", () => {
    expect(
      clozeable(
        "the most speciose group of land vertebrates and display a number of adaptations related to their ability to fly",
      ),
    ).toBe(false);
    expect(
      clozeable("deposited during gestation and are present at birth through the beginning of adolescence"),
    ).toBe(false);
    expect(clozeable("a protein that speeds up a chemical reaction in the cell")).toBe(true);
    expect(clozeable("a group of tumor-suppressor proteins common in many cells")).toBe(true);
  });
});

describe("true statements a student could fairly dispute", () => {
  it("are not offered as true (biology:39, biology:51)", () => {
    expect(SWEEPING.test("All mammals have teeth and can chew their food.")).toBe(true);
    expect(
      SWEEPING.test(
        "Blood primarily moves through the body by the rhythmic movement of smooth muscle in the vessel wall.",
      ),
    ).toBe(true);
    expect(SWEEPING.test("Like charges repel each other, and unlike charges attract each other.")).toBe(
      false,
    );
  });
});

describe("statements come from the lesson, not a worked example's strategy", () => {
  const CHARGE = chunkOf(
    `## Electric Charge

A positive charge and a negative charge attract each other in every case. Rubbing two surfaces together increases the transfer of electrons between the materials. Electric charge can be transferred from one object to another object by contact. Polarization can be used to separate charge within a neutral object. Electrons carry a negative charge and protons carry a positive charge in atoms.

### Strategy

Energy-saving light bulbs give out more luminous flux per watt of electric power than older light bulbs. Older light bulbs have a higher wattage for the same luminous flux as new ones. Lumens measure the luminous flux that light bulbs give out in each second.`,
    "Chapter 18 > 18.1 Electric Charge",
  );
  it("writes notes from the lesson and none from the 'Strategy' block (selection:12, section:27)", () => {
    const notes = candidates([CHARGE], "short", "Remember").filter((c) => c.form === "spot-the-error");
    expect(notes.length).toBeGreaterThan(0);
    for (const c of notes) {
      expect(c.question.promptText).not.toMatch(/notes on strategy/i);
      expect(c.question.promptText).not.toMatch(/light bulbs|wattage/i);
    }
    const onlyStrategy = chunkOf(
      CHARGE.content.slice(CHARGE.content.indexOf("### Strategy")),
      "Chapter 18 > 18.1 Electric Charge",
      1,
    );
    const fromStrategy = [
      ...candidates([onlyStrategy], "short", "Remember"),
      ...candidates([onlyStrategy], "mcq", "Remember"),
    ].filter((c) => c.form === "spot-the-error" || c.form === "statement-mcq");
    expect(fromStrategy).toEqual([]);
  });
});
