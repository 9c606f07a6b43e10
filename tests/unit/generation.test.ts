import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyBloom } from "@/lib/generation/bloom-classifier";
import { createGateContext, gateQuestion } from "@/lib/generation/gate";
import { createOfflineGenerator } from "@/lib/generation/offline/generator";
import { arrangeLevels, largestRemainder, planSlots } from "@/lib/generation/plan";
import { BlueprintSchema } from "@/schema/generation.schema";
import { BLOOM_LEVELS } from "@/types/bloom.types";
import { type IContextChunk, passageKey, type TQuestion } from "@/types/generation.types";

const DOC = "6f1c2e4a-1b2c-4d3e-8f40-123456789abc";
const chunk = (
  chunkIndex: number,
  content: string,
  sectionPath = "Chapter 8: Photosynthesis > 8.2 Light Reactions",
): IContextChunk => ({
  documentId: DOC,
  chunkIndex,
  content,
  title: "Biology",
  sectionPath,
});

const PASSAGES = [
  chunk(
    0,
    [
      "Photosynthesis is a process that converts light energy into chemical energy stored in sugar.",
      "A photosystem is a complex of proteins and pigments that captures light energy in the thylakoid membrane.",
      "The stroma is the fluid-filled space of the chloroplast that surrounds the thylakoids.",
      "Because the electron transport chain pumps hydrogen ions, a concentration gradient builds up across the membrane.",
    ].join(" "),
  ),
  chunk(
    1,
    [
      "Chlorophyll is a green pigment that absorbs red and blue light for photosynthesis.",
      "Stomata are small pores on the leaf surface that let carbon dioxide enter the leaf.",
      "Carbon fixation is the conversion of inorganic carbon dioxide into organic molecules in the Calvin cycle.",
      "Unlike the light reactions, the Calvin cycle does not use light energy directly.",
      "Leaves absorb about 1 % of the sunlight that reaches them for photosynthesis.",
      "ATP synthase is an enzyme that makes ATP as hydrogen ions flow back across the membrane.",
      "Because light excites electrons in chlorophyll, water molecules are split to replace those electrons.",
      "Xanthophyll is a yellow pigment that absorbs blue light and protects the leaf from excess light.",
      "Beta-carotene is an orange pigment that absorbs blue and green light in the thylakoid membrane.",
      "Phycocyanin is a blue pigment that absorbs orange and red light in cyanobacteria.",
      "The pigments of photosynthesis include chlorophyll, xanthophyll, beta-carotene, and phycocyanin.",
    ].join(" "),
    "Chapter 8: Photosynthesis > 8.3 The Calvin Cycle",
  ),
];

describe("largestRemainder", () => {
  it("honours totals exactly and gives remainders to the largest fractions", () => {
    expect(largestRemainder({ a: 1, b: 1, c: 1 }, 10, ["a", "b", "c"])).toEqual({ a: 4, b: 3, c: 3 });
    expect(largestRemainder({ a: 0.5, b: 0.3, c: 0.2 }, 7, ["a", "b", "c"])).toEqual({ a: 4, b: 2, c: 1 });
  });

  it("always sums to the total and never goes negative (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(50), { minLength: 6, maxLength: 6 }),
        fc.integer({ min: 0, max: 60 }),
        (w, total) => {
          const weights = Object.fromEntries(BLOOM_LEVELS.map((l, i) => [l, w[i]!]));
          const out = largestRemainder(weights, total, BLOOM_LEVELS);
          const sum = Object.values(out).reduce((a, b) => a + b, 0);
          const any = w.some((x) => x > 0);
          return Object.values(out).every((v) => v >= 0) && sum === (any ? total : 0);
        },
      ),
    );
  });
});

describe("planSlots", () => {
  it("gives exact Bloom counts from a distribution and spreads sources across passages", () => {
    const blueprint = BlueprintSchema.parse({
      items: [
        { type: "mcq", count: 6 },
        { type: "short", count: 3 },
        { type: "long", count: 1 },
      ],
      bloomDistribution: { Remember: 2, Understand: 2, Apply: 2, Analyze: 2, Evaluate: 1, Create: 1 },
    });
    const slots = planSlots(blueprint, ["a", "b", "c"], (i) => `s${i}`);
    expect(slots).toHaveLength(10);
    const count = (l: string) => slots.filter((s) => s.bloomLevel === l).length;
    expect([
      count("Remember"),
      count("Understand"),
      count("Apply"),
      count("Analyze"),
      count("Evaluate"),
      count("Create"),
    ]).toEqual([2, 2, 2, 2, 1, 1]);
    expect(slots.find((s) => s.type === "long")!.bloomLevel).toBe("Create");
    expect(new Set(slots.slice(0, 3).map((s) => s.sourceKeys[0]))).toEqual(new Set(["a", "b", "c"]));
    expect(new Set(slots.map((s) => s.id)).size).toBe(10);
  });

  it("keeps explicit per-item levels and default marks", () => {
    const slots = planSlots(
      BlueprintSchema.parse({ items: [{ type: "short", count: 2, bloomLevel: "Evaluate" }] }),
      ["a"],
      String,
    );
    expect(slots.map((s) => [s.bloomLevel, s.marks])).toEqual([
      ["Evaluate", 3],
      ["Evaluate", 3],
    ]);
  });

  it("rejects distributions that do not add up, at the right path", () => {
    const r = BlueprintSchema.safeParse({
      items: [{ type: "mcq", count: 4 }],
      bloomDistribution: { Remember: 0.5, Apply: 0.2 },
    });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path).toEqual(["bloomDistribution"]);
    expect(
      BlueprintSchema.safeParse({
        items: [{ type: "mcq", count: 4 }],
        bloomDistribution: { Remember: 3, Apply: 1 },
      }).success,
    ).toBe(true);
  });
});

describe("arrangeLevels", () => {
  it("puts each level on a type that suits it", () => {
    const levels = arrangeLevels(
      ["mcq", "mcq", "mcq", "mcq", "short", "short", "long"],
      ["Remember", "Remember", "Understand", "Apply", "Analyze", "Evaluate", "Create"],
    );
    expect(levels[6]).toMatch(/Create|Evaluate/);
    expect(levels.slice(0, 4).filter((l) => l === "Remember")).toHaveLength(2);
    expect([...levels].sort()).toEqual([
      "Analyze",
      "Apply",
      "Create",
      "Evaluate",
      "Remember",
      "Remember",
      "Understand",
    ]);
  });

  it("moves a level to a type the passages can carry", () => {
    // Only written answers can do Apply here: Apply must leave the MCQ.
    const levels = arrangeLevels(["mcq", "short"], ["Remember", "Apply"], (t, l) =>
      l === "Apply" ? (t === "short" ? 1 : 0) : 1,
    );
    expect(levels).toEqual(["Remember", "Apply"]);
  });
});

describe("wording classifier", () => {
  it.each([
    ["Define osmosis.", "Remember"],
    ["Explain how the sodium-potassium pump works.", "Understand"],
    ["Calculate the speed of a car that travels 100 m in 5 s.", "Apply"],
    ["Compare mitosis and meiosis.", "Analyze"],
    ["Evaluate the claim that all bacteria are harmful.", "Evaluate"],
    ["Design an experiment to test the effect of light on photosynthesis.", "Create"],
  ])("%s → %s", (question, level) => {
    expect(classifyBloom(question)).toBe(level);
  });
});

describe("offline generator", () => {
  const slot = (
    index: number,
    type: "mcq" | "short" | "long",
    bloomLevel: (typeof BLOOM_LEVELS)[number],
  ) => ({
    id: `s${index}`,
    index,
    type,
    bloomLevel,
    marks: type === "mcq" ? 1 : type === "short" ? 3 : 5,
    difficulty: "medium" as const,
    sourceKeys: PASSAGES.map((c) => passageKey(c)),
  });
  const first = (gen: ReturnType<typeof createOfflineGenerator>, s: ReturnType<typeof slot>, keyAt = 0) => {
    const ctx = createGateContext(PASSAGES);
    for (const { question } of gen.candidates(s, { used: new Set(), keyAt }))
      if (gateQuestion(question, s.bloomLevel, ctx).passed) return question;
    return null;
  };

  it("writes a definition MCQ whose options are terms of the same kind, with the key where asked", () => {
    const gen = createOfflineGenerator(PASSAGES, 3);
    const q = first(gen, slot(0, "mcq", "Remember"), 2) as Extract<TQuestion, { type: "mcq" }> | null;
    expect(q).not.toBeNull();
    expect(q!.correctIndex).toBe(2);
    expect(q!.options).toHaveLength(4);
    expect(new Set(q!.options).size).toBe(4);
    // Every citation is to a given passage, quoting a sentence of it.
    for (const r of q!.contextRefs)
      expect(PASSAGES.find((c) => c.chunkIndex === r.chunkIndex)!.content).toContain(r.quote);
    expect(q!.distractorRationales.every((r) => !/different concept/.test(r))).toBe(true);
  });

  it("writes an assertion–reason item from a stated cause, keyed by the variant", () => {
    const gen = createOfflineGenerator(PASSAGES, 1);
    const q = first(gen, slot(0, "mcq", "Analyze"), 0) as Extract<TQuestion, { type: "mcq" }> | null;
    expect(q).not.toBeNull();
    expect(q!.promptText).toMatch(/^Assertion \(A\): .+\nReason \(R\): /);
    expect(q!.options[0]).toBe("Both A and R are true, and R is the correct explanation of A.");
  });

  it("is deterministic for a seed", () => {
    const a = first(createOfflineGenerator(PASSAGES, 9), slot(0, "mcq", "Remember"));
    const b = first(createOfflineGenerator(PASSAGES, 9), slot(0, "mcq", "Remember"));
    expect(a).toEqual(b);
  });

  it("proposes nothing for a level the passages cannot carry (no invented relationships)", () => {
    const gen = createOfflineGenerator(PASSAGES, 1);
    expect(gen.available("long", "Create")).toBe(0);
    expect([...gen.candidates(slot(0, "long", "Create"), { used: new Set(), keyAt: 0 })]).toEqual([]);
  });
});
