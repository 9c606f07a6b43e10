import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyBloom } from "@/lib/generation/bloom-classifier";
import { extractFacts, keyTerms } from "@/lib/generation/facts";
import { createOfflineGenerator } from "@/lib/generation/offline-generator";
import { largestRemainder, planSlots } from "@/lib/generation/plan";
import { isAcceptable, stemKey, validateQuestion } from "@/lib/generation/validate";
import { BlueprintSchema } from "@/schema/generation.schema";
import { BLOOM_LEVELS } from "@/types/bloom.types";
import type { IContextChunk, TQuestion } from "@/types/generation.types";

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

describe("fact extraction", () => {
  it("finds definitions, causes, comparisons and quantities with their source sentences", () => {
    const facts = extractFacts(PASSAGES);
    const defs = facts.filter((f) => f.kind === "definition").map((f) => f.term);
    expect(defs).toEqual(
      expect.arrayContaining([
        "Photosynthesis",
        "photosystem",
        "stroma",
        "Chlorophyll",
        "Stomata",
        "Carbon fixation",
      ]),
    );
    expect(facts.some((f) => f.kind === "cause" && f.cause?.includes("electron transport chain"))).toBe(true);
    expect(facts.some((f) => f.kind === "comparison")).toBe(true);
    expect(facts.some((f) => f.kind === "numeric")).toBe(true);
    for (const f of facts) expect(PASSAGES.some((p) => p.content.includes(f.sentence))).toBe(true);
    expect(keyTerms(PASSAGES, facts).length).toBeGreaterThanOrEqual(6);
  });

  it("ignores pronoun-led statements and figure references", () => {
    const facts = extractFacts([
      chunk(
        5,
        "It is shown in the diagram below for the students. The stroma is the fluid space shown in Figure that surrounds thylakoids.",
      ),
    ]);
    expect(facts).toEqual([]);
  });
});

describe("bloom classifier", () => {
  it.each([
    ["Define photosynthesis.", "Remember"],
    ["Which term is described by this statement: “a pigment”?", "Remember"],
    ["Explain in your own words what is meant by osmosis.", "Understand"],
    ["Calculate the acceleration of a 2 kg cart pushed with 10 N.", "Apply"],
    ["Compare mitosis and meiosis.", "Analyze"],
    ["Evaluate the claim that all bacteria are harmful. Justify your answer.", "Evaluate"],
    ["Design an experiment to test the effect of light intensity on photosynthesis.", "Create"],
    ["Describe the “design” of the chloroplast.", "Understand"],
  ])("%s → %s", (question, level) => {
    expect(classifyBloom(question)).toBe(level);
  });
});

describe("offline generator and validators", () => {
  it("builds valid, cited, Bloom-agreeing questions for every level and type", () => {
    const gen = createOfflineGenerator(PASSAGES, 3);
    const slots = planSlots(
      BlueprintSchema.parse({
        items: [
          { type: "mcq", count: 6 },
          { type: "short", count: 3 },
          { type: "long", count: 1 },
        ],
        bloomTargets: [...BLOOM_LEVELS],
      }),
      PASSAGES.map((p) => `${p.documentId}:${p.chunkIndex}`),
      (i) => `q${i}`,
    );
    const ctx = {
      givenKeys: new Set(PASSAGES.map((p) => `${p.documentId}:${p.chunkIndex}`)),
      chunkText: new Map(PASSAGES.map((p) => [`${p.documentId}:${p.chunkIndex}`, p.content])),
      seenStems: new Set<string>(),
    };
    const made: TQuestion[] = [];
    for (const slot of slots) {
      const q = gen.generate(slot);
      expect(q, `${slot.type}/${slot.bloomLevel}`).not.toBeNull();
      const v = validateQuestion(q!, { ...ctx, expectedLevel: slot.bloomLevel });
      expect(v.flags, q!.promptText).toEqual([]);
      expect(isAcceptable(v)).toBe(true);
      made.push(q!);
    }
    const mcqs = made.filter((q): q is Extract<TQuestion, { type: "mcq" }> => q.type === "mcq");
    expect(new Set(mcqs.map((q) => q.correctIndex)).size).toBeGreaterThan(1);
    for (const q of mcqs) {
      expect(q.options).toHaveLength(4);
      expect(new Set(q.options.map((o) => o.toLowerCase())).size).toBe(4);
      expect(q.distractorRationales).toHaveLength(3);
    }
  });

  it("flags citations to passages that were not given, unsupported answers and duplicates", () => {
    const gen = createOfflineGenerator(PASSAGES, 1);
    const slot = planSlots(
      BlueprintSchema.parse({ items: [{ type: "short", count: 1, bloomLevel: "Remember" }] }),
      [`${DOC}:0`],
      String,
    )[0]!;
    const q = gen.generate(slot)!;
    const ctx = {
      givenKeys: new Set([`${DOC}:0`, `${DOC}:1`]),
      chunkText: new Map(PASSAGES.map((p) => [`${DOC}:${p.chunkIndex}`, p.content])),
      seenStems: new Set<string>(),
    };
    const forged = { ...q, contextRefs: [{ ...q.contextRefs[0]!, chunkIndex: 99 }] };
    expect(validateQuestion(forged, { ...ctx, expectedLevel: "Remember" }).citationsOk).toBe(false);
    const unsupported = { ...q, evaluatorKeywords: ["mitochondria", "ribosome", "nucleus"] } as TQuestion;
    expect(validateQuestion(unsupported, { ...ctx, expectedLevel: "Remember" }).supported).toBe(false);
    ctx.seenStems.add(stemKey(q.promptText));
    expect(validateQuestion(q, { ...ctx, expectedLevel: "Remember" }).flags).toContain(
      "duplicate question stem",
    );
  });
});
