import { describe, expect, it } from "vitest";
import { createGateContext, gateQuestion } from "@/lib/generation/gate";
import { createOfflineGenerator } from "@/lib/generation/offline/generator";
import { extractEffects, extractMonotonic } from "@/lib/generation/offline/knowledge/relations";
import type { EBloomLevel } from "@/types/bloom.types";
import type { IContextChunk, TQuestion } from "@/types/generation.types";
import { formSlot } from "../support/form-slots";
import { testSentence } from "../support/sentence";

/** Wave 9: effects stated in descriptive science ("X stimulates Y") as Apply material. */

const read = (text: string) =>
  extractEffects([testSentence(text)]).map((e) => [e.agent, e.sign, e.target, e.required]);

describe("stated effects in descriptive wording", () => {
  it("reads a thing raising or lowering a quantity or a process (OpenStax Biology style)", () => {
    expect(read("FSH stimulates development of egg cells, called ova, which develop in follicles.")).toEqual([
      ["FSH", 1, "the development of egg cells", false],
    ]);
    expect(read("The cuticle reduces the rate of water loss from the leaf surface.")).toEqual([
      ["the cuticle", -1, "the rate of water loss", false],
    ]);
    expect(read("Cytokinins promote cell division in the roots.")).toEqual([
      ["cytokinins", 1, "cell division", false],
    ]);
    expect(read("ANP acts on the kidneys to reduce sodium reabsorption.")).toEqual([
      ["ANP", -1, "sodium reabsorption", false],
    ]);
  });

  it("reads each side of 'while', past an opening setting or an appositive", () => {
    expect(read("In females, FSH stimulates development of egg cells.")).toEqual([
      ["FSH", 1, "the development of egg cells", false],
    ]);
    expect(
      read("FSH stimulates egg maturation in ovaries, while LH stimulates the production of estrogens."),
    ).toEqual([
      ["FSH", 1, "egg maturation", false],
      ["LH", 1, "the production of estrogens", false],
    ]);
    expect(read("Insulin, a hormone made by the pancreas, lowers the blood glucose level.")).toEqual([
      ["insulin", -1, "the blood glucose level", false],
    ]);
    expect(read("Airway obstruction results in reduced exhalation.")).toEqual([]);
    // "resistance to disease" is one target; "prior to formation of a zygote" is a stage.
    expect(read("Antibodies can enhance resistance to disease, pests and stress.")).toEqual([
      ["antibodies", 1, "resistance to disease", false],
    ]);
    expect(read("Prezygotic barriers block reproduction prior to formation of a zygote.")).toEqual([]);
    // "a functioning immune system": a participle opens the agent; "survival" is no process that stops.
    expect(read("A functioning immune system is essential for survival.")).toEqual([]);
  });

  it("reads the passive, a stated need and 'without X, Y cannot …' (Indian board style)", () => {
    expect(read("Phytochrome activity is inhibited by far-red light.")).toEqual([
      ["far-red light", -1, "phytochrome activity", false],
    ]);
    expect(read("Chlorophyll is essential for photosynthesis.")).toEqual([
      ["chlorophyll", 1, "photosynthesis", true],
    ]);
    expect(read("Without oxygen, aerobic respiration cannot take place.")).toEqual([
      ["oxygen", 1, "aerobic respiration", true],
    ]);
  });

  it("refuses a target that is a thing, an agent that is a change or an action, and a pronoun", () => {
    // An enzyme is a thing, not a quantity or a process one measures.
    expect(
      read("Cyanide inhibits cytochrome c oxidase, a component of the electron transport chain."),
    ).toEqual([]);
    // "an increase in …", "administration of …", "exposure to …": not things one removes.
    expect(read("An increase in body heat increases the activity of enzymes.")).toEqual([]);
    expect(read("Administration of pure oxygen speeds up the separation of carbon monoxide.")).toEqual([]);
    // A process is not a thing one removes: "negative selection … serves to increase …".
    expect(read("Negative frequency-dependent selection serves to increase the genetic variance.")).toEqual(
      [],
    );
    expect(read("Exposure to far-red light inhibits phytochrome activity.")).toEqual([]);
    expect(read("It lowers the blood glucose level.")).toEqual([]);
    // A condition ("cold temperatures") is a quantity's value, not a thing to remove; hedged or
    // negated statements and "most / some" are not stated effects of the thing itself.
    expect(read("Cold temperatures slow the rate of photosynthesis.")).toEqual([]);
    expect(read("Caffeine does not increase the heart rate.")).toEqual([]);
    expect(read("Auxin may promote cell elongation.")).toEqual([]);
    expect(read("Some drugs inhibit protein synthesis.")).toEqual([]);
    // "unsaturated fats help to lower …" is read with its verb, not as an agent "… help to".
    expect(read("Unsaturated fats help to lower blood cholesterol levels.")).toEqual([
      ["unsaturated fats", -1, "blood cholesterol levels", false],
    ]);
  });
});

const DOC = "7a1c2e4a-1b2c-4d3e-8f40-1234567890e1";
const LEAF: IContextChunk = {
  documentId: DOC,
  chunkIndex: 0,
  title: "Biology",
  sectionPath: "Chapter 30: Plant Form and Physiology > 30.3 Leaves",
  content: [
    "### Leaf Structure",
    "",
    "The outermost layer of the leaf is the epidermis, which is covered by a waxy cuticle.",
    "The cuticle reduces the rate of water loss from the leaf surface.",
    "Cytokinins promote cell division in the roots.",
  ].join("\n"),
};
const candidates = (type: "mcq" | "short" | "long", level: EBloomLevel) => [
  ...createOfflineGenerator([LEAF], 1, [LEAF]).candidates(formSlot(DOC, type, level), {
    used: new Set(),
    keyAt: 2,
  }),
];

describe("relations between quantities, not things or clauses", () => {
  const mono = (text: string) => extractMonotonic([testSentence(text)]).map((r) => [r.x, r.sign, r.y]);
  it("reads 'as the tadpole grows' as its size, and refuses a clause as a quantity", () => {
    expect(mono("As the tadpole grows, its mass increases.")).toEqual([
      ["the size of the tadpole", 1, "the mass"],
    ]);
    expect(mono("As the tadpole grows, the gills disappear and lungs grow.")).toEqual([]);
    expect(mono("The loss of carbon dioxide reduces the size of the molecule by one carbon.")).toEqual([]);
    expect(mono("Friction reduces the speed of the block.")).toEqual([
      ["the friction", -1, "the speed of the block"],
    ]);
    expect(mono("As a cell increases in size, its surface area-to-volume ratio decreases.")).toEqual([
      ["the size of the cell", -1, "the surface area-to-volume ratio"],
    ]);
  });
});

describe("predict-effect (Apply)", () => {
  it("poses the agent removed and keys the change against the stated direction", () => {
    const found = candidates("mcq", "Apply").filter((c) => c.form === "predict-effect");
    expect(found.length).toBeGreaterThan(0);
    const q = found[0]!.question as Extract<TQuestion, { type: "mcq" }>;
    expect(q.promptText).toBe(
      "Suppose the cuticle is removed or blocked while everything else stays the same. Predict what happens to the rate of water loss.",
    );
    expect(q.options[q.correctIndex]).toBe("The rate of water loss increases");
    expect(q.options).toContain("The rate of water loss decreases");
    const verdict = gateQuestion(q, "Apply", createGateContext([LEAF]), { accepted: [] });
    expect(verdict.demand).toBe("Apply");
    expect(verdict.findings.filter((f) => f.severity === "reject")).toEqual([]);
  });

  it("agrees the verb with a plural agent and writes a short answer marked on the reasoning", () => {
    const found = candidates("short", "Apply").filter((c) => c.form === "predict-effect");
    const q = found.map((c) => c.question).find((x) => /cytokinins/.test(x.promptText));
    expect(q?.promptText).toMatch(/^Suppose cytokinins are removed or blocked/);
    expect(q?.type === "short" && q.suggestedAnswer).toMatch(/^Cell division decreases\./);
  });

  it("does not ask predict-change to 'lower' a thing that acts", () => {
    const found = candidates("mcq", "Apply").filter((c) => c.form === "predict-change");
    expect(found.map((c) => c.question.promptText).join(" ")).not.toMatch(/the cuticle is lowered/);
  });

  it("refuses a fair test of an effect between things that are not measured (Create)", () => {
    const found = candidates("long", "Create").filter((c) => c.form === "design-investigation");
    expect(found.map((c) => c.question.promptText).join(" ")).not.toMatch(/cuticle|cytokinins/);
  });
});

describe("no fair test from an equation", () => {
  const doc = (content: string, section: string): IContextChunk => ({
    documentId: "7a1c2e4a-1b2c-4d3e-8f40-1234567890e3",
    chunkIndex: 0,
    title: "Physics",
    sectionPath: `Chapter 2 > ${section}`,
    content,
  });
  const plans = (c: IContextChunk) =>
    [
      ...createOfflineGenerator([c], 1, [c]).candidates(formSlot(c.documentId, "long", "Create"), {
        used: new Set(),
        keyAt: 0,
      }),
    ].filter((x) => x.form === "equation-investigation");

  it("refuses v = d/t and a = Δv/Δt (circular: the subject is computed from the readings)", () => {
    expect(
      plans(
        doc(
          "## 2.3 Time, Velocity, and Speed\n\nAverage velocity is displacement divided by the time of travel, v = d/t, where d is the displacement and t is the time.",
          "2.3 Velocity",
        ),
      ),
    ).toEqual([]);
    expect(
      plans(
        doc(
          "## 3.1 Acceleration\n\nAverage acceleration is given by a = Δv/Δt, where Δv is the change in velocity and Δt is the time.",
          "3.1 Acceleration",
        ),
      ),
    ).toEqual([]);
  });

  it("plans no test from an equation alone (round 11 readers: F = ma, c = fλ, W = mg plans rejected)", () => {
    const found = plans(
      doc(
        "## 12.3 Phase Change and Latent Heat\n\nHere, Q is the heat necessary to melt ice and is given by Q = mL_f, where m is the mass and L_f is the latent heat of fusion.",
        "12.3 Latent Heat",
      ),
    );
    expect(found).toEqual([]);
  });
});
