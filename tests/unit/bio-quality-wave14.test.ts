import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  describedAlike,
  glossGenus,
  kindClash,
  kindOfOther,
  mulberry32,
  notATerm,
} from "@/lib/generation/offline/forms/common";
import { definitionMcq, definitionPrompt, groupByTrait } from "@/lib/generation/offline/forms/recall";
import { fragmentReason } from "@/lib/generation/offline/forms/statements";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import { linkConcepts, termKey } from "@/lib/generation/offline/knowledge/lexicon";
import type { IContextChunk, TQuestion } from "@/types/generation.types";
import { rememberMcqSlot as slot } from "../support/form-slots";
import { testSentence } from "../support/sentence";

/** The app's seeded demo chapter (OpenStax Biology 2e, chapter 4), one chunk per paragraph. */
function demoChapter(): IContextChunk[] {
  const md = readFileSync("supabase/seed/demo/biology-2e/ch04-cell-structure.md", "utf8");
  const chunks: IContextChunk[] = [];
  let section = "";
  let heads: string[] = [];
  for (const block of md.split(/\n\n+/)) {
    const m = /^(#+)\s+(.*)$/.exec(block.trim());
    if (m) {
      const level = m[1]!.length;
      if (level === 2) {
        section = m[2]!;
        heads = [];
      } else if (level > 2) {
        heads = heads.slice(0, level - 3);
        heads[level - 3] = m[2]!;
      }
      continue;
    }
    if (!section) continue;
    chunks.push({
      documentId: "demo",
      chunkIndex: chunks.length,
      title: "Biology 2e",
      content: (heads.length > 0 ? `### ${heads.at(-1)}\n\n` : "") + block,
      sectionPath: ["Chapter 4", section, ...heads].join(" > "),
    } as IContextChunk);
  }
  return chunks;
}

const options = (q: TQuestion) => (q.type === "mcq" ? q.options : []);

describe("the demo chapter's definition item (teacher walk, 4-review.png)", () => {
  it("never offers 'Peroxisomes' for 'the building blocks of proteins'", () => {
    const chapter = demoChapter();
    const selected = chapter.filter(
      (c) =>
        (c.sectionPath ?? "").includes("4.3") &&
        /Ribosomes|Peroxisomes|Lysosomes|Vacuole|Section Summary/.test(c.sectionPath ?? ""),
    );
    const kb = buildKnowledge(selected, chapter);
    expect(kb.terms.some((t) => t.term === "amino acids")).toBe(true);
    for (let seed = 0; seed < 6; seed++) {
      const env = { kb, slot, random: mulberry32(seed), keyAt: 1, used: new Set<string>() };
      for (const q of definitionMcq.build(env)) {
        const opts = options(q).map((o) => o.toLowerCase());
        if (opts.includes("amino acids")) expect(opts).not.toContain("peroxisomes");
      }
    }
  });
});

describe("linkConcepts: a list's first member is read from its end, not the sentence's subject", () => {
  const concepts = (names: string[]) =>
    names.map((name) => ({ name, genus: "", head: termKey(name), plural: true, source: "phrase" as const }));
  const siblingsOf = (text: string, names: string[], of: string) => [
    ...(linkConcepts([testSentence(text)], concepts(names), []).siblings.get(termKey(of)) ?? []),
  ];

  it("OpenStax Biology: the subject that acts on a list is no member of it", () => {
    const names = ["peroxisomes", "fatty acids", "amino acids", "toxins"];
    const sib = siblingsOf(
      "Peroxisomes hydrolyze fatty acids, amino acids, and some toxins.",
      names,
      "amino acids",
    );
    expect(sib).toContain(termKey("fatty acids"));
    expect(sib).not.toContain(termKey("peroxisomes"));
  });

  it("OpenStax Physics and NCERT-style wording", () => {
    // OpenStax College Physics 33: "Hadrons include mesons, baryons, and …" is read by its end too.
    const phys = siblingsOf(
      "Protons carry charge, mass, and spin.",
      ["protons", "charge", "mass", "spin"],
      "mass",
    );
    expect(phys).not.toContain(termKey("protons"));
    expect(phys).toContain(termKey("charge"));
    // NCERT Class 10 "Life Processes" style.
    const ncert = siblingsOf(
      "The kidneys remove urea, uric acid, and excess salts from the blood.",
      ["kidneys", "urea", "uric acid", "salts"],
      "urea",
    );
    expect(ncert).not.toContain(termKey("kidneys"));
    expect(ncert).toContain(termKey("uric acid"));
    // A list that opens the sentence keeps its first member.
    expect(
      siblingsOf("Glucose, fructose, and sucrose are sugars.", ["glucose", "fructose", "sucrose"], "sucrose"),
    ).toContain(termKey("glucose"));
  });
});

describe("glossGenus: a heading's concept takes the genus its gloss states", () => {
  it("reads the head noun of the gloss's genus (Biology, Physics, NCERT-style)", () => {
    const gloss = "Peroxisomes are small, round organelles enclosed by single membranes.";
    expect(glossGenus({ name: "Peroxisomes", gloss })).toBe("organelles");
    expect(
      kindClash(
        { name: "amino acids" },
        { name: "Peroxisomes", genus: glossGenus({ name: "Peroxisomes", gloss }) },
      ),
    ).toBe(true);
    expect(
      glossGenus({ name: "Hadrons", gloss: "Hadrons are particles that feel the strong nuclear force." }),
    ).toBe("particles");
    expect(
      glossGenus({ name: "Stomata", gloss: "Stomata are tiny pores present on the surface of leaves." }),
    ).toBe("pores");
    // A stated genus wins; a gloss that does not define the name says nothing.
    expect(glossGenus({ name: "Lysosomes", genus: "organelle", gloss: "x" })).toBe("organelle");
    expect(
      glossGenus({
        name: "Vacuoles",
        gloss: "In plant cells, vacuoles also help break down macromolecules.",
      }),
    ).toBe("");
  });
});

describe("kindOfOther and notATerm: no option a kind of the key, no option that is no term", () => {
  it("refuses the broader or narrower name (OpenStax Physics 23.2, Biology, NCERT-style)", () => {
    // "Particles with three quarks are called ________." offered "hadrons" (baryons are hadrons).
    expect(kindOfOther("hadrons", "baryons")).toBe(true);
    expect(kindOfOther("mesons", "hadrons")).toBe(true);
    expect(kindOfOther("gluons", "baryons")).toBe(false);
    expect(kindOfOther("enzymes", "proteins")).toBe(true);
    expect(kindOfOther("lipids", "proteins")).toBe(false);
    expect(kindOfOther("arteries", "veins")).toBe(false);
    // NCERT Class 11 "Chemical Coordination": "The pituitary gland …" beside "glands".
    expect(kindOfOther("pituitary gland", "glands")).toBe(true);
    expect(kindOfOther("velocity", "acceleration")).toBe(false);
    expect(kindOfOther("mass", "weight")).toBe(false);
  });

  it("refuses a phrase about words or with a modifier that picks nothing out", () => {
    // OpenStax Physics 8.1: "the product of a system's mass and its velocity" offered
    // "total momentum" and "word momentum" beside linear momentum.
    expect(notATerm("word momentum")).toBe(true);
    expect(notATerm("total momentum")).toBe(true);
    expect(notATerm("other cells")).toBe(true);
    expect(notATerm("linear momentum")).toBe(false);
    expect(notATerm("net force")).toBe(false);
    expect(notATerm("initial velocity")).toBe(false);
    expect(notATerm("alternating current")).toBe(false);
    expect(notATerm("totipotent cells")).toBe(false);
    // NCERT-style: "the term photosynthesis …" gives no option "term photosynthesis".
    expect(notATerm("term photosynthesis")).toBe(true);
    // OpenStax Physics 23.2: "particles called hadrons" offered beside baryons.
    expect(notATerm("particles called hadrons")).toBe(true);
    expect(notATerm("cells known as neurons")).toBe(true);
  });
});

describe("describedAlike: another option's own description also meets the definition stem", () => {
  const kbOf = (texts: string[]) => ({ scopeSentences: texts.map((text) => testSentence(text)) });
  it("arteries and veins are told apart by direction (OpenStax Biology 40.3 style)", () => {
    const kb = kbOf([
      "Veins are blood vessels that bring blood back to the heart.",
      "Veins carry blood toward the heart.",
    ]);
    expect(
      describedAlike(
        kb,
        "veins",
        "blood vessels that carry blood away from the heart",
        "arteries",
        "blood vessels",
      ),
    ).toBe(false);
  });
  it("refuses an option the chapter describes in the definition's words (Biology, Physics, NCERT-style)", () => {
    // OpenStax Biology 29.1: cephalochordates and lancelets, both "suspension feeders that feed on phytoplankton".
    const bio = kbOf(["Tunicates feed on phytoplankton and other microorganisms filtered from the water."]);
    expect(
      describedAlike(
        bio,
        "tunicates",
        "suspension feeders that feed on phytoplankton and other microorganisms",
        "lancelets",
        "feeders",
      ),
    ).toBe(true);
    // OpenStax Physics 23.2 style: mesons "made of a quark and an antiquark" is no baryon.
    const phys = kbOf(["Mesons are made of a quark and an antiquark."]);
    expect(describedAlike(phys, "mesons", "particles made of three quarks", "baryons", "particles")).toBe(
      false,
    );
    // NCERT Class 10 "Life Processes": both openings "allow the exchange of gases" with the air.
    const ncert = kbOf([
      "Lenticels are openings in the bark that allow the exchange of gases with the outside air.",
    ]);
    expect(
      describedAlike(
        ncert,
        "lenticels",
        "tiny openings that allow the exchange of gases with the air",
        "stomata",
        "openings",
      ),
    ).toBe(true);
  });
});

describe("definitionPrompt: definition stems that do not read (a hedge, a plural term after 'a …')", () => {
  it("asks 'What is the term for a stored form of energy?', never 'A stored form … are called' (OpenStax Biology 3.3)", () => {
    expect(definitionPrompt("a stored form of energy", true, true, 0)).toBe(
      "What is the term for a stored form of energy?",
    );
    expect(definitionPrompt("a stored form of energy", true, false, 0)).toBeNull();
    expect(definitionPrompt("a class of macromolecules that are nonpolar", true, true, 0)).toMatch(
      /^What is the term for/,
    );
    expect(definitionPrompt("the building blocks of proteins", true, true, 0)).toBe(
      "The building blocks of proteins are called ________.",
    );
    // OpenStax Physics 7.7: a singular term keeps the cloze.
    expect(definitionPrompt("the rate at which work is done", false, true, 0)).toBe(
      "The rate at which work is done is called ________.",
    );
  });
  it("no stem opening with a hedge (OpenStax Biology 28.3 'The nemerteans are probably simple eucoelomates'; NCERT-style)", () => {
    expect(definitionPrompt("probably simple eucoelomates", true, false, 0)).toBeNull();
    expect(definitionPrompt("usually a complex tissue", false, false, 0)).toBeNull();
    expect(definitionPrompt("a complex tissue", false, true, 1)).toBe(
      "What is the term for a complex tissue?",
    );
  });
});

describe("groupByTrait: no definition item for a group of organisms named by a trait it has", () => {
  it("refuses 'Animals with three tissue layers' (OpenStax Biology 27.1), keeps membership and Physics", () => {
    expect(groupByTrait("animals with three tissue layers", "animal")).toBe(true);
    expect(groupByTrait("animals with a true coelom", "animal")).toBe(true);
    expect(
      groupByTrait("multicellular eukaryotes with tissue systems made of various cell types", "eukaryote"),
    ).toBe(true);
    // NCERT Class 11 "Animal Kingdom": "Animals that possess a notochord …".
    expect(groupByTrait("animals that possess a notochord at some stage", "animal")).toBe(true);
    // Membership, not a trait: other orders cannot also fit.
    expect(groupByTrait("amphibians that belong to the order Urodela", "amphibian")).toBe(false);
    // Not a group of organisms (Biology 4.3, Physics 23.2).
    expect(groupByTrait("the digestive organelles of animal cells", "organelle")).toBe(false);
    expect(groupByTrait("particles with three quarks", "particle")).toBe(false);
  });
});

describe("statement options that lean on the sentence before", () => {
  it("refuses 'Rather, …', 'However, …' openings (OpenStax Biology 25.3; Physics; NCERT-style)", () => {
    expect(
      fragmentReason("Rather, water and nutrients circulate inside specialized conducting cells."),
    ).not.toBeNull();
    expect(fragmentReason("However, the net force on the car is zero.")).not.toBeNull();
    expect(fragmentReason("Moreover, the xylem conducts water from the roots.")).not.toBeNull();
    expect(
      fragmentReason("Bryophytes are the closest extant relatives of early terrestrial plants."),
    ).toBeNull();
  });
});
