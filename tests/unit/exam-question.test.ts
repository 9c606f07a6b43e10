import { describe, expect, it } from "vitest";
import {
  askingWords,
  focusWordsOf,
  keyPhraseWords,
  numericQuantities,
  optionAgreement,
  readExamQuestion,
} from "@/lib/steps/plan/exam";

describe("readExamQuestion", () => {
  it("reads a pasted MCQ: stem, options, scaffolding removed", () => {
    const q = readExamQuestion(
      "Which of the following statements about enzymes is correct? A) they are used up B) they lower activation energy C) they are lipids D) they raise activation energy",
    );
    expect(q?.cues).toEqual(expect.arrayContaining(["options", "stem-cue", "question"]));
    expect(q?.stem).toBe("Which of the following statements about enzymes is correct?");
    expect(q?.options).toHaveLength(4);
    expect(q?.focusWords).toEqual(["enzymes"]);
  });

  it("drops numbering and marks and keeps the topic of a fill-in-the-blank", () => {
    const q = readExamQuestion("Q3. The first forms of life on Earth were ________. (1 mark)");
    expect(q?.cues).toEqual(expect.arrayContaining(["numbering", "marks", "blank"]));
    expect(q?.stem).toBe("The first forms of life on Earth were ________.");
    expect(q?.focusWords).toEqual(["first", "forms", "life", "earth"]);
    expect(readExamQuestion("12) Define osmosis. [2 marks]")?.stem).toBe("Define osmosis.");
    expect(readExamQuestion("Explain the role of ATP in muscle contraction (3 marks)")?.cues).toEqual([
      "marks",
    ]);
  });

  it("turns a numeric problem into the quantities it is about", () => {
    const q = readExamQuestion("A 2 kg mass accelerates at 3 m/s². What net force acts on it?");
    expect(q?.cues).toContain("numeric");
    expect(q?.quantities).toEqual(expect.arrayContaining(["mass", "acceleration"]));
    // Numbers and units are not searched.
    expect(q?.focusWords).not.toContain("kg");
    expect(q?.focusWords.some((w) => /\d/.test(w))).toBe(false);

    expect(
      readExamQuestion(
        "A motor does 600 J of work in 3 s. What is its power? A) 200 W B) 1800 W C) 600 W D) 3 W",
      )?.quantities,
    ).toEqual(["energy", "work", "time", "power"]);
  });

  it("reads unit case as written (V volts, A amperes, m metres, N newtons)", () => {
    expect(numericQuantities("A 12 V battery drives 3 A. What is the resistance?")).toEqual([
      "voltage",
      "potential",
      "current",
      "resistance",
    ]);
    expect(numericQuantities("A 0.5 kg ball at 10 m/s is stopped.", ["5 N s", "20 N s"])).toEqual(
      expect.arrayContaining(["mass", "speed", "momentum", "impulse"]),
    );
    // Counts of things are not quantities with units.
    expect(numericQuantities("In a population of 100 people, what is the frequency of the allele?")).toEqual(
      [],
    );
  });

  it("leaves topics, terms and requests alone", () => {
    expect(readExamQuestion("photosynthesis")).toBeNull();
    expect(readExamQuestion("Explain how the nephron filters blood")).toBeNull();
    expect(readExamQuestion("the light reactions of photosynthesis")).toBeNull();
    // Nothing but scaffolding: no topic to search.
    expect(readExamQuestion("Which of the following is correct?")).toBeNull();
  });

  it("reads a punctuated command as an exam task, not an unpunctuated objective", () => {
    const q = readExamQuestion("Describe the structure and complementary base pairing of DNA.");
    expect(q?.cues).toEqual(["task"]);
    expect(q?.focusWords).toEqual(["structure", "complementary", "base", "pairing", "dna"]);
    // The command may follow a scenario, after a full stop or a comma.
    expect(
      readExamQuestion(
        "Aquaporins are proteins embedded in the plasma membrane. Based on their location, describe the shape of the protein.",
      )?.cues,
    ).toContain("task");
    expect(
      readExamQuestion("Compare and contrast saturated and unsaturated triglycerides.")?.focusWords,
    ).toEqual(["saturated", "unsaturated", "triglycerides"]);
    // A learning objective or a search is typed without the full stop: not an exam task.
    expect(readExamQuestion("Explain how the nephron filters blood")).toBeNull();
    expect(readExamQuestion("Describe the identifying features of the major cnidarian classes")).toBeNull();
    // A statement with no command word is no task.
    expect(readExamQuestion("Plants disperse their seeds in many ways.")).toBeNull();
  });

  it("strips the choice vocabulary but never a subject word", () => {
    expect(focusWordsOf("Which statement best describes the function of the cell membrane?")).toEqual([
      "function",
      "cell",
      "membrane",
    ]);
    expect(focusWordsOf("All of the following are true of mitochondria EXCEPT:")).toEqual(["mitochondria"]);
  });
});

describe("optionAgreement", () => {
  it("keeps the words two or more options share, not the stem's, most shared first", () => {
    expect(
      optionAgreement(
        [
          "Acids and bases cannot mix together.",
          "Acids and bases will neutralize each other.",
          "Acids, but not bases, can change the pH of a solution.",
          "Acids don't change pH.",
        ],
        ["statements"],
      ),
    ).toEqual(["acids", "bases", "change", "ph"]);
    // Options that share nothing add nothing; one option is no agreement.
    expect(optionAgreement(["ribosome", "mitochondrion", "nucleus", "vacuole"], [])).toEqual([]);
    expect(optionAgreement(["haploid cells"], [])).toEqual([]);
    // A word the stem already has is not added again.
    expect(optionAgreement(["in more males", "in more females", "in males and females"], ["males"])).toEqual([
      "females",
    ]);
  });

  it("lets a stem with no topic of its own be searched by what its options agree on", () => {
    const q = readExamQuestion(
      "Which of the following is true? A) Acids and bases cannot mix B) Acids neutralize bases C) Bases are acids D) none",
    );
    expect(q?.focusWords).toEqual([]);
    expect(q?.agreedWords).toEqual(["acids", "bases"]);
  });
});

describe("keyPhraseWords (a long question's scope-rarest words)", () => {
  const df = new Map([
    ["farmer", 3],
    ["raises", 40],
    ["black", 25],
    ["white", 30],
    ["chickens", 2],
    ["speckles", 0],
    ["codominance", 6],
    ["feathers", 5],
  ]);
  const words = focusWordsOf(
    "A farmer raises black and white chickens. All the chickens are black with white speckles throughout their feathers; is it codominance?",
  );

  it("keeps the k rarest words the scope uses, in the question's order", () => {
    expect(keyPhraseWords(words, df, 3)).toEqual(["farmer", "chickens", "feathers"]);
    expect(keyPhraseWords(words, df, 4)).toEqual(["farmer", "chickens", "feathers", "codominance"]);
  });

  it("leaves out words the scope never uses and words it does not know", () => {
    expect(keyPhraseWords(["speckles", "unknownword", "black"], df, 4)).toEqual(["black"]);
    expect(keyPhraseWords([], df, 4)).toEqual([]);
  });

  it("breaks ties by the question's order and counts a repeated word once", () => {
    const tie = new Map([
      ["a1", 2],
      ["b1", 2],
      ["c1", 2],
    ]);
    expect(keyPhraseWords(["c1", "a1", "c1", "b1"], tie, 2)).toEqual(["c1", "a1"]);
  });
});

describe("askingWords (the asking sentence of a stem that sets a scene first)", () => {
  it("keeps the asking sentence's content words after a scenario", () => {
    const stem =
      "Glucose from digested food enters intestinal epithelial cells by active transport. Why would intestinal cells use active transport when most body cells use facilitated diffusion?";
    const q = readExamQuestion(stem);
    expect(q?.askWords).toEqual([
      "intestinal",
      "cells",
      "use",
      "active",
      "transport",
      "body",
      "facilitated",
      "diffusion",
    ]);
    expect(askingWords(stem, focusWordsOf(stem))).toEqual(q?.askWords);
  });

  it("reads a command sentence as asking", () => {
    const stem =
      "Eukaryotic chromosomes are thousands of times longer than a typical cell. Explain how chromosomes can fit inside a eukaryotic nucleus.";
    expect(askingWords(stem, focusWordsOf(stem))).toEqual([
      "chromosomes",
      "fit",
      "inside",
      "eukaryotic",
      "nucleus",
    ]);
  });

  it("is empty for one sentence, for stems that only ask, and for an asking sentence without a topic", () => {
    const one = "Why does water move through a membrane?";
    expect(askingWords(one, focusWordsOf(one))).toEqual([]);
    const allAsk = "What is osmosis? Why does water move through a membrane?";
    expect(askingWords(allAsk, focusWordsOf(allAsk))).toEqual([]);
    const bare =
      "Many people use antimicrobial soap to kill bacteria on their hands. However, overuse may increase the risk of infection. How could this occur?";
    expect(askingWords(bare, focusWordsOf(bare))).toEqual([]);
  });
});

describe("written-question scaffolding (wave 14)", () => {
  it("drops the words a written question wraps around its topic", () => {
    expect(focusWordsOf("What is the difference between extant and extinct?")).toEqual(["extant", "extinct"]);
    expect(focusWordsOf("What would happen if the stomata did not function correctly?")).toEqual([
      "stomata",
      "function",
      "correctly",
    ]);
    expect(focusWordsOf("Provide a brief summary of the main ways seeds are dispersed.")).toEqual([
      "brief",
      "summary",
      "seeds",
      "dispersed",
    ]);
  });
});
