import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chooseSpellings, respell } from "@/lib/retrieval/spelling";
import { inCaseOf, MAX_VARIANTS, spellingVariants } from "@/lib/text/spelling-variants";

/** [British, American]: each must be among the other's variants. */
const PAIRS: [string, string][] = [
  ["colour", "color"],
  ["colours", "colors"],
  ["coloured", "colored"],
  ["behaviour", "behavior"],
  ["favourable", "favorable"],
  ["tumours", "tumors"],
  ["organise", "organize"],
  ["organisation", "organization"],
  ["fertilisation", "fertilization"],
  ["ionising", "ionizing"],
  ["polarised", "polarized"],
  ["analyse", "analyze"],
  ["hydrolysed", "hydrolyzed"],
  ["paralysing", "paralyzing"],
  ["centre", "center"],
  ["metres", "meters"],
  ["kilometre", "kilometer"],
  ["fibre", "fiber"],
  ["litres", "liters"],
  ["haemoglobin", "hemoglobin"],
  ["anaemia", "anemia"],
  ["leukaemia", "leukemia"],
  ["ischaemic", "ischemic"],
  ["caecum", "cecum"],
  ["faeces", "feces"],
  ["oesophagus", "esophagus"],
  ["oestrogen", "estrogen"],
  ["oedema", "edema"],
  ["foetus", "fetus"],
  ["foetal", "fetal"],
  ["diarrhoea", "diarrhea"],
  ["paediatric", "pediatric"],
  ["anaesthetic", "anesthetic"],
  ["amoeba", "ameba"],
  ["sulphur", "sulfur"],
  ["sulphate", "sulfate"],
  ["labelled", "labeled"],
  ["travelling", "traveling"],
  ["signalling", "signaling"],
  ["fuelled", "fueled"],
  ["analogue", "analog"],
  ["catalogues", "catalogs"],
  ["homologue", "homolog"],
  ["defence", "defense"],
  ["licence", "license"],
  ["leucocytes", "leukocytes"],
  ["judgement", "judgment"],
  ["aluminium", "aluminum"],
  ["grey", "gray"],
  ["greyish", "grayish"],
  ["tyres", "tires"],
  ["programme", "program"],
  ["moulds", "molds"],
  ["moulting", "molting"],
  ["plough", "plow"],
  ["molluscs", "mollusks"],
  ["ageing", "aging"],
];

describe("spellingVariants", () => {
  it.each(PAIRS)("%s ↔ %s (both directions)", (gb, us) => {
    expect(spellingVariants(gb)).toContain(us);
    expect(spellingVariants(us)).toContain(gb);
  });

  it("varies a word needing two rules at once", () => {
    expect(spellingVariants("haemolysed")).toContain("hemolyzed");
    expect(spellingVariants("hemolyzed")).toContain("haemolysed");
  });

  it("leaves short words and the everyday look-alikes of the patterns alone", () => {
    for (const w of [
      "four",
      "hour",
      "your",
      "pour",
      "filled",
      "called",
      "sense",
      "size",
      "frog",
      "cell",
      "and",
    ])
      expect(spellingVariants(w)).toEqual([]);
  });

  it("never returns the word itself, stays within the cap, and only lower-case a–z words", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,20}$/), (w) => {
        const vs = spellingVariants(w);
        expect(vs).not.toContain(w);
        expect(vs.length).toBeLessThanOrEqual(MAX_VARIANTS);
        for (const v of vs) expect(v).toMatch(/^[a-z]+$/);
      }),
    );
    expect(spellingVariants("Colour")).toEqual([]);
    expect(spellingVariants("co-lour")).toEqual([]);
  });

  it("runs in linear time on hostile input", () => {
    const started = performance.now();
    for (const w of ["a".repeat(5000), "our".repeat(2000), "aeoe".repeat(1500), `${"l".repeat(3000)}ed`])
      spellingVariants(w);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe("chooseSpellings", () => {
  const variantsOf = (words: string[]) => new Map(words.map((w) => [w, spellingVariants(w)]));

  it("replaces a word the scope does not use by the variant it does, British → American and back", () => {
    const words = ["colour", "haemoglobin"];
    const df = new Map([
      ["colour", 0],
      ["color", 40],
      ["haemoglobin", 0],
      ["hemoglobin", 12],
    ]);
    expect(chooseSpellings(words, variantsOf(words), df)).toEqual(
      new Map([
        ["colour", "color"],
        ["haemoglobin", "hemoglobin"],
      ]),
    );
    const us = ["centers"];
    expect(
      chooseSpellings(
        us,
        variantsOf(us),
        new Map([
          ["centers", 0],
          ["centres", 7],
        ]),
      ),
    ).toEqual(new Map([["centers", "centres"]]));
  });

  it("keeps a word the scope uses, even when its variant is more frequent", () => {
    const words = ["meter"];
    const df = new Map([
      ["meter", 2],
      ["metre", 90],
    ]);
    expect(chooseSpellings(words, variantsOf(words), df).size).toBe(0);
  });

  it("keeps an unknown word unknown: no variant in the scope, no change", () => {
    const words = ["tyre", "flavour"];
    const df = new Map([
      ["tyre", 0],
      ["tire", 0],
      ["flavour", 0],
    ]);
    expect(chooseSpellings(words, variantsOf(words), df).size).toBe(0);
  });

  it("leaves a word without a lexeme (a stopword, absent from the counts) alone", () => {
    const words = ["does"];
    expect(chooseSpellings(words, variantsOf(words), new Map([["des", 5]])).size).toBe(0);
  });

  it("picks the variant the most passages hold", () => {
    const words = ["haemolysed"];
    const df = new Map([
      ["haemolysed", 0],
      ["hemolysed", 1],
      ["hemolyzed", 6],
    ]);
    expect(chooseSpellings(words, variantsOf(words), df).get("haemolysed")).toBe("hemolyzed");
  });
});

describe("respell", () => {
  it("replaces every occurrence in the case it was typed and keeps the rest byte for byte", () => {
    const chosen = new Map([
      ["colour", "color"],
      ["centre", "center"],
    ]);
    expect(respell("Colour of the CENTRE; colour-blind? (centre)", chosen)).toBe(
      "Color of the CENTER; color-blind? (center)",
    );
    expect(respell("nothing to change", chosen)).toBe("nothing to change");
    expect(respell("any text", new Map())).toBe("any text");
  });

  it("inCaseOf follows the typed word's case", () => {
    expect(inCaseOf("colour", "color")).toBe("color");
    expect(inCaseOf("Colour", "color")).toBe("Color");
    expect(inCaseOf("COLOUR", "color")).toBe("COLOR");
  });
});
