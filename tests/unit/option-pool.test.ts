import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/generation/offline/forms/common";
import { definesMcq, definitionMcq } from "@/lib/generation/offline/forms/recall";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import { extractTerms, type ITerm } from "@/lib/generation/offline/knowledge/lexicon";
import { compactPool, kindOf, poolOptions, sameKind } from "@/lib/generation/offline/knowledge/pool";
import type { IContextChunk, TQuestion } from "@/types/generation.types";
import { rememberMcqSlot } from "../support/form-slots";
import { testChunk, testSentence } from "../support/sentence";

/**
 * The subject's wider option pool (issue 25, point 3): Remember MCQ options from other chapters of
 * the same subject, only of the key's kind.
 */

const term = (text: string): ITerm => {
  const [t] = extractTerms([testSentence(text)]);
  if (!t) throw new Error(`no term read from: ${text}`);
  return t;
};

const chunk = (content: string, i: number, section: string, documentId = "ch4") =>
  testChunk(content, i, section, documentId);

const slot = rememberMcqSlot;

function build(form: typeof definesMcq, chunks: IContextChunk[], scope: IContextChunk[]) {
  const kb = buildKnowledge(chunks, scope);
  const steps: string[] = [];
  const qs: TQuestion[] = [
    ...form.build({
      kb,
      slot,
      random: mulberry32(3),
      keyAt: 1,
      used: new Set(),
      trace: (s) => steps.push(s),
    }),
  ];
  return { qs, steps, kb };
}

const options = (q: TQuestion | undefined) => {
  if (q?.type !== "mcq") throw new Error("mcq expected");
  return q.options.filter((_, i) => i !== q.correctIndex);
};

// OpenStax Biology style: the selection defines lysosomes; its chapter has one other organelle.
const SELECTED = chunk(
  "## 4.4 The Endomembrane System\n\nLysosomes are the organelles that break down worn-out cell parts with digestive enzymes. Vesicles are membrane-bound sacs that carry molecules between organelles.",
  0,
  "4.4 The Endomembrane System",
);
const CHAPTER = chunk(
  "## 4.3 Eukaryotic Cells\n\nThe nucleus is the organelle that houses the cell's DNA and directs the synthesis of ribosomes and proteins.",
  1,
  "4.3 Eukaryotic Cells",
);
// Other chapters of the same book: two more organelles, and macromolecules that are no organelles.
const OTHER = [
  chunk(
    "## 3.4 Lipids\n\nLipids are a diverse group of hydrophobic compounds that include fats, oils, waxes and steroids. Nucleic acids are the macromolecules that store and pass on the genetic information of the cell.",
    0,
    "3.4 Lipids",
    "ch3",
  ),
  chunk(
    "## 7.1 Energy in Living Systems\n\nMitochondria are the organelles that carry out cellular respiration and make most of the cell's ATP. Chloroplasts are a type of organelle that carries out photosynthesis in plant cells. Vacuoles are the organelles that store water and wastes in plant cells. Peroxisomes are the small organelles that break down fatty acids and poisons. The sun warms the leaves in the afternoon.",
    3,
    "7.1 Energy in Living Systems",
    "ch7",
  ),
];

describe("kind test for options from other chapters (sameKind)", () => {
  it("reads the kind through 'a type of …' and matches it to a plain genus", () => {
    const chloroplasts = term(
      "Chloroplasts are a type of organelle that carries out photosynthesis in plant cells.",
    );
    expect(kindOf(chloroplasts)).toBe("organelle");
    const lysosomes = term(
      "Lysosomes are the organelles that break down worn-out cell parts with digestive enzymes.",
    );
    expect(
      sameKind({ name: "lysosomes", genus: kindOf(lysosomes), head: lysosomes.head }, chloroplasts),
    ).toBe("genus");
  });

  it("refuses a wrong-kind candidate: lipids and nucleic acids are no organelles", () => {
    const key = { name: "lysosomes", genus: "organelle", head: "lysosome" };
    expect(
      sameKind(key, term("Lipids are a diverse group of hydrophobic compounds that include fats and oils.")),
    ).toBe(null);
    expect(
      sameKind(
        key,
        term(
          "Nucleic acids are the macromolecules that store and pass on the genetic information of the cell.",
        ),
      ),
    ).toBe(null);
  });

  it("takes a shared head noun in OpenStax Physics names, and WordNet only under the text's genus", () => {
    const kinetic = term("Kinetic energy is the energy of motion of an object.");
    const potential = term("Potential energy is the stored energy of position of an object.");
    expect(sameKind({ name: kinetic.term, genus: kindOf(kinetic), head: kinetic.head }, potential)).toBe(
      "genus",
    );
    expect(sameKind({ name: "kinetic energy", genus: "", head: "energy" }, { ...potential, genus: "" })).toBe(
      "head",
    );
    // WordNet confirms a kind the text gives; two names under one WordNet parent are not enough.
    const ribosome = term("A ribosome is the site of protein synthesis in the cytoplasm of the cell.");
    expect(
      sameKind({ name: "lysosome", genus: "organelle", head: "lysosome" }, { ...ribosome, genus: "" }),
    ).toBe("wordnet-genus");
    expect(sameKind({ name: "lysosome", genus: "", head: "lysosome" }, ribosome)).toBe(null);
    // …and never against a genus the other definition states, even a loose one.
    const radiation = term("Radiation is the only method of heat transfer where no medium is required.");
    expect(sameKind({ name: "kinetic energy", genus: "energy", head: "energy" }, radiation)).toBe(null);
    const hypothesis = term("A hypothesis is a suggested explanation that can be tested by an experiment.");
    expect(sameKind({ name: "model", genus: "", head: "model" }, hypothesis)).toBe(null);
  });

  it("reads Indian board (NCERT Class 9) tissue definitions as one kind, and refuses another genus", () => {
    const xylem = term(
      "Xylem is a complex tissue that carries water and minerals from the roots to the leaves.",
    );
    const parenchyma = term("Parenchyma is a type of tissue that stores food in the cells of plants.");
    const stomata = term("Stomata are the tiny pores in the epidermis of the leaf.");
    const key = { name: "xylem", genus: kindOf(xylem), head: xylem.head };
    expect(key.genus).toBe("tissue");
    expect(sameKind(key, parenchyma)).toBe("genus");
    expect(sameKind(key, stomata)).toBe(null);
  });

  it("never offers another name of the key, or a definition that fits the key's", () => {
    const key = {
      name: "plasma membrane",
      genus: "layer",
      head: "membrane",
      definition: "the thin layer of lipids and proteins that surrounds the cell",
    };
    const pool = [
      term("The plasmalemma is the thin layer of lipids and proteins that surrounds the cell."),
      term("The nuclear envelope is a double layer that encloses the nucleus of a eukaryotic cell."),
    ];
    expect(
      poolOptions(pool, key, "Which of the following is the definition of plasma membrane?").map(
        (o) => o.term.term,
      ),
    ).toEqual(["nuclear envelope"]);
  });
});

describe("the pool's passages (compactPool)", () => {
  it("keeps only sentences that define a term, marked options-only", () => {
    const pool = compactPool(OTHER);
    expect(pool.every((c) => c.optionsOnly === true && c.zone === "definition")).toBe(true);
    expect(pool.map((c) => c.documentId)).toEqual(["ch3", "ch7"]);
    expect(pool[1]!.content).not.toContain("The sun warms the leaves");
    expect(pool[1]!.content).toContain("Mitochondria are the organelles");
  });
});

describe("Remember MCQs with options from the pool", () => {
  it("defines-mcq fills from other chapters' organelles, never their macromolecules", () => {
    const without = build(definesMcq, [SELECTED], [SELECTED, CHAPTER]);
    expect(without.qs.filter((q) => q.promptText.includes("lysosomes"))).toEqual([]);
    expect(without.steps).toContain("< 3 definitions of the same kind in the chapter or the subject");

    const { qs, kb } = build(definesMcq, [SELECTED], [SELECTED, CHAPTER, ...compactPool(OTHER)]);
    expect(kb.poolTerms.map((t) => t.term)).toEqual(
      expect.arrayContaining(["lipids", "nucleic acids", "mitochondria", "chloroplasts"]),
    );
    const q = qs.find((x) => x.promptText.includes("lysosomes"));
    const wrong = options(q);
    expect(wrong).toHaveLength(3);
    expect(wrong.some((o) => /cellular respiration/.test(o))).toBe(true);
    expect(wrong.some((o) => /photosynthesis/.test(o))).toBe(true);
    expect(wrong.some((o) => /hydrophobic|genetic information/.test(o))).toBe(false);
    // The pool only supplies options: every citation is the selection's.
    expect(q!.contextRefs.every((r) => r.documentId === "ch4")).toBe(true);
  });

  it("the pool's passages never become questions or chapter knowledge", () => {
    const { kb } = build(definitionMcq, [SELECTED], [SELECTED, CHAPTER, ...compactPool(OTHER)]);
    expect(kb.terms.map((t) => t.term)).toEqual(["lysosomes", "vesicles"]);
    expect(kb.scopeTerms.map((t) => t.term)).not.toContain("mitochondria");
    expect(kb.scopeSentences.some((s) => s.text.includes("Mitochondria"))).toBe(false);
  });

  it("definition-mcq tops the chapter's options up with pool terms of the key's kind", () => {
    const { qs } = build(definitionMcq, [SELECTED], [SELECTED, CHAPTER, ...compactPool(OTHER)]);
    const q = qs.find((x) => x.type === "mcq" && x.options[x.correctIndex] === "lysosomes");
    const wrong = options(q);
    // "mitochondria" reads as singular (no -s plural) and the chapter's nucleus is singular too.
    expect(wrong).toEqual(expect.arrayContaining(["chloroplasts", "vacuoles", "peroxisomes"]));
    expect(wrong).not.toContain("lipids");
    expect(wrong).not.toContain("nucleic acids");
  });
});
