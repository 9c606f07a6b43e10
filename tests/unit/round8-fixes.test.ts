import { describe, expect, it } from "vitest";
import { doublingText, plausible } from "@/lib/generation/offline/forms/equations";
import { createOfflineGenerator } from "@/lib/generation/offline/generator";
import type { EBloomLevel } from "@/types/bloom.types";
import type { EQuestionType, IContextChunk, ISlot } from "@/types/generation.types";

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
