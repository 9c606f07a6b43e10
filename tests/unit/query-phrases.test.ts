import { describe, expect, it } from "vitest";
import { phraseEvidence } from "@/lib/retrieval/calibrate";
import { queryPhrases } from "@/lib/retrieval/query-phrases";

const texts = (q: string) => queryPhrases(q).map((p) => p.text);

describe("queryPhrases", () => {
  it("pairs neighbouring content words, with at most one stop word between", () => {
    expect(texts("What is opportunity cost?")).toEqual(["opportunity cost"]);
    expect(texts("Explain supply and demand equilibrium")).toEqual([
      "explain supply",
      "supply and demand",
      "demand equilibrium",
    ]);
    expect(texts("major rivers of South America")).toEqual([
      "major rivers",
      "rivers of south",
      "south america",
    ]);
    // Two stop words between: no phrase.
    expect(texts("energy is of the mass")).toEqual([]);
  });

  it("never joins words across punctuation or an exam question's options", () => {
    expect(texts("Which organelle makes ATP? A) mitochondria B) ribosome C) nucleus D) vacuole")).toEqual([
      "organelle makes",
      "makes atp",
    ]);
    expect(texts("kinetic energy, potential energy")).toEqual(["kinetic energy", "potential energy"]);
    // A hyphenated word is its two words: the passage's "light-dependent" holds the query's "light dependent".
    expect(queryPhrases("the light-dependent reactions").map((p) => p.key)).toEqual([
      "light depend",
      "depend reaction",
    ]);
    expect(texts("(a) plasma membrane (b) cell wall")).toEqual(["plasma membrane", "cell wall"]);
  });

  it("skips numbers, short words and repeats of one stem", () => {
    expect(texts("A 2 kg mass is lifted 5 m")).toEqual(["mass is lifted"]);
    expect(texts("cells cell division")).toEqual(["cell division"]);
    expect(queryPhrases("a b c d e f g h i j k l m n o p q r s t u v w x y z " + "word ".repeat(40))).toEqual(
      [],
    );
  });

  it("caps the number of phrases", () => {
    const long = Array.from({ length: 40 }, (_, i) => `alpha${String.fromCharCode(97 + (i % 26))}x`).join(
      " ",
    );
    expect(queryPhrases(long, 5)).toHaveLength(5);
  });
});

describe("phraseEvidence", () => {
  const word = (w: string, df: number) => ({
    word: w,
    specificity: 0.5,
    df,
    bgDf: 0,
    inBest: false,
    hits: [],
  });
  const phrase = (text: string, a: string, b: string, df: number, bgDf = 0) => ({
    phrase: text,
    words: [a, b] as [string, string],
    df,
    bgDf,
  });

  it("counts phrases whose two words the scope uses but never together", () => {
    const e = phraseEvidence({
      words: [word("opportunity", 3), word("cost", 40)],
      phrases: [phrase("opportunity cost", "opportunity", "cost", 0)],
    });
    expect(e).toEqual({ absent: 1, foreign: 0 });
  });

  it("gives the in-scope value 0 when the scope holds the phrase, or has no phrase to judge", () => {
    expect(
      phraseEvidence({
        words: [word("kinetic", 50), word("energy", 400)],
        phrases: [phrase("kinetic energy", "kinetic", "energy", 44)],
      }),
    ).toEqual({ absent: 0, foreign: 0 });
    expect(phraseEvidence({ words: [word("osmosis", 30)], phrases: [] })).toEqual({ absent: 0, foreign: 0 });
    expect(phraseEvidence({ words: [word("osmosis", 30)] })).toEqual({ absent: 0, foreign: 0 });
  });

  it("leaves a phrase with a word the scope never uses to `absent`, and marks the background's phrases foreign", () => {
    const e = phraseEvidence({
      words: [
        word("ladder", 0),
        word("operators", 2),
        word("light", 300),
        word("dependent", 20),
        word("reactions", 40),
      ],
      phrases: [
        phrase("ladder operators", "ladder", "operators", 0),
        phrase("light dependent", "light", "dependent", 0, 12),
        phrase("dependent reactions", "dependent", "reactions", 3),
      ],
    });
    // Two phrases count ("ladder" is absent's evidence); one of them is absent, and the background uses it.
    expect(e.absent).toBeGreaterThan(0.3);
    expect(e.absent).toBeLessThan(0.7);
    expect(e.foreign).toBe(e.absent);
  });
});
