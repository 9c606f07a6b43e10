import { describe, expect, it } from "vitest";
import { classifyQuery } from "@/lib/retrieval/classify";
import {
  decompose,
  feedbackVariant,
  headingVariant,
  hypotheticalPassage,
  splitMcqOptions,
  synonymVariant,
} from "@/lib/steps/plan/variants";

describe("splitMcqOptions", () => {
  it("splits labelled options in order, in several label styles", () => {
    expect(
      splitMcqOptions("The first forms of life were: a. plants b. microorganisms c. birds d. dinosaurs"),
    ).toEqual({
      stem: "The first forms of life were:",
      options: ["plants", "microorganisms", "birds", "dinosaurs"],
    });
    expect(splitMcqOptions("Which is a lipid?\n(A) glucose\n(B) cholesterol\n(C) glycine")?.options).toEqual([
      "glucose",
      "cholesterol",
      "glycine",
    ]);
    expect(splitMcqOptions("Pick one: i) DNA ii) RNA iii) ATP iv) NADH")?.options).toHaveLength(4);
  });

  it("leaves questions without a run of three options alone", () => {
    expect(splitMcqOptions("Compare (a) mitosis and (b) meiosis")).toBeNull();
    expect(splitMcqOptions("What is vitamin A? Is vitamin C. the same")).toBeNull();
    expect(splitMcqOptions("A) B) C)")).toBeNull();
  });
});

describe("decompose", () => {
  it("splits comparisons, multi-part stems and several questions", () => {
    expect(decompose("Compare mitosis and meiosis", classifyQuery("Compare mitosis and meiosis"))).toEqual([
      "mitosis",
      "meiosis",
    ]);
    const multi =
      "Photosynthesis: (a) where do the light reactions happen (b) what does the Calvin cycle produce";
    const subs = decompose(multi, classifyQuery(multi));
    expect(subs).toHaveLength(2);
    expect(subs[0]).toMatch(/^photosynthesis where do the light reactions happen/i);
    const two = "What is a codon? How does a ribosome read the genetic code?";
    expect(decompose(two, classifyQuery(two))).toHaveLength(2);
    expect(decompose("What is osmosis?", classifyQuery("What is osmosis?"))).toEqual([]);
  });
});

const DOCS = [
  "Osmosis is the movement of water across a semipermeable membrane. Water moves toward the higher solute concentration.",
  "In a hypotonic solution water enters the cell by osmosis and the cell may burst. Tonicity describes how a solution affects cell volume.",
  "Diffusion of solutes across the membrane is passive transport. Osmosis is a special case of diffusion of water.",
];

describe("variants from the first results", () => {
  it("feedback adds terms that recur in the passages and are new", () => {
    const v = feedbackVariant("osmosis", DOCS, 2);
    expect(v).toMatch(/^osmosis \S+/);
    expect(v!.split(" ").filter((w) => w === "osmosis")).toHaveLength(1);
    expect(feedbackVariant("osmosis", DOCS.slice(0, 1), 2)).toBeNull();
  });

  it("synonyms must be attested in the passages", () => {
    const syn = (w: string) => (w === "water" ? ["H2O", "body of water", "solute"] : []);
    expect(synonymVariant("water movement", ["water", "movement"], syn, DOCS, 3)).toBe(
      "water movement solute",
    );
    expect(synonymVariant("water", ["water"], () => ["ocean"], DOCS, 3)).toBeNull();
  });

  it("the hypothetical passage is the key sentences, without near-duplicates, within limits", () => {
    const p = hypotheticalPassage("how does water cross the membrane by osmosis", DOCS, {
      maxSentences: 2,
      maxChars: 400,
    });
    expect(p).not.toBeNull();
    expect(p!.length).toBeLessThanOrEqual(400);
    expect(p).toMatch(/Osmosis is the movement of water across a semipermeable membrane\./);
    expect(hypotheticalPassage("quasar", DOCS, { maxSentences: 3, maxChars: 500 })).toBeNull();
  });

  it("heading terms come from headings that share a word with the query", () => {
    const v = headingVariant(
      "short term methods that prevent pregnancy",
      [
        "Chapter 43: Reproduction > 43.5 Human Pregnancy and Birth > Contraception and Birth Control",
        "Chapter 1 > 1.1 Science",
      ],
      2,
    );
    expect(v).toMatch(/human birth/i);
    expect(headingVariant("osmosis", ["Chapter 1 > 1.1 Science"], 2)).toBeNull();
  });
});
