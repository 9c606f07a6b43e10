import { describe, expect, it } from "vitest";
import {
  exceptionsOf,
  judgeException,
  readExcept,
  readSomeOthers,
} from "@/lib/generation/offline/forms/written-exception";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import type { IContextChunk, TQuestion } from "@/types/generation.types";
import { formSlot } from "../support/form-slots";
import { testSentence } from "../support/sentence";

// Wording from OpenStax Biology 2e (CC BY 4.0) and an NCERT-style (Class 10 science) passage.
const DOC = "7a1c2e4a-1b2c-4d3e-8f40-123456789ad1";
const kbOf = (section: string, ...lines: string[]) =>
  buildKnowledge([
    {
      documentId: DOC,
      chunkIndex: 0,
      title: "Book",
      sectionPath: `Chapter 3: Book > ${section}`,
      content: [`### ${section.replace(/^[\d.]+\s*/, "")}`, "", lines.join(" ")].join("\n"),
    } as IContextChunk,
  ]);
const build = (kb: ReturnType<typeof buildKnowledge>) => {
  const env = {
    kb,
    slot: formSlot(DOC, "short", "Evaluate"),
    random: () => 0.5,
    keyAt: 0,
    used: new Set<string>(),
    trace: () => undefined,
  };
  return [...judgeException.build(env)] as TQuestion[];
};
const one = (text: string) => readSomeOthers(testSentence(text));
const two = (a: string, b: string) =>
  readSomeOthers(testSentence(a), testSentence(b, { position: 1, standalone: false }));

describe("readSomeOthers: the text splits a kind into some and others", () => {
  it("reads one sentence with “whereas / while / but others”", () => {
    expect(
      one(
        "Some fruits develop from the ovary and are known as true fruits, whereas others develop from other parts of the female gametophyte and are known as accessory fruits.",
      ),
    ).toMatchObject({
      claim: "All fruits develop from the ovary and are known as true fruits.",
      counter:
        "Other fruits develop from other parts of the female gametophyte and are known as accessory fruits.",
      subject: "fruits",
    });
    expect(
      one(
        "Some ganglion cell axons carry information on form, movement, depth, and brightness, while other axons carry information on color and fine detail.",
      )?.counter,
    ).toBe("Other axons carry information on color and fine detail.");
    expect(
      one(
        "Some viral capsids are simple helices or polyhedral “spheres,” whereas others are quite complex in structure.",
      )?.claim,
    ).toBe("All viral capsids are simple helices or polyhedral spheres.");
  });

  it("reads a concessive opener: “While most X …, others …”", () => {
    expect(
      one(
        "While most viruses contain a single nucleic acid, others have genomes divided into several segments.",
      ),
    ).toMatchObject({
      claim: "All viruses contain a single nucleic acid.",
      counter: "Other viruses have genomes divided into several segments.",
      qualifier: "most",
    });
    expect(
      one("While most absorption occurs in the small intestines, the large intestine removes water."),
    ).toBeNull();
  });

  it("reads two sentences next to each other: “Many genes … . Other genes …”", () => {
    expect(
      two(
        "Many genes contain the information to make protein products.",
        "Other genes code for RNA products.",
      ),
    ).toMatchObject({
      claim: "All genes contain the information to make protein products.",
      counter: "Other genes code for RNA products.",
      qualifier: "many",
    });
    // NCERT-style wording.
    expect(
      two(
        "Some metals react with cold water to form hydroxides.",
        "Other metals react only with steam to form oxides.",
      )?.claim,
    ).toBe("All metals react with cold water to form hydroxides.");
  });

  it("refuses what the text does not settle", () => {
    // A hedged or negated feature.
    expect(
      one(
        "Some species never moved very far from the aquatic environment, whereas others went on to conquer land.",
      ),
    ).toBeNull();
    expect(one("Some sponges may produce gametes all year, whereas others show sexual cycles.")).toBeNull();
    // "Some of these …" leans on what came before.
    expect(
      two(
        "Some of these integral proteins form a pore through the phospholipid bilayer.",
        "Others are carrier proteins which bind with the substance.",
      ),
    ).toBeNull();
    // "Other regions" are not other members of the kind.
    expect(
      two("Some roots absorb moisture from the air.", "Other regions of the plant store starch."),
    ).toBeNull();
    // Not next to each other, or the others have no feature of their own.
    expect(
      readSomeOthers(
        testSentence("Many genes contain the information to make protein products."),
        testSentence("Other genes code for RNA products.", { position: 3 }),
      ),
    ).toBeNull();
    expect(one("Some enzymes work best at low temperatures, whereas others do not.")).toBeNull();
    // A broad kind: "all species" is no student's generalisation of a passage.
    expect(
      two("Some species display ovoviviparity in the mother's body.", "Other species are viviparous."),
    ).toBeNull();
  });
});

describe("readExcept: the exception named inside the statement", () => {
  it("reads “All X, except E, …”, “All X except one, E, …” and “Most X do not … (except E)”", () => {
    expect(
      readExcept(
        testSentence(
          "All solutes in the glomerular capillaries, except for macromolecules like proteins, pass through by passive diffusion.",
        ),
      ),
    ).toMatchObject({
      claim: "All solutes in the glomerular capillaries pass through by passive diffusion.",
      excepted: "macromolecules like proteins",
    });
    expect(
      readExcept(testSentence("All salamanders except one, the fire salamander, are oviparous.")),
    ).toMatchObject({ claim: "All salamanders are oviparous.", excepted: "the fire salamander" });
    expect(
      readExcept(
        testSentence(
          "Most mammals do not lay eggs (except for monotremes such as the echindnas and platypuses).",
        ),
      ),
    ).toMatchObject({ claim: "No mammals lay eggs.", excepted: "monotremes" });
    // NCERT-style wording.
    expect(
      readExcept(testSentence("All metals, except mercury, are solids at room temperature."))?.claim,
    ).toBe("All metals are solids at room temperature.");
  });

  it("refuses places, vague exceptions and hedges", () => {
    expect(
      readExcept(
        testSentence(
          "All lampreys live in coastal and freshwater environments, except for the tropics and polar regions.",
        ),
      ),
    ).toBeNull();
    expect(
      readExcept(
        testSentence(
          "In all animals, except a few simple types, the circulatory system is used to transport nutrients.",
        ),
      ),
    ).toBeNull();
    expect(
      readExcept(
        testSentence("All sensory signals, except those from the olfactory system, reach the thalamus."),
      ),
    ).toBeNull();
    expect(readExcept(testSentence("All metals, except mercury, can be drawn into wires."))).toBeNull();
  });
});

describe("judge-exception builds from a split or a named exception", () => {
  it("Biology: the counterexample, the judgement and the narrower statement earn the marks", () => {
    const kb = kbOf(
      "3.4 Proteins",
      "Proteins may be structural, regulatory, contractile, or protective.",
      "Some proteins are globular in shape; whereas, others are fibrous in nature.",
    );
    expect(exceptionsOf(kb.sentences)).toHaveLength(1);
    const q = build(kb)[0];
    expect(q?.promptText).toMatch(/^A student writes: “All proteins are globular in shape\.”/);
    const points = q?.type !== "mcq" ? (q?.markingScheme ?? []).map((p) => p.point) : [];
    expect(points[0]).toBe("Gives the exception the text states: Other proteins are fibrous in nature");
    expect(q?.type !== "mcq" && q?.suggestedAnswer).toMatch(
      /narrower: some proteins are globular in shape, not all/,
    );
    expect(q?.contextRefs).toHaveLength(1);
  });

  it("NCERT-style: a named exception", () => {
    const kb = kbOf("3.1 Physical Properties", "All metals, except mercury, are solids at room temperature.");
    const q = build(kb)[0];
    expect(q?.promptText).toMatch(/“All metals are solids at room temperature\.”/);
    expect(q?.type !== "mcq" && q?.suggestedAnswer).toMatch(
      /names mercury as an exception, so it does not hold for all metals/,
    );
  });
});
