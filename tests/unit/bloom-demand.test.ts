import { describe, expect, it } from "vitest";
import { createGateContext, estimateDemand } from "@/lib/generation/gate";
import { estimateDemandOfText } from "@/lib/generation/gate/demand";
import { commandVerb, DEMAND_FEATURES, demandFeatures } from "@/lib/generation/gate/demand-features";
import { DEMAND_MODEL, DEMAND_MODEL_FEATURES } from "@/lib/generation/gate/demand-model";
import type { IContextChunk, TQuestion } from "@/types/generation.types";

/** Bloom demand read from a question's structure; the questions are written here, not taken from any eval set. */

const on = (x: number[], f: string) => x[DEMAND_FEATURES.indexOf(f as (typeof DEMAND_FEATURES)[number])];

describe("demand features", () => {
  it("the shipped weights were fitted over the current features", () => {
    expect([...DEMAND_MODEL_FEATURES]).toEqual([...DEMAND_FEATURES]);
    expect(DEMAND_MODEL).toHaveLength(6);
    for (const m of DEMAND_MODEL) expect(m.weights).toHaveLength(DEMAND_FEATURES.length);
  });

  it("finds the command verb past numbering, fillers and a scenario", () => {
    expect(commandVerb("Can you briefly explain how a siphon works?")).toEqual({
      word: "explain",
      level: "Understand",
    });
    expect(commandVerb("2. (a) Calculate the resistance of the coil.")?.level).toBe("Apply");
    expect(
      commandVerb("A cyclist rides 12 km in 40 minutes along a flat road. Compare her speed with a bus.")
        ?.word,
    ).toBe("compare");
    expect(commandVerb("What is the capital of Kenya?")).toBeUndefined();
  });

  it("reads a computation with numbers and units, and a numeric answer", () => {
    const x = demandFeatures({
      stem: "A car travels 300 m in 15 s. Calculate its average speed.",
      answer: "20 m/s",
      type: "short",
      marks: 2,
    });
    for (const f of [
      "st:numbers",
      "st:unit",
      "st:compute",
      "cmd:Apply",
      "ans:number",
      "type:short",
      "marks:2-3",
    ])
      expect(on(x, f), f).toBe(1);
    expect(on(x, "ans:none")).toBe(0);
    expect(on(demandFeatures({ stem: "Define inertia." }), "ans:none")).toBe(1);
  });

  it("reads judgement, design and comparison cues in the task, not only its first verb", () => {
    const judged = demandFeatures({
      stem: "A student claims heavier objects fall faster. Do you agree? Justify.",
    });
    expect(on(judged, "st:claim")).toBe(1);
    expect(on(judged, "st:judge")).toBe(1);
    const designed = demandFeatures({
      stem: "Plan an investigation of how string length affects a pendulum.",
    });
    expect(on(designed, "st:design")).toBe(1);
    expect(on(designed, "st:investigation")).toBe(1);
    expect(on(demandFeatures({ stem: "How do arteries differ from veins?" }), "st:compare")).toBe(1);
  });
});

describe("demand of a question known by its text", () => {
  it.each([
    ["Define the term enzyme.", "Remember"],
    ["Name the four chambers of the human heart.", "Remember"],
    ["A testable explanation offered for an observation is called a ________.", "Remember"],
    ["The sugar that makes up the backbone of RNA is known as what?", "Remember"],
    ["Explain in your own words what a food chain shows.", "Understand"],
    ["Calculate the current drawn by a 60 W lamp on a 240 V supply.", "Apply"],
    ["Compare and contrast mitosis and meiosis.", "Analyze"],
    [
      "A classmate says that a heavier ball always falls faster. Do you agree? Justify your answer.",
      "Evaluate",
    ],
    ["Design an experiment to test how temperature affects the rate of an enzyme reaction.", "Create"],
  ] as const)("%s → %s", (stem, level) => {
    expect(estimateDemandOfText(stem)).toBe(level);
  });
});

describe("demand of a full question", () => {
  const passage: IContextChunk = {
    documentId: "doc",
    chunkIndex: 0,
    title: "Physics",
    content:
      "Beats are produced when two waves of slightly different frequency superpose. The loudness rises and falls at the difference of the two frequencies. Fusion of light nuclei releases energy, while heavy nuclei release energy by fission.",
  };
  const ctx = createGateContext([passage]);
  const base = {
    id: "q",
    bloomLevel: "Understand" as const,
    marks: 1,
    difficulty: "medium" as const,
    contextRefs: [{ documentId: "doc", chunkIndex: 0, title: "Physics", quote: "" }],
    validation: { citationsOk: true, supported: true, bloomAgreed: true, regenerated: false, flags: [] },
    source: "llm" as const,
  };

  it("an MCQ asking which statement best explains a new situation is Understand", () => {
    const q: TQuestion = {
      ...base,
      type: "mcq",
      promptText:
        "A passenger hears the combined sound of two steady aircraft engines grow louder and quieter over and over. Which statement best explains this?",
      options: [
        "Sound from engines of slightly different rates adds and cancels in turn.",
        "The engines speed up and slow down together.",
        "The cabin walls absorb more sound at some moments.",
        "The passenger's ears tire and recover.",
      ],
      correctIndex: 0,
      explanation: "",
      distractorRationales: [],
    };
    expect(estimateDemand(q, ctx)).toBe("Understand");
  });

  it("a long answer planning something whose scheme marks the plan is Create", () => {
    const q: TQuestion = {
      ...base,
      type: "long",
      marks: 5,
      promptText:
        "A city asks you to propose a two-stage plan for its electricity from nuclear energy. Design the plan and say what each stage relies on.",
      suggestedAnswer: "Stage 1 builds fission stations; stage 2 moves to fusion once it is proven.",
      evaluatorKeywords: [],
      markingScheme: [
        { point: "A first stage using fission, with a reason", marks: 2 },
        { point: "A later stage using fusion, with its condition", marks: 2 },
        { point: "A link between the stages", marks: 1 },
      ],
    };
    expect(estimateDemand(q, ctx)).toBe("Create");
  });

  it("a proposal to be evaluated is Evaluate, an analysis of a pattern is Analyze", () => {
    const short = (promptText: string): TQuestion => ({
      ...base,
      type: "short",
      marks: 3,
      promptText,
      suggestedAnswer: "Heavy nuclei release energy by fission, not fusion, so the proposal fails.",
      evaluatorKeywords: [],
    });
    expect(
      estimateDemand(
        short(
          "A student proposes a power station fusing uranium nuclei, arguing that all fusion releases energy. Evaluate this proposal.",
        ),
        ctx,
      ),
    ).toBe("Evaluate");
    expect(
      estimateDemand(
        short("Analyse how two engines of nearly equal frequency produce a rising and falling sound."),
        ctx,
      ),
    ).toBe("Analyze");
  });

  it("spotting and correcting a reversed statement is recall, even when a student 'writes' it", () => {
    const q: TQuestion = {
      ...base,
      type: "short",
      marks: 2,
      promptText:
        "A student writes these notes: “(1) Beats are produced when two waves of very different frequency superpose.” Check the notes: say whether the statement is right and correct it if not.",
      suggestedAnswer: "Statement 1 is wrong: it should say “slightly different”, not “very different”.",
      evaluatorKeywords: [],
    };
    expect(estimateDemand(q, ctx)).toBe("Remember");
  });
});
