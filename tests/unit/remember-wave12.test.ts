import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/generation/offline/forms/common";
import { clozeable, definesMcq, definitionMcq, kindOptions } from "@/lib/generation/offline/forms/recall";
import { buildKnowledge, type ITerm } from "@/lib/generation/offline/knowledge";
import { extractTerms, sharedKind, wordNetChain } from "@/lib/generation/offline/knowledge/lexicon";
import { LOOSE } from "@/lib/generation/offline/knowledge/pool";
import type { IContextChunk, TQuestion } from "@/types/generation.types";
import { rememberMcqSlot } from "../support/form-slots";
import { testChunk, testSentence } from "../support/sentence";

const envOf = (chunks: IContextChunk[], seed = 3) => ({
  kb: buildKnowledge(chunks),
  slot: rememberMcqSlot,
  random: mulberry32(seed),
  keyAt: 1,
  used: new Set<string>(),
});
const definitionItems = (chunks: IContextChunk[], seed = 3): TQuestion[] => [
  ...definitionMcq.build(envOf(chunks, seed)),
];
const options = (q: TQuestion) => (q.type === "mcq" ? q.options : []);
const keyOf = (q: TQuestion) => (q.type === "mcq" ? q.options[q.correctIndex] : undefined);
const termOf = (chunks: IContextChunk[], name: string): ITerm => {
  const t = envOf(chunks).kb.terms.find((x) => x.term === name);
  if (!t) throw new Error(`${name} expected as a defined term`);
  return t;
};

describe("sharedKind: near kin by a specific WordNet kind, never a narrower or broader term", () => {
  it("finds the kind two school terms share", () => {
    expect(sharedKind("lipids", "carbohydrates")).toBe("macromolecule");
    expect(sharedKind("flatworms", "nematodes")).toBe("worm");
    expect(sharedKind("lysosome", "ribosome")).toBe("organelle");
    expect(sharedKind("insulin", "glucagon")).toBe("hormone");
    expect(sharedKind("kinetic energy", "potential energy")).toBe("mechanical energy");
    // A name WordNet lacks is a kind of its head noun.
    expect(wordNetChain("cartilaginous joints")[0]).toBe("joint");
    expect(sharedKind("cartilaginous joints", "fibrous joints")).toBe("joint");
  });

  it("refuses a broad kind, and a term that is a kind of the other", () => {
    // Both body parts to WordNet: no option of one kind for a school question.
    expect(sharedKind("joints", "limbs")).toBe("");
    // Mosses are bryophytes, antibodies are broader than autoantibodies: both would meet the definition.
    expect(sharedKind("bryophytes", "mosses")).toBe("");
    expect(sharedKind("autoantibodies", "antibodies")).toBe("");
    expect(sharedKind("lipids", "lipids")).toBe("");
    // WordNet's first sense of "conductor" is a musician: no kind shared with a resistor.
    expect(sharedKind("conductor", "resistor")).toBe("");
  });
});

describe("definition-mcq takes options of the key's kind that WordNet confirms", () => {
  it("asks for lipids with carbohydrates beside proteins and nucleic acids (OpenStax Biology 3.3)", () => {
    const text = [
      "### Lipids",
      "",
      "Lipids are a class of macromolecules that are nonpolar and hydrophobic in nature. Major types include fats and oils, waxes, phospholipids, and steroids. Proteins perform a diverse range of functions for the cell. Nucleic acids store the genetic information of a cell. Carbohydrates provide energy to the body, particularly through glucose.",
    ].join("\n");
    // The chapter's other headings name the other macromolecules.
    const chunks = [
      testChunk(text, 0, "3.3 Lipids", "bio"),
      testChunk("Most carbohydrates are a source of energy.", 1, "3.2 Carbohydrates", "bio"),
      testChunk("The shape of a protein determines its function.", 2, "3.4 Proteins", "bio"),
      testChunk("DNA and RNA store and express genetic information.", 3, "3.5 Nucleic Acids", "bio"),
    ];
    const t = termOf(chunks, "lipids");
    const names = kindOptions(envOf(chunks), t, "Lipids-free stem?", []).map((o) => o.text);
    expect(names).toEqual(expect.arrayContaining(["proteins", "carbohydrates", "nucleic acids"]));
    // Kinds of lipids meet the definition too.
    expect(names).not.toContain("phospholipids");
    expect(names).not.toContain("steroids");
    const q = definitionItems(chunks.slice(0, 1).concat(chunks.slice(1))).find((x) => keyOf(x) === "lipids");
    if (!q) throw new Error("a lipids item expected");
    expect(options(q)).toEqual(
      expect.arrayContaining(["lipids", "proteins", "nucleic acids", "carbohydrates"]),
    );
  });

  it("offers fibrous and synovial joints for cartilaginous joints, not limbs (OpenStax Biology 38.3)", () => {
    const text = [
      "### Joints and Skeletal Movement",
      "",
      "Cartilaginous joints are joints in which the bones are connected by cartilage. Fibrous joints hold bones tightly together by dense connective tissue. Synovial joints are the only joints that have a space between the adjoining bones. The limbs move when muscles pull on the bones. The sutures of the skull hold its bones together.",
    ].join("\n");
    const q = definitionItems([
      testChunk(text, 0, "38.3 Joints and Skeletal Movement > Cartilaginous Joints", "bio"),
      testChunk(
        "Sutures hold the bones of the skull together.",
        1,
        "38.3 Joints and Skeletal Movement > Fibrous Joints",
        "bio",
      ),
      testChunk("The knee allows flexion.", 2, "38.3 Joints and Skeletal Movement > Synovial Joints", "bio"),
      testChunk("The arms and legs move.", 3, "38.3 Joints and Skeletal Movement > Limbs", "bio"),
      testChunk("The elbow is a hinge joint.", 4, "38.3 Joints and Skeletal Movement > Hinge Joints", "bio"),
    ]).find((x) => keyOf(x) === "cartilaginous joints");
    if (!q) throw new Error("a cartilaginous joints item expected");
    const wrong = options(q).filter((o) => o !== "cartilaginous joints");
    expect(wrong).toHaveLength(3);
    expect(wrong).not.toContain("limbs");
    for (const o of wrong)
      expect(["fibrous joints", "synovial joints", "hinge joints", "sutures"]).toContain(o);
  });

  it("reads an NCERT-style definition and never offers a kind of the key (bryophytes, mosses)", () => {
    // NCERT Class XI Biology 3.2 wording.
    const text = [
      "### Bryophytes",
      "",
      "Bryophytes are non-vascular plants that grow in damp and shaded localities. Mosses grow on damp walls and rocks. Liverworts grow usually in moist, shady habitats. Ferns and horsetails are found in cool, damp places. Algae are chlorophyll-bearing simple organisms.",
    ].join("\n");
    const chunks = [
      testChunk(text, 0, "3.2 Bryophytes", "ncert"),
      testChunk("Mosses have leafy gametophytes.", 1, "3.2 Bryophytes > Mosses", "ncert"),
      testChunk("Liverworts have a thalloid body.", 2, "3.2 Bryophytes > Liverworts", "ncert"),
      testChunk("Ferns have true roots.", 3, "3.3 Ferns", "ncert"),
    ];
    const t = termOf(chunks, "bryophytes");
    const names = kindOptions(
      envOf(chunks),
      t,
      "Non-vascular plants that grow in damp and shaded localities are called ________.",
      [],
    ).map((o) => o.text);
    expect(names).not.toContain("mosses");
    expect(names).not.toContain("liverworts");
  });

  it("leaves out a concept a sentence describes in the definition's own words (a second right answer)", () => {
    // OpenStax Biology 29.1 wording: tunicates are suspension feeders too.
    const text = [
      "### Chordates",
      "",
      "Lancelets are suspension feeders that feed on phytoplankton and other microorganisms. Most tunicates live a sessile existence on the ocean floor and are suspension feeders. Hagfishes are eel-like scavengers that live on the ocean floor. Lampreys are similar in size and shape to hagfishes.",
    ].join("\n");
    const chunks = [
      testChunk(text, 0, "29.1 Chordates", "bio"),
      testChunk("Tunicates are marine animals.", 1, "29.1 Chordates > Tunicates", "bio"),
      testChunk("Hagfishes produce slime.", 2, "29.1 Chordates > Hagfishes", "bio"),
    ];
    const t = termOf(chunks, "lancelets");
    const names = kindOptions(
      envOf(chunks),
      t,
      "Suspension feeders that feed on phytoplankton and other microorganisms are called ________.",
      [],
    ).map((o) => o.text);
    // Of the key's kind by WordNet, but described in the definition's own words.
    expect(sharedKind("lancelets", "tunicates")).toBe("chordate");
    expect(names).not.toContain("tunicates");
  });
});

describe("definitions the noun-phrase test used to refuse", () => {
  it("asks 'the process by which …' and 'a cavity that …' definitions (compromise's optional-adjective miss)", () => {
    // OpenStax Biology 5.4 wording, and an NCERT-style sentence.
    const text = [
      "### Bulk Transport",
      "",
      "Phagocytosis is the process by which a cell takes in large particles. Pinocytosis is the process by which a cell takes in molecules, including water. Exocytosis is the process by which a cell expels material in vesicles. Osmosis is the process by which water moves across a semi-permeable membrane.",
    ].join("\n");
    const qs = definitionItems([testChunk(text, 0, "5.4 Bulk Transport", "bio")]);
    const q = qs.find((x) => keyOf(x) === "phagocytosis");
    if (!q) throw new Error("a phagocytosis item expected");
    expect(q.promptText.toLowerCase()).toContain("the process by which a cell takes in large particles");
  });
});

describe("no definition read from a share of a group", () => {
  it("reads no term from 'Pathogens are only a small percentage of all prokaryotes' (OpenStax Biology 22.5)", () => {
    const terms = extractTerms([
      testSentence("Pathogens are only a small percentage of all prokaryotes."),
      testSentence("The majority of cells are a small fraction of the tissue's volume."),
      testSentence("Prokaryotes are unicellular organisms that lack a nucleus."),
    ]);
    expect(terms.map((t) => t.term)).toEqual(["prokaryotes"]);
  });
});

describe("round-14 development reading: options that also meet the definition, claims read as definitions", () => {
  it("refuses WordNet's other names and groups named on the kind itself", () => {
    // "seed plant" is "spermatophyte" in WordNet, and angiosperms are spermatophytes.
    expect(sharedKind("seed plants", "angiosperms")).toBe("");
    // "invertebrate chordates" may hold the lancelets; fibrous and cartilaginous joints are siblings.
    expect(sharedKind("lancelets", "invertebrate chordates")).toBe("");
    expect(sharedKind("cartilaginous joints", "fibrous joints")).toBe("joint");
  });

  it("asks no definition item from 'Seed plants are the foundation of human diets' (OpenStax Biology 26.4)", () => {
    const text = [
      "### The Role of Seed Plants",
      "",
      "Seed plants are the foundation of human diets across the world. Angiosperms are the flowering plants that produce seeds within a fruit. Gymnosperms are vascular plants that produce seeds without a fruit. Ferns are vascular plants that reproduce by spores.",
    ].join("\n");
    const qs = definitionItems([testChunk(text, 0, "26.4 The Role of Seed Plants", "bio")]);
    expect(qs.filter((q) => keyOf(q) === "seed plants")).toHaveLength(0);
  });
});

describe("round-14 development reading: stems that do not read, options of another kind", () => {
  it("refuses a definition that runs on about some of them (OpenStax Biology 28.3 wording)", () => {
    expect(
      clozeable("excellent regenerators and some even reproduce asexually by budding or fragmentation"),
    ).toBe(false);
    expect(clozeable("joints in which the bones are connected by cartilage")).toBe(true);
    // OpenStax Biology 4.2 wording: a list of parts, not a second clause.
    expect(
      clozeable(
        "a complex macromolecule composed of structural and catalytic rRNAs, and many distinct polypeptides",
      ),
    ).toBe(true);
  });

  it("asks nothing from 'Multipolar neurons are the most common type of neuron' and offers no glial cell for a neuron", () => {
    // OpenStax Biology 35.1 wording.
    const text = [
      "### Neurons and Glial Cells",
      "",
      "Multipolar neurons are the most common type of neuron. Bipolar neurons have two processes. Oligodendrocytes are glial cells that myelinate axons in the central nervous system. Unipolar neurons are found in invertebrates.",
    ].join("\n");
    const chunks = [
      testChunk(text, 0, "35.1 Neurons and Glial Cells", "bio"),
      testChunk("Astrocytes support neurons.", 1, "35.1 Neurons and Glial Cells > Glia", "bio"),
    ];
    expect(definitionItems(chunks).filter((q) => keyOf(q) === "multipolar neurons")).toHaveLength(0);
    // NCERT-style: "Neurons are the structural and functional units of the neural system."
    const ncert = [
      testChunk(
        "### Neural System\n\nNeurons are cells that transmit nerve impulses along their axons. Oligodendrocytes wrap axons. Astrocytes hold neurons in place.",
        0,
        "21.1 Neural System",
        "ncert",
      ),
    ];
    const t = termOf(ncert, "neurons");
    const names = kindOptions(
      envOf(ncert),
      t,
      "Cells that transmit nerve impulses are called ________.",
      [],
    ).map((o) => o.text);
    for (const n of names) expect(["oligodendrocytes", "astrocytes"]).not.toContain(n);
  });
});

describe("a genus that says nothing confirms no option (round-14 development reading)", () => {
  it("offers neither emission nor decay for 'the act of emitting particles or energy from the nucleus' (OpenStax Physics 22.2)", () => {
    const chunks = [
      testChunk(
        "### Radioactivity\n\nRadioactivity refers to the act of emitting particles or energy from the nucleus. The nucleus holds protons and neutrons.",
        0,
        "22.2 Nuclear Forces and Radioactivity",
        "phys",
      ),
      testChunk(
        "Alpha emission lowers the mass number.",
        1,
        "22.2 Nuclear Forces and Radioactivity > Emission",
        "phys",
      ),
      testChunk("Each decay releases energy.", 2, "22.2 Nuclear Forces and Radioactivity > Decay", "phys"),
      testChunk(
        "The output of a reactor is heat.",
        3,
        "22.2 Nuclear Forces and Radioactivity > Output",
        "phys",
      ),
    ];
    // "act" says nothing of the kind: WordNet's "emission is an act" confirms no option.
    expect(LOOSE.has("act")).toBe(true);
    for (const seed of [1, 2, 3])
      for (const q of definitionItems(chunks, seed))
        if (keyOf(q) === "radioactivity") {
          expect(options(q)).not.toContain("emission");
          expect(options(q)).not.toContain("decay");
        }
  });
});

describe("defines-mcq takes the definitions of the key's WordNet kin", () => {
  it("offers the chapter's definitions of other macromolecules for lipids (OpenStax Biology 3 wording)", () => {
    const text = [
      "### Biological Macromolecules",
      "",
      "Lipids are a diverse group of compounds that are largely nonpolar in nature. Proteins are the polymers of amino acids that perform most of the work of a cell. Carbohydrates are the sugars and starches that supply energy to the body. Nucleic acids are the molecules that carry the genetic blueprint of a cell. An atom is the smallest unit of matter that keeps the properties of an element.",
    ].join("\n");
    const env = envOf([testChunk(text, 0, "3.1 Biological Macromolecules", "bio")]);
    const items = [...definesMcq.build(env)].filter((q) => q.promptText.includes("lipids"));
    for (const q of items) {
      expect(options(q)).not.toContain("The smallest unit of matter that keeps the properties of an element");
      expect(options(q)).toContain("The polymers of amino acids that perform most of the work of a cell");
    }
    expect(items.length).toBeGreaterThan(0);
  });
});

describe("a definition with a second clause run on is no stem (round 14 reading)", () => {
  it("refuses '…; therefore, …' and ', thus …' but keeps one noun phrase", () => {
    // OpenStax Biology 2e 39.2: "Air is a mixture of gases; therefore, the partial pressure of each gas …".
    expect(
      clozeable(
        "a mixture of gases; therefore, the partial pressure of each gas can be calculated to determine how the gas will flow in the lung",
      ),
    ).toBe(false);
    expect(clozeable("the energy of motion, thus a scalar quantity")).toBe(false);
    expect(clozeable("a mixture of gases such as nitrogen, oxygen and carbon dioxide")).toBe(true);
  });
});
