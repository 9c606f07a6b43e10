import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/generation/offline/forms/common";
import { functionMcq, readFunction, statedOf } from "@/lib/generation/offline/forms/recall-functions";
import { spotTheError, statementMcq } from "@/lib/generation/offline/forms/statements";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import type { IContextChunk, TQuestion } from "@/types/generation.types";
import { rememberMcqSlot } from "../support/form-slots";
import { testChunk, testSentence } from "../support/sentence";

const envOf = (chunks: IContextChunk[], slot = rememberMcqSlot, seed = 3) => ({
  kb: buildKnowledge(chunks),
  slot,
  random: mulberry32(seed),
  keyAt: 1,
  used: new Set<string>(),
});
const options = (q: TQuestion) => (q.type === "mcq" ? q.options : []);
const keyOf = (q: TQuestion) => (q.type === "mcq" ? q.options[q.correctIndex] : undefined);

// OpenStax Biology 2e 43.4 / 43.5 wording (hormones of reproduction), with an NCERT-style sentence.
const HORMONES = [
  "### Hormonal Control of Reproduction",
  "",
  [
    "Follicle cells produce the hormone inhibin, which inhibits FSH production.",
    "Prolactin stimulates the mammary glands to produce milk.",
    "Oxytocin stimulates the contraction of the smooth muscle of the uterus.",
    "Estrogen regulates the thickening of the endometrium.",
    "Relaxin regulates the widening of the cervix.",
    "The endometrium lines the uterus.",
    "The cervix softens before birth, and the cervix widens during labour.",
    "The mammary glands enlarge during pregnancy.",
    "The mammary glands store fat, and the endometrium thickens each month.",
    "The corpus luteum secretes progesterone and estrogen.",
    "Sertoli cells secrete the hormone inhibin as well.",
    "The smooth muscle of the uterus contracts during labour, and the uterus holds the fetus.",
  ].join(" "),
].join("\n");

describe("function-mcq: which thing does what the text states", () => {
  it("asks which hormone stimulates the mammary glands, the other options hormones the text describes", () => {
    const qs = [
      ...functionMcq.build(envOf([testChunk(HORMONES, 0, "43.5 Human Pregnancy and Birth", "bio")])),
    ];
    const q = qs.find((x) => keyOf(x) === "prolactin");
    if (!q) throw new Error("a prolactin item expected");
    expect(q.promptText).toBe("Which of the following stimulates the mammary glands to produce milk?");
    const wrong = options(q).filter((o) => o !== "prolactin");
    expect(wrong).toHaveLength(3);
    // Hormones by WordNet's kind; not progesterone (a steroid hormone: WordNet gives it no kind it shares).
    for (const o of wrong) expect(["oxytocin", "estrogen", "relaxin"]).toContain(o);
  });

  it("never offers an option the text says does the same (Sertoli cells also secrete inhibin)", () => {
    const sentences = [testSentence("Sertoli cells secrete the hormone inhibin as well.")];
    expect(statedOf(sentences, "Sertoli cells", { verb: "produce", object: "the hormone inhibin" })).toBe(
      true,
    );
    expect(statedOf(sentences, "muscle cells", { verb: "produce", object: "the hormone inhibin" })).toBe(
      false,
    );
  });

  it("reads a plain function sentence, NCERT style, and refuses clauses, vague objects and hedges", () => {
    const kb = buildKnowledge([
      testChunk(
        "### Digestion\n\nThe liver secretes bile into the duodenum. The bile contains bile salts. The duodenum receives pancreatic juice. Food enters the duodenum from the stomach.",
        0,
        "16.2 Digestion",
        "ncert-bio",
      ),
    ]);
    const f = readFunction(testSentence("The liver secretes bile into the duodenum."), kb.concepts);
    expect(f?.verb).toBe("secretes");
    expect(f?.object).toBe("bile into the duodenum");
    for (const text of [
      "Once a ligand binds to a receptor, the signal is transmitted through the membrane.",
      "Protists function in various ecological niches.",
      "Prokaryotes use different sources of energy to assemble macromolecules.",
      "The pancreas may secrete pancreatic juice into the duodenum.",
      "Some cells secrete pancreatic juice into the duodenum.",
    ])
      expect(readFunction(testSentence(text), kb.concepts)).toBeNull();
  });

  it("makes nothing when fewer than three things of the key's kind are described (the three germ layers)", () => {
    const text =
      "### Germ Layers\n\nThe mesoderm gives rise to somites and the notochord. The ectoderm gives rise to the nervous system. The endoderm gives rise to the lining of the gut. The somites and the notochord form early. The germ layer forms during gastrulation.";
    const qs = [...functionMcq.build(envOf([testChunk(text, 0, "43.7 Organogenesis", "bio")]))];
    expect(qs.filter((q) => keyOf(q) === "mesoderm")).toHaveLength(0);
  });
});

// OpenStax Biology 2e 4.3: one passage runs from "Peroxisomes" into "The Central Vacuole", so its
// section path names the central vacuole (round 12 and 13 readers: a lead-in about the wrong topic).
const PEROXISOMES: IContextChunk = {
  ...testChunk(
    [
      "### Peroxisomes",
      "",
      [
        // Most of the block's statements do not repeat its heading word, as in the book.
        "Peroxisomes are small, round organelles enclosed by single membranes.",
        "Fatty acids and amino acids are broken down by oxidation reactions in the liver.",
        "Hydrogen peroxide is kept inside the organelle to protect the rest of the cell.",
        "Alcohol is detoxified by oxidation reactions in liver cells of the human body.",
        "Liver cells break down alcohol and other toxins faster than muscle cells.",
      ].join(" "),
      "",
      "### The Central Vacuole",
      "",
      "The central vacuole plays a key role in regulating the concentration of water in the cell.",
    ].join("\n"),
    0,
    "4.3 Eukaryotic Cells",
    "bio",
  ),
  sectionPath: "Chapter 4: Cell Structure > 4.3 Eukaryotic Cells > The Central Vacuole",
};

describe("statement lead-ins name a topic that covers the statements", () => {
  it("asks about eukaryotic cells, not the central vacuole, over statements on peroxisomes", () => {
    const prompts = [
      ...[...statementMcq.build(envOf([PEROXISOMES]))].map((q) => q.promptText),
      ...[...spotTheError.build(envOf([PEROXISOMES], { ...rememberMcqSlot, type: "short", marks: 3 }))].map(
        (q) => q.promptText,
      ),
    ];
    expect(prompts.length).toBeGreaterThan(0);
    for (const p of prompts) {
      expect(p).not.toMatch(/central vacuole/i);
      expect(p).toMatch(/(?:about|on) (?:eukaryotic cells|peroxisomes)\b/i);
    }
  });

  it("keeps the sub-heading when every statement sits in its block (demo Photosynthesis style)", () => {
    const chunk: IContextChunk = {
      ...testChunk(
        [
          "### The Central Vacuole",
          "",
          [
            "The central vacuole plays a key role in regulating the concentration of water in the cell.",
            "When the central vacuole holds more water, the cell becomes larger.",
            "The central vacuole stores water and ions inside the plant cell.",
            "The membrane of the central vacuole is called the tonoplast in plant cells.",
            "A plant cell with a full central vacuole is firm and stands upright.",
          ].join(" "),
        ].join("\n"),
        0,
        "4.3 Eukaryotic Cells",
        "bio",
      ),
      sectionPath: "Chapter 4: Cell Structure > 4.3 Eukaryotic Cells > The Central Vacuole",
    };
    for (const q of statementMcq.build(envOf([chunk]))) expect(q.promptText).toMatch(/central vacuole/i);
  });
});
