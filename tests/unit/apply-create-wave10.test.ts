import { describe, expect, it } from "vitest";
import { createGateContext, gateQuestion } from "@/lib/generation/gate";
import { effectTestable } from "@/lib/generation/offline/forms/higher-investigation";
import { createOfflineGenerator } from "@/lib/generation/offline/generator";
import { prepareProblem } from "@/lib/generation/offline/knowledge/numeric/problem";
import { extractEffects, extractMonotonic } from "@/lib/generation/offline/knowledge/relations";
import type { IContextChunk, TQuestion } from "@/types/generation.types";
import { formSlot } from "../support/form-slots";
import { testSentence } from "../support/sentence";

/** Wave 10 (issue 25, point 3): Apply and Create from relations and effects stated in words. */

const mono = (text: string) => extractMonotonic([testSentence(text)]).map((r) => [r.x, r.sign, r.y]);

describe("a quantity changed, stated as acting on an observable target", () => {
  it("reads 'an increase in X inhibits Y' and 'Y is inhibited by rising X' (OpenStax Biology style)", () => {
    expect(
      mono("An increase in gonad hormone levels inhibits GnRH production through a negative feedback loop."),
    ).toEqual([["the gonad hormone level", -1, "GnRH production"]]);
    expect(mono("PTH release is inhibited by rising blood calcium levels.")).toEqual([
      ["the blood calcium level", -1, "PTH release"],
    ]);
    expect(mono("Higher temperatures reduce the rate of photosynthesis.")).toEqual([
      ["the temperature", -1, "the rate of photosynthesis"],
    ]);
  });

  it("keeps an opening setting with the target (Indian board style)", () => {
    expect(
      mono(
        "In aquatic plants, an increase in the concentration of carbon dioxide increases the rate of photosynthesis.",
      ),
    ).toEqual([["the concentration of carbon dioxide", 1, "the rate of photosynthesis in aquatic plants"]]);
  });

  it("drops a connective, refuses a setting that leans on its context and a hedged verb", () => {
    expect(mono("In addition, rising blood calcium levels inhibit PTH release.")).toEqual([
      ["the blood calcium level", -1, "PTH release"],
    ]);
    expect(mono("In this case, rising blood calcium levels inhibit PTH release.")).toEqual([]);
    expect(mono("An increase in gonad hormone levels may inhibit GnRH production.")).toEqual([]);
  });

  it("does not read a level stated only as high or low as a monotonic relation (optima)", () => {
    expect(mono("In roots, a high concentration of IAA inhibits cell elongation.")).toEqual([]);
    expect(mono("High temperatures denature enzymes and reduce their activity.")).toEqual([]);
  });

  it("refuses a changed agent that is not a quantity one can set", () => {
    expect(mono("An increase in body temperature causes iron to be conserved.")).toEqual([]);
    expect(mono("Rising competition reduces the growth of the population.")).toEqual([]);
  });
});

describe("a stated effect past an appositive made with a participle", () => {
  const read = (text: string) => extractEffects([testSentence(text)]).map((e) => [e.agent, e.sign, e.target]);
  it("reads the subject past 'produced by …' and 'made in …' (OpenStax Biology style)", () => {
    expect(
      read(
        "Growth hormone (GH), produced by the anterior portion of the pituitary gland, accelerates the rate of protein synthesis, particularly in skeletal muscle and bones.",
      ),
    ).toEqual([["growth hormone", 1, "the rate of protein synthesis"]]);
    expect(read("Gibberellins, made in young leaves, stimulate the elongation of stems.")).toEqual([
      ["gibberellins", 1, "the elongation of stems"],
    ]);
  });
});

describe("the effects reader says where it gave up (eval:generation --why)", () => {
  const steps = (text: string) => {
    const out: string[] = [];
    extractEffects([testSentence(text)], (s) => out.push(s));
    return out;
  };
  it("names the refused part of an effect-worded clause", () => {
    expect(steps("Many antibiotics inhibit bacterial protein synthesis.")).toEqual([
      "effects: the agent is not a thing to remove",
    ]);
    expect(steps("Auxin promotes the growth of the shoot.")).toEqual([]);
    expect(
      steps("Glucagon and insulin, by contrast, are both made in the pancreas and inhibit nothing here."),
    ).toEqual(["effects: effect verb, but not as subject–verb–object"]);
  });
  it("reports a clause that leans on its context", () => {
    const out: string[] = [];
    extractEffects([testSentence("It inhibits the rate of transpiration.", { standalone: false })], (s) =>
      out.push(s),
    );
    expect(out).toEqual(["effects: leans on its context"]);
  });
});

describe("a worked example whose figure is only pointed at", () => {
  it("drops 'See Figure.' and 'in the previous figure' after a named thing (OpenStax Physics style)", () => {
    const a = prepareProblem(
      "Calculate the angular speed of a 0.300 m radius car tire when the car travels at 15.0 m/s. See Figure.",
    );
    expect(a).toMatchObject({
      ok: true,
      text: "Calculate the angular speed of a 0.300 m radius car tire when the car travels at 15.0 m/s.",
    });
    const b = prepareProblem(
      "Calculate the wave velocity of the ocean wave in the previous figure if the distance between wave crests is 10.0 m and the time for a seagull to bob up and down is 5.00 s.",
    );
    expect(b).toMatchObject({
      ok: true,
      text: expect.stringMatching(/^Calculate the wave velocity of the ocean wave if/),
    });
  });

  it("still refuses a problem whose values or layout are in the figure", () => {
    expect(
      prepareProblem("Find the average velocity of the car whose position is graphed in Figure 1.13."),
    ).toMatchObject({
      ok: false,
    });
    expect(
      prepareProblem(
        "Figure shows the major and minor axes of an ellipse. The semi-major axes are half of these. What area does the orbit enclose?",
      ),
    ).toEqual({ ok: false, reason: "the problem needs its figure" });
    expect(
      prepareProblem(
        "Each resistor in the circuit below is 30 Ω. What power is dissipated by the middle branch?",
      ),
    ).toEqual({
      ok: false,
      reason: "the problem needs its figure",
    });
  });
});

const SEEDS: IContextChunk = {
  documentId: "7a1c2e4a-1b2c-4d3e-8f40-1234567890f1",
  chunkIndex: 0,
  title: "Science",
  sectionPath: "Chapter 7: Seeds and Germination > 7.2 Conditions for Germination",
  content: [
    "### Conditions for Germination",
    "",
    "Sodium chloride reduces the rate of germination of seeds.",
    "Gibberellins stimulate the germination of seeds.",
    "Amylase increases the rate of digestion of starch.",
    "FSH stimulates the growth of follicles.",
    "The cuticle reduces the rate of water loss from the leaf surface.",
    "Happiness increases the growth of friendships.",
  ].join("\n"),
};
const plans = (type: "short" | "long") =>
  [
    ...createOfflineGenerator([SEEDS], 1, [SEEDS]).candidates(formSlot(SEEDS.documentId, type, "Create"), {
      used: new Set(),
      keyAt: 0,
    }),
  ].filter((c) => c.form === "design-investigation");

describe("a fair test of a stated effect (Create)", () => {
  it("plans one when a school lab can set the agent and measure the target (Indian board style)", () => {
    const found = plans("long").map((c) => c.question);
    const salt = found.find((q) => /sodium chloride/.test(q.promptText));
    expect(salt?.promptText).toBe(
      "Plan a fair test of how the concentration of sodium chloride affects the rate of germination of seeds. Say what you would change, what you would measure, what you would keep the same, and what result would support the relationship.",
    );
    const answer = salt?.type === "long" ? salt.suggestedAnswer : "";
    expect(answer).toMatch(/including none/);
    expect(answer).toMatch(/Keep the temperature and the amount of light the same/);
    expect(answer).toMatch(
      /the rate of germination of seeds is smaller with sodium chloride than without it/,
    );
    expect(
      found.some((q) =>
        /the concentration of gibberellins affects the germination of seeds/.test(q.promptText),
      ),
    ).toBe(true);
    const enzyme = found.find((q) => /amylase/.test(q.promptText));
    expect(enzyme?.type === "long" && enzyme.suggestedAnswer).toMatch(
      /Keep the temperature and the pH the same/,
    );
    const verdict = gateQuestion(salt!, "Create", createGateContext([SEEDS]), { accepted: [] });
    expect(verdict.demand).toBe("Create");
    expect(verdict.findings.filter((f) => f.severity === "reject")).toEqual([]);
  });

  it("refuses a fair test between things a school cannot set or measure", () => {
    const prompts = plans("long")
      .map((c) => c.question.promptText)
      .join(" ");
    // An animal hormone and a structure cannot be set in a school lab; happiness is no quantity.
    expect(prompts).not.toMatch(/FSH|cuticle|happiness/i);
    expect(
      effectTestable({
        kind: "effect",
        agent: "insulin",
        target: "the rate of glucose uptake",
        sign: 1,
        required: false,
        sentence: "Insulin increases the rate of glucose uptake.",
        chunkKey: "k",
      }),
    ).toBeNull();
    // A compound by WordNet, but acting inside the body: not a school investigation.
    expect(
      effectTestable({
        kind: "effect",
        agent: "the atrial natriuretic peptide",
        target: "blood pressure",
        sign: -1,
        required: false,
        sentence: "The atrial natriuretic peptide lowers blood pressure.",
        chunkKey: "k",
      }),
    ).toBeNull();
  });
});

describe("predict-change options stay on the passage's topic", () => {
  const doc = "7a1c2e4a-1b2c-4d3e-8f40-1234567890f2";
  const chunk = (i: number, text: string): IContextChunk => ({
    documentId: doc,
    chunkIndex: i,
    title: "Biology",
    sectionPath: "Chapter 37: The Endocrine System > 37.3 Regulation of Body Processes",
    content: text,
  });
  const chunks = [
    chunk(
      0,
      "An increase in gonad hormone levels inhibits GnRH production through a negative feedback loop.",
    ),
    chunk(1, "PTH release is inhibited by rising blood calcium levels."),
  ];
  it("does not offer a relation from another passage as the fourth option", () => {
    const slot = { ...formSlot(doc, "mcq", "Apply"), sourceKeys: [`${doc}:0`, `${doc}:1`] };
    const found = [
      ...createOfflineGenerator(chunks, 1, chunks).candidates(slot, { used: new Set(), keyAt: 0 }),
    ]
      .filter((c) => c.form === "predict-change")
      .map((c) => c.question as Extract<TQuestion, { type: "mcq" }>);
    const gnrh = found.find((q) => /GnRH/.test(q.promptText));
    expect(gnrh?.promptText).toBe(
      "In an investigation, the gonad hormone level is lowered while everything else is kept the same. Predict how GnRH production changes.",
    );
    expect(gnrh?.options[gnrh.correctIndex]).toBe("GnRH production increases");
    expect(gnrh?.options).toContain("GnRH production first increases, then decreases");
    expect(gnrh?.options.join(" ")).not.toMatch(/calcium/);
  });
});
