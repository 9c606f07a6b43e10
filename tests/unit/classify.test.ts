import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bloomVerbs, classifyQuery, TYPE_PROFILES } from "@/lib/retrieval/classify";
import type { EQueryType } from "@/types/retrieval.types";

/** [query, expected type, expected searchText (undefined = not checked)] */
const TABLE: [string, EQueryType, string?][] = [
  // definitions and term lookups
  ["What is osmosis?", "lookup", "osmosis"],
  ["Define refraction", "lookup", "refraction"],
  ["What does biotechnology mean?", "lookup", "biotechnology"],
  ["meaning of homology", "lookup", "homology"],
  ["emerging disease definition", "lookup", "emerging disease"],
  ["What do you mean by inertia?", "lookup", "inertia"],
  ["What is meant by the term valency?", "lookup", "valency"],
  ["reverse transcriptase", "lookup", "reverse transcriptase"],
  ["sieve-tube cell", "lookup", "sieve-tube cell"],
  ["Newton's second law", "lookup", "Newton's second law"],
  ["Explain glycogen", "lookup", "glycogen"],
  ["State Ohm's law", "lookup", "Ohm's law"],
  ["What is the SI unit of force?", "lookup", "SI unit of force"],
  ["Who discovered penicillin?", "lookup", "penicillin"],
  ["What is the term for: the bending of light as it passes from one medium to another?", "lookup"],
  ["organism that grows at temperatures of -15 °C or lower - what is this called?", "lookup"],
  ["Name the process by which plants make their food", "lookup", "process by which plants make their food"],
  // explanations
  ["Why is the sky blue?", "concept"],
  ["How does a transformer work?", "concept"],
  [
    "Explain how the nephron filters blood and generates urine",
    "concept",
    "how the nephron filters blood and generates urine",
  ],
  ["Describe the Calvin cycle", "concept", "the Calvin cycle"],
  ["Discuss positive and negative feedback mechanisms used in homeostasis", "concept"],
  ["What are the functions of the liver?", "concept"],
  ["What happens when light passes through a prism?", "concept"],
  // numericals and procedures
  ["Calculate the acceleration of a car that goes from 0 to 20 m/s in 5 s", "procedure"],
  ["A ball is thrown upward with a speed of 15 m/s. How high does it go?", "procedure"],
  ["How to calculate resistance in a parallel circuit", "procedure"],
  ["Derive the equations of motion", "procedure"],
  ["Steps to balance a chemical equation", "procedure"],
  // comparisons
  ["Difference between speed and velocity", "compare", "speed and velocity"],
  ["speed vs velocity", "compare", "speed and velocity"],
  ["Compare and contrast prokaryotic and eukaryotic cells", "compare", "prokaryotic and eukaryotic cells"],
  ["Differentiate between series and parallel circuits", "compare", "series and parallel circuits"],
  ["How do plants and animals differ in their cell structure?", "compare"],
  // question requests, many phrasings
  ["Generate 10 MCQs on Photosynthesis", "generate", "Photosynthesis"],
  [
    "Create 4 short-answer questions that ask students to explain why the sky is blue",
    "generate",
    "why the sky is blue",
  ],
  ["Make a quiz on chapter 5", "generate", "chapter 5"],
  ["case-based questions on electricity", "generate", "electricity"],
  ["Write 8 application-based problems about projectile motion", "generate", "projectile motion"],
  ["photosynthesis MCQs", "generate", "photosynthesis"],
  ["I need a worksheet on fractions", "generate", "fractions"],
  ["Give 5 fill in the blanks on cell organelles", "generate", "cell organelles"],
  ["Can you make 3 HOTS questions about work and energy?", "generate", "work and energy"],
  [
    "Create a 10-question quiz covering the chapter The Respiratory System",
    "generate",
    "The Respiratory System",
  ],
  [
    "Generate 4 MCQs to test whether students can describe gel electrophoresis",
    "generate",
    "gel electrophoresis",
  ],
  [
    "Make a 6-question worksheet where students discuss natural killer cells",
    "generate",
    "natural killer cells",
  ],
  ["Write 6 exam questions: explain the differences between meiosis and mitosis", "generate"],
  ["Prepare 4 conceptual questions explaining Biogeochemical Cycles", "generate", "Biogeochemical Cycles"],
  [
    "Make 5 questions asking students to evaluate and justify claims about Cancer and the Cell Cycle",
    "generate",
  ],
  ["numericals on Ohm's law", "generate", "Ohm's law"],
  // exam stems
  ["Which of the following is NOT a function of the cell membrane?", "general"],
  ["The cell membrane of a muscle fiber is called a ________.", "general"],
  [
    "People with the CCR5Δ32 mutation of a T-cell surface protein can be exposed to some strains of HIV-1 without becoming sick. What step of the virus life cycle is likely to be inhibited with this mutation?",
    "general",
  ],
  ["Organisms most likely to be found in extreme environments are ________.", "general"],
];

describe("classifyQuery: table of teacher and student queries", () => {
  it("has at least 40 rows", () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(40);
  });
  it.each(TABLE)("%s → %s", (query, type, searchText) => {
    const c = classifyQuery(query);
    expect(c.type).toBe(type);
    if (searchText !== undefined) expect(c.searchText).toBe(searchText);
    expect(c.reasons.length).toBeGreaterThan(0);
    expect(c.searchText.trim().length).toBeGreaterThan(0);
    expect(c.rerankGuidelines.length).toBeGreaterThan(20);
  });
});

describe("classifyQuery: derived knobs", () => {
  it("maps types to alpha: keyword-heavy lookups, vector-heavy concepts", () => {
    expect(classifyQuery("What is osmosis?").alpha).toBeCloseTo(TYPE_PROFILES.lookup.alpha);
    expect(classifyQuery("Explain how enzymes lower activation energy").alpha).toBeCloseTo(
      TYPE_PROFILES.concept.alpha,
    );
    expect(TYPE_PROFILES.lookup.alpha).toBeLessThan(TYPE_PROFILES.concept.alpha);
    expect(TYPE_PROFILES.concept.adjacentWindow).toBe(2);
    expect(TYPE_PROFILES.lookup.adjacentWindow).toBe(0);
  });

  it("reverse lookups (definition given, term withheld) lean on vectors", () => {
    const c = classifyQuery(
      "What is the term for: virus that remains in the body for a long period of time?",
    );
    expect(c.type).toBe("lookup");
    expect(c.alpha).toBeGreaterThan(0.5);
    expect(c.searchText).toBe("virus that remains in the body for a long period of time");
  });

  it("reads count, question type, chapter and Bloom level from a generate request", () => {
    const c = classifyQuery("Write 5 case-based questions on chapter 3: Acceleration with answers");
    expect(c).toMatchObject({
      type: "generate",
      requestedCount: 5,
      requestedQuestionType: "case",
      chapterRef: 3,
      scope: "chapter",
      broad: true,
      searchText: "Acceleration",
    });
    expect(classifyQuery("Generate ten MCQs on osmosis")).toMatchObject({
      requestedCount: 10,
      requestedQuestionType: "mcq",
    });
    expect(
      classifyQuery("Please generate 10 long-answer questions on the whole chapter Thermodynamics"),
    ).toMatchObject({
      requestedQuestionType: "long",
      scope: "chapter",
      searchText: "Thermodynamics",
    });
    expect(classifyQuery("Create 3 short-answer questions on enzymes").requestedQuestionType).toBe("short");
  });

  it("does not read marks or grades as a question count", () => {
    const c = classifyQuery("Set a 20-mark test on Light for grade 8");
    expect(c.type).toBe("generate");
    expect(c.requestedCount).toBeUndefined();
    expect(c.searchText).toBe("Light");
  });

  it("takes the Bloom hint from the objective verb or the request wording", () => {
    expect(classifyQuery("Write 15 higher-order questions on Photosynthesis").bloomHint).toBe("Analyze");
    expect(classifyQuery("Write 4 application-based problems on Population Genetics").bloomHint).toBe(
      "Apply",
    );
    expect(
      classifyQuery("Generate 3 MCQs to test whether students can classify muscle tissue").bloomHint,
    ).toBe("Understand");
    expect(
      classifyQuery(
        "Create 5 questions in which students design an experiment or model about Prokaryotic Metabolism",
      ).bloomHint,
    ).toBe("Create");
    expect(
      classifyQuery("Make 4 questions asking students to evaluate and justify claims about The Soil")
        .bloomHint,
    ).toBe("Evaluate");
    expect(classifyQuery("Generate 5 MCQs on Cell Reproduction").bloomHint).toBe("Remember");
    expect(classifyQuery("Calculate the momentum of a 2 kg ball moving at 3 m/s").bloomHint).toBe("Apply");
    expect(classifyQuery("Compare mitosis and meiosis").bloomHint).toBe("Analyze");
  });

  it("marks a request on a known chapter name as chapter-wide and broad", () => {
    const chapters = [
      { number: 8, name: "Photosynthesis" },
      { number: 9, name: "Cell Communication" },
    ];
    const c = classifyQuery("Generate 10 MCQs on Photosynthesis", { chapters });
    expect(c).toMatchObject({ scope: "chapter", chapterRef: 8, broad: true });
    expect(c.fanoutMultiplier).toBeGreaterThan(TYPE_PROFILES.generate.fanoutMultiplier);
    const section = classifyQuery("Generate 10 MCQs on The Light-Dependent Reactions", { chapters });
    expect(section.broad).toBe(false);
    expect(section.scope).toBe("topic");
  });

  it("keeps topic terms free of instruction words", () => {
    const c = classifyQuery(
      "Create 8 short-answer questions to check students' understanding of Eukaryotic Cells",
    );
    expect(c.topicTerms).toEqual(["eukaryotic", "cells"]);
    expect(
      classifyQuery("Generate 10 questions that ask students to compare and contrast ideas in Lipids")
        .topicTerms,
    ).toEqual(["lipids"]);
  });

  it("includes the Bloom level in the reranker guidelines", () => {
    expect(classifyQuery("Write 15 higher-order questions on Photosynthesis").rerankGuidelines).toContain(
      "Analyze",
    );
  });

  it("lists Bloom verbs per level", () => {
    expect(bloomVerbs("Apply")).toContain("calculate");
    expect(bloomVerbs("Analyze")).toContain("compare");
  });

  it("is deterministic and total on arbitrary input", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => {
        const a = classifyQuery(s);
        expect(classifyQuery(s)).toEqual(a);
        expect(a.alpha).toBeGreaterThanOrEqual(0);
        expect(a.alpha).toBeLessThanOrEqual(1);
        expect([0, 1, 2]).toContain(a.adjacentWindow);
        expect(a.fanoutMultiplier).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 300 },
    );
  });
});
