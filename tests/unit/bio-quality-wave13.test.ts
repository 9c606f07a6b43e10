import { describe, expect, it } from "vitest";
import {
  coarseKinds,
  formOfStemWord,
  kindClash,
  modifierCompound,
  mulberry32,
} from "@/lib/generation/offline/forms/common";
import { leadInGivesAway } from "@/lib/generation/offline/forms/statements";
import { compareSiblings } from "@/lib/generation/offline/forms/written-compare";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import { mainSections } from "@/lib/generation/offline/knowledge/sentences";
import { rememberMcqSlot } from "../support/form-slots";
import { testChunk } from "../support/sentence";

describe("kindClash: options of the key's coarse WordNet kind (round 14 readers: wrong-kind options)", () => {
  it("refuses a thing beside a process, an organelle beside a substance (OpenStax Biology)", () => {
    // 3.1 "the process of breaking complex macromolecules apart is called hydrolysis" took
    // "hydrogen atom" from a list; 5.4 phagocytosis took "vesicle"; 15.5 ribosome took "specificity".
    expect(kindClash({ name: "hydrolysis" }, { name: "hydrogen atom" })).toBe(true);
    expect(kindClash({ name: "phagocytosis" }, { name: "vesicle" })).toBe(true);
    expect(kindClash({ name: "ribosome" }, { name: "specificity" })).toBe(true);
    // "Peroxisomes" (WordNet lacks it: read by its genus, organelle) for "the building blocks of proteins".
    expect(kindClash({ name: "amino acids" }, { name: "Peroxisomes", genus: "organelle" })).toBe(true);
    // The genus as the definition writes it ("Peroxisomes are small, round organelles …"): its head noun.
    expect(
      kindClash({ name: "amino acids" }, { name: "Peroxisomes", genus: "small, round organelles" }),
    ).toBe(true);
  });

  it("keeps options of one kind in both books", () => {
    expect(kindClash({ name: "hydrolysis" }, { name: "dehydration synthesis" })).toBe(false);
    expect(kindClash({ name: "mitochondria" }, { name: "chloroplasts" })).toBe(false);
    expect(kindClash({ name: "lipids" }, { name: "nucleic acids" })).toBe(false);
    expect(kindClash({ name: "cells" }, { name: "tissues" })).toBe(false);
    // OpenStax College Physics: quantities are attributes, phenomena or acts to WordNet; all abstract.
    expect(kindClash({ name: "velocity" }, { name: "acceleration" })).toBe(false);
    expect(kindClash({ name: "kinetic energy" }, { name: "potential energy" })).toBe(false);
    expect(kindClash({ name: "current" }, { name: "voltage" })).toBe(false);
    expect(kindClash({ name: "lens" }, { name: "mirror" })).toBe(false);
  });

  it("reads an NCERT-style pair the same way, and says nothing of a name WordNet lacks", () => {
    // "Transpiration is the loss of water in the form of vapour from the aerial parts of the plant."
    expect(kindClash({ name: "transpiration" }, { name: "stoma" })).toBe(true);
    expect(kindClash({ name: "transpiration" }, { name: "germination" })).toBe(false);
    expect(kindClash({ name: "germination" }, { name: "seeds" })).toBe(true);
    expect(coarseKinds("condyloid")).toEqual(new Set());
    expect(kindClash({ name: "hinge joint" }, { name: "condyloid" })).toBe(false);
  });
});

describe("modifierCompound: a hyphenated modifier is no option", () => {
  it("refuses 'year-round' and 'long-term', keeps hyphenated nouns", () => {
    // Round 14 readers: "year-round" offered beside net primary productivity (OpenStax Biology 44).
    expect(modifierCompound("year-round")).toBe(true);
    expect(modifierCompound("long-term")).toBe(true);
    expect(modifierCompound("cold-blooded")).toBe(true);
    expect(modifierCompound("cross-section")).toBe(false);
    // A hyphenated noun of the text WordNet lacks (OpenStax Biology 38.4; NCERT "self-pollination").
    expect(modifierCompound("cross-bridge")).toBe(false);
    expect(modifierCompound("self-pollination")).toBe(false);
    expect(modifierCompound("x-ray")).toBe(false);
    expect(modifierCompound("RNA-binding proteins")).toBe(false);
    expect(modifierCompound("temperature")).toBe(false);
  });
});

describe("leadInGivesAway: a lead-in naming the reversed word gives the error away", () => {
  it("refuses notes on prokaryotes that say eukaryotes (OpenStax Biology 14.4, 4.3)", () => {
    expect(leadInGivesAway("DNA replication in prokaryotes", { from: "prokaryotes", to: "eukaryotes" })).toBe(
      true,
    );
    expect(leadInGivesAway("eukaryotic cells", { from: "eukaryotic", to: "prokaryotic" })).toBe(true);
    expect(leadInGivesAway("carbohydrates", { from: "insoluble", to: "soluble" })).toBe(false);
  });

  it("the same for Physics and NCERT-style lead-ins", () => {
    expect(leadInGivesAway("elastic collisions", { from: "elastic", to: "inelastic" })).toBe(true);
    // OpenStax Physics 8.3: a lead-in naming both words gives neither away.
    expect(leadInGivesAway("elastic and inelastic collisions", { from: "elastic", to: "inelastic" })).toBe(
      false,
    );
    expect(leadInGivesAway("series circuits", { from: "parallel", to: "series" })).toBe(false);
    // NCERT-style: "Notes on aerobic respiration: … in the absence of oxygen …"
    expect(leadInGivesAway("aerobic respiration", { from: "aerobic", to: "anaerobic" })).toBe(true);
  });
});

describe("mainSections: a topic names its own section, not a neighbour sharing its words", () => {
  const chunk = (section: string) => ({ sectionPath: `Chapter ${section.split(".")[0]} > ${section}` });
  it("takes 10.2 The Cell Cycle, not 10.4 Cell Cycle Checkpoints (round 14 readers: off-section items)", () => {
    const chunks = [
      chunk("10.4 Cell Cycle Checkpoints"),
      chunk("10.2 The Cell Cycle"),
      chunk("10.2 The Cell Cycle"),
      chunk("10.4 Cell Cycle Checkpoints"),
    ];
    expect([...mainSections(chunks, "The Cell Cycle")]).toEqual(["Chapter 10 > 10.2 The Cell Cycle"]);
    expect([...mainSections(chunks, "10.4 Cell Cycle Checkpoints")]).toEqual([
      "Chapter 10 > 10.4 Cell Cycle Checkpoints",
    ]);
  });

  it("the same in Physics and an NCERT-style chapter; a section number the passages lack is ignored", () => {
    const phys = [
      chunk("2.7 Motion Equations for Constant Acceleration in One Dimension"),
      chunk("2.4 Acceleration"),
    ];
    expect([...mainSections(phys, "Acceleration")]).toEqual(["Chapter 2 > 2.4 Acceleration"]);
    const ncert = [chunk("10.1 Cell Cycle"), chunk("10.2 M Phase"), chunk("10.3 Significance of Cell Cycle")];
    expect([...mainSections(ncert, "9.1 Cell Cycle")]).toEqual(["Chapter 10 > 10.1 Cell Cycle"]);
  });
});

describe("compare-siblings: no shared kind of another sort than both names", () => {
  it("reads 'expression' (of operons) as of another sort than repressors and activators (OpenStax Biology 16.2)", () => {
    expect(kindClash({ name: "expression" }, { name: "repressors" })).toBe(true);
    expect(kindClash({ name: "expression" }, { name: "activators" })).toBe(true);
    // The form still builds from a passage naming them (the rule refuses only the clashing kind).
    const text = [
      "### Prokaryotic Gene Regulation",
      "",
      "Repressors and activators regulate the expression of operons. Repressors bind to an operator region to block the action of RNA polymerase. Activators bind to the promoter to enhance the binding of RNA polymerase.",
    ].join("\n");
    const env = {
      kb: buildKnowledge([testChunk(text, 0, "16.2 Prokaryotic Gene Regulation", "bio")]),
      slot: { ...rememberMcqSlot, type: "short" as const, bloomLevel: "Understand" as const, marks: 3 },
      random: mulberry32(3),
      keyAt: 0,
      used: new Set<string>(),
    };
    const answers = [...compareSiblings.build(env)].map((q) => (q.type === "mcq" ? "" : q.suggestedAnswer));
    expect(answers.some((a) => /expression of operons/.test(a))).toBe(false);
  });

  it("keeps a kind of the names' own sort in both books", () => {
    expect(kindClash({ name: "glands" }, { name: "pituitary gland" })).toBe(false);
    expect(kindClash({ name: "friction" }, { name: "kinetic friction" })).toBe(false);
    // NCERT-style: "aerobic and anaerobic respiration are both kinds of respiration".
    expect(kindClash({ name: "respiration" }, { name: "anaerobic respiration" })).toBe(false);
  });
});

describe("formOfStemWord: no option that the stem names in another form", () => {
  it("refuses 'Anurans' for a stem naming the order Anura (OpenStax Biology 29.3)", () => {
    const stem = 'Amphibians that belong to the order Anura or Salientia ("jumpers") are called ________.';
    const words = stem.toLowerCase().match(/\p{L}+/gu) ?? [];
    expect(formOfStemWord("Anurans", words)).toBe(true);
    expect(formOfStemWord("salamanders", words)).toBe(false);
    expect(formOfStemWord("Caecilians", words)).toBe(false);
  });

  it("keeps Physics and NCERT-style options that only share a short root", () => {
    const phys = "The rate of change of velocity is called ________.".toLowerCase().match(/\p{L}+/gu) ?? [];
    expect(formOfStemWord("displacement", phys)).toBe(false);
    expect(formOfStemWord("force", phys)).toBe(false);
    // NCERT-style: "Cold-blooded vertebrates of class Amphibia are called ________." names "amphibians".
    const ncert =
      "Cold-blooded vertebrates of class Amphibia are called ________.".toLowerCase().match(/\p{L}+/gu) ?? [];
    expect(formOfStemWord("amphibians", ncert)).toBe(true);
    expect(formOfStemWord("reptiles", ncert)).toBe(false);
  });
});
