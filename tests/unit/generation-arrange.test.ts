import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createGateContext } from "@/lib/generation/gate";
import { createOfflineGenerator } from "@/lib/generation/offline/generator";
import { arrangeSupported, type ISupported, plannedCells, planSlots } from "@/lib/generation/plan";
import { DRY_RUN_CAP, dryRun } from "@/lib/generation/slot/dry-run";
import { QUESTION_TYPES } from "@/schema/enums.schema";
import { BlueprintSchema } from "@/schema/generation.schema";
import { BLOOM_LEVELS, type EBloomLevel } from "@/types/bloom.types";
import type { EQuestionType, IContextChunk } from "@/types/generation.types";

/** A dry-run table from a few non-zero cells ("mcq:Remember": 2, …); every other cell 0. */
const table = (cells: Record<string, number>): ISupported => ({
  cell: (t, l) => cells[`${t}:${l}`] ?? 0,
});

const SET: EQuestionType[] = ["mcq", "mcq", "mcq", "mcq", "short", "short", "long"];
const ALL = BlueprintSchema.parse({
  items: [
    { type: "mcq", count: 4 },
    { type: "short", count: 2, marks: 3 },
    { type: "long", count: 1, marks: 5 },
  ],
  bloomTargets: [...BLOOM_LEVELS],
});
const levelsOf = (supported: ISupported, blueprint = ALL) =>
  planSlots(blueprint, ["a"], String, undefined, supported).map((s) => `${s.type}/${s.bloomLevel}`);

describe("arrangeSupported (levels placed where questions can be written)", () => {
  it("moves a level with no candidates on one type to a type with candidates", () => {
    // Apply passes only as a short answer; Understand only as an MCQ.
    const supported = table({ "short:Apply": 2, "mcq:Understand": 1, "mcq:Remember": 3 });
    const levels = levelsOf(supported);
    expect(levels).toContain("short/Apply");
    expect(levels).toContain("mcq/Understand");
    // Before (material only, `feasible` = everything): Apply sat on an MCQ, Understand on a short answer.
    const before = planSlots(ALL, ["a"], String, () => 1).map((s) => `${s.type}/${s.bloomLevel}`);
    expect(before).toContain("mcq/Apply");
    expect(before).toContain("short/Understand");
  });

  it("gives the slot beyond the targets a requested level the passages support", () => {
    // Seven slots over six levels: before, the extra slot was always a second Remember.
    const supported = table({ "mcq:Analyze": 3, "mcq:Remember": 1, "long:Evaluate": 1 });
    const levels = levelsOf(supported);
    expect(levels.filter((l) => l === "mcq/Analyze")).toHaveLength(2);
    expect(levels.filter((l) => l.endsWith("/Remember"))).toHaveLength(1);
    expect(levels).toContain("long/Evaluate");
  });

  it("counts a level's fills against its distinct facts over all types", () => {
    // MCQ and short Remember stand on the one fact: a second Remember slot would stay empty,
    // so the slot beyond the targets goes to Analyze, which has two facts.
    const cells: Record<string, number> = { "mcq:Remember": 1, "short:Remember": 1, "mcq:Analyze": 2 };
    const facts: Partial<Record<EBloomLevel, number>> = { Remember: 1, Analyze: 2 };
    const supported: ISupported = { cell: (t, l) => cells[`${t}:${l}`] ?? 0, level: (l) => facts[l] ?? 0 };
    const levels = levelsOf(supported);
    expect(levels.filter((l) => l.endsWith("/Remember"))).toHaveLength(1);
    expect(levels.filter((l) => l === "mcq/Analyze")).toHaveLength(2);
  });

  it("never gives a level the teacher did not ask for, and each asked level its share", () => {
    const blueprint = BlueprintSchema.parse({
      items: [{ type: "mcq", count: 5 }],
      bloomTargets: ["Remember", "Apply"],
    });
    // Understand could be written, Apply cannot: still only Remember and Apply, 2 or 3 of each.
    const levels = levelsOf(table({ "mcq:Understand": 3, "mcq:Remember": 3 }), blueprint);
    expect(new Set(levels)).toEqual(new Set(["mcq/Remember", "mcq/Apply"]));
    expect(levels.filter((l) => l === "mcq/Remember")).toHaveLength(3);
  });

  it("keeps explicit per-item levels as they are", () => {
    const blueprint = BlueprintSchema.parse({
      items: [
        { type: "mcq", count: 2, bloomLevel: "Create" },
        { type: "short", count: 2 },
      ],
      bloomTargets: ["Remember", "Evaluate"],
    });
    const levels = levelsOf(table({ "short:Remember": 2 }), blueprint);
    expect(levels.slice(0, 2)).toEqual(["mcq/Create", "mcq/Create"]);
    expect(new Set(levels.slice(2))).toEqual(new Set(["short/Remember", "short/Evaluate"]));
  });

  it("keeps a distribution's exact counts", () => {
    const blueprint = BlueprintSchema.parse({
      items: [
        { type: "mcq", count: 3 },
        { type: "long", count: 1 },
      ],
      bloomDistribution: { Remember: 2, Create: 2 },
    });
    const levels = levelsOf(table({ "mcq:Create": 1, "long:Remember": 1 }), blueprint);
    expect(levels.filter((l) => l.endsWith("Remember"))).toHaveLength(2);
    expect(levels.filter((l) => l.endsWith("Create"))).toHaveLength(2);
    expect(levels).toContain("long/Remember");
  });

  it("is deterministic, and fills at least as many slots as the level-blind arrangement (property)", () => {
    const cells = fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 18, maxLength: 18 });
    fc.assert(
      fc.property(cells, fc.subarray([...BLOOM_LEVELS], { minLength: 1 }), (counts, targets) => {
        const cell = (t: EQuestionType, l: EBloomLevel) =>
          counts[QUESTION_TYPES.indexOf(t) * 6 + BLOOM_LEVELS.indexOf(l)]!;
        const supported: ISupported = { cell };
        const blueprint = { ...ALL, bloomTargets: targets };
        const fills = (levels: EBloomLevel[]) => {
          const per = new Map<string, number>();
          for (const [i, l] of levels.entries())
            per.set(`${SET[i]}:${l}`, (per.get(`${SET[i]}:${l}`) ?? 0) + 1);
          return [...per].reduce((n, [k, v]) => {
            const [t, l] = k.split(":") as [EQuestionType, EBloomLevel];
            return n + Math.min(v, cell(t, l));
          }, 0);
        };
        const now = planSlots(blueprint, ["a"], String, undefined, supported).map((s) => s.bloomLevel);
        const again = planSlots(blueprint, ["a"], String, undefined, supported).map((s) => s.bloomLevel);
        const before = planSlots(blueprint, ["a"], String, cell).map((s) => s.bloomLevel);
        const share = Math.floor(SET.length / targets.length);
        return (
          now.join() === again.join() &&
          now.every((l) => targets.includes(l)) &&
          targets.every((l) => now.filter((x) => x === l).length >= share) &&
          fills(now) >= fills(before)
        );
      }),
      { numRuns: 150 },
    );
  });

  it("arranges large sets greedily within the same bounds", () => {
    const types: EQuestionType[] = Array(20).fill("mcq");
    const lo = { Remember: 10, Apply: 10 };
    const levels = arrangeSupported(types, lo, lo, table({ "mcq:Apply": 3 }));
    expect(levels.filter((l) => l === "Apply")).toHaveLength(10);
    expect(levels.filter((l) => l === "Remember")).toHaveLength(10);
  });
});

describe("dryRun (candidates that pass the gate, per type and level)", () => {
  const DOC = "6f1c2e4a-1b2c-4d3e-8f40-123456789abc";
  const chunk = (chunkIndex: number, content: string): IContextChunk => ({
    documentId: DOC,
    chunkIndex,
    content,
    title: "Physics",
    sectionPath: "Chapter 2: Motion > 2.1 Speed",
  });
  const PASSAGES = [
    chunk(
      0,
      "Speed is the distance an object travels divided by the time it takes. The speed of an object is calculated with the equation v = d / t, where v is the speed in metres per second, d is the distance in metres and t is the time in seconds. A car that travels 100 m in 5 s has a speed of 20 m/s.",
    ),
    chunk(
      1,
      "Acceleration is the rate at which velocity changes with time. Because friction acts against the motion, a sliding box slows down and stops. As the force on an object increases, its acceleration increases.",
    ),
  ];

  it("counts only distinct passing candidates, capped, and nothing where no form has material", () => {
    const gen = createOfflineGenerator(PASSAGES, 3);
    const { cells: counts, levels } = dryRun(gen, createGateContext(PASSAGES), { seed: 3 });
    for (const t of QUESTION_TYPES)
      for (const l of BLOOM_LEVELS) {
        expect(counts[t][l]).toBeGreaterThanOrEqual(0);
        expect(counts[t][l]).toBeLessThanOrEqual(DRY_RUN_CAP);
        if (gen.available(t, l) === 0) expect(counts[t][l]).toBe(0);
      }
    expect(Object.values(counts).some((row) => Object.values(row).some((n) => n > 0))).toBe(true);
    // Over all types, a level has at most the facts of its cells together, and at least its best cell's.
    for (const l of BLOOM_LEVELS) {
      const per = QUESTION_TYPES.map((t) => counts[t][l]);
      expect(levels[l]).toBeLessThanOrEqual(per.reduce((a, b) => a + b, 0));
      expect(levels[l] > 0).toBe(per.some((n) => n > 0));
    }
  });

  it("searches only the cells a set's plan can use", () => {
    const blueprint = BlueprintSchema.parse({
      items: [
        { type: "short", count: 2 },
        { type: "mcq", count: 1, bloomLevel: "Remember" },
      ],
      bloomTargets: ["Apply", "Understand"],
    });
    const cells = plannedCells(blueprint);
    const all = QUESTION_TYPES.flatMap((t) =>
      BLOOM_LEVELS.filter((l) => cells(t, l)).map((l) => `${t}/${l}`),
    );
    expect(all).toEqual(["short/Understand", "short/Apply"]);
    const counts = dryRun(createOfflineGenerator(PASSAGES, 3), createGateContext(PASSAGES), {
      seed: 3,
      cells,
    }).cells;
    const full = dryRun(createOfflineGenerator(PASSAGES, 3), createGateContext(PASSAGES), { seed: 3 }).cells;
    for (const t of QUESTION_TYPES)
      for (const l of BLOOM_LEVELS) expect(counts[t][l]).toBe(cells(t, l) ? full[t][l] : 0);
  });

  it("does not change the candidates the real slots draw (its own random stream)", () => {
    const slot = {
      id: "s",
      index: 0,
      type: "short" as const,
      bloomLevel: "Apply" as const,
      marks: 3,
      difficulty: "medium" as const,
      sourceKeys: [],
    };
    const draw = (dry: boolean) => {
      const gen = createOfflineGenerator(PASSAGES, 5);
      if (dry) dryRun(gen, createGateContext(PASSAGES), { seed: 5 });
      return [...gen.candidates(slot, { used: new Set(), keyAt: 0 })].map((c) => c.question.promptText);
    };
    const real = draw(false);
    expect(real.length).toBeGreaterThan(0);
    expect(draw(true)).toEqual(real);
  });
});
