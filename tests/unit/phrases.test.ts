import { describe, expect, it } from "vitest";
import { isNounPhrase, isPluralNoun, nounPhrases } from "@/lib/text/phrases";

describe("nounPhrases", () => {
  it("finds concept names and drops determiners, numbers, symbols and punctuation", () => {
    const found = nounPhrases(
      "An object slides at a constant velocity if the net force on it is zero. Light from the nearest star takes 4.2 years to reach Earth. Photosynthesis converts light energy into chemical energy.",
    );
    expect(found).toEqual(
      expect.arrayContaining(["constant velocity", "net force", "Earth", "light energy"]),
    );
    for (const p of found) {
      expect(p).not.toMatch(/^(?:the|an?|this)\s/i);
      expect(p).not.toMatch(/[\d.,;:()]/);
    }
  });

  it("never returns adjacent words that are not a phrase, or textbook scaffolding", () => {
    const found = nounPhrases(
      "The net external force acting on the system is the sum of all forces. Strategy: use the figure. Solution: the answer is in the table.",
    );
    expect(found).not.toContain("force acting");
    for (const scaffold of ["strategy", "figure", "answer", "table", "solution"])
      expect(found).not.toContain(scaffold);
  });

  it("drops vague quantities and manners", () => {
    const found = nounPhrases(
      "Plants store an enormous amount of energy in different kinds of sugar molecules.",
    );
    expect(found).not.toContain("enormous amount");
    expect(found).not.toContain("different kinds");
    expect(found).toContain("sugar molecules");
  });

  it("leaves figure and table cross-references out of names", () => {
    const found = nounPhrases(
      "Some plants live in deserts, like cacti (Figure). Leaves of succulents (Table 2) hold water.",
    );
    expect(found.some((p) => /figure|table/i.test(p))).toBe(false);
    expect(found).toContain("cacti");
  });

  it("cuts a phrase the tagger ran across a comma", () => {
    expect(nounPhrases("Newton related force, mass and acceleration.")).not.toContain("force mass");
  });

  it("handles empty and hostile text", () => {
    expect(nounPhrases("")).toEqual([]);
    expect(nounPhrases("\u0000\u202e 😀 ((((( ||| ")).toEqual([]);
  });
});

describe("isNounPhrase", () => {
  it.each([
    ["active transport", true],
    ["Calvin cycle", true],
    ["law of gravitation", true],
    ["electron transport chain", true],
    ["Particle physics it", false],
    ["But every wave", false],
    ["Another common relationship in physics", false],
    ["Only external forces", false],
    ["Angular velocity we’ll", false],
  ])("%s → %s", (text, expected) => {
    expect(isNounPhrase(text)).toBe(expected);
  });
});

describe("isPluralNoun", () => {
  it("tells 'what X is' from 'what X are'", () => {
    expect(isPluralNoun("antibodies")).toBe(true);
    expect(isPluralNoun("stem cells")).toBe(true);
    expect(isPluralNoun("photosynthesis")).toBe(false);
    expect(isPluralNoun("mass")).toBe(false);
  });
});
