import { describe, expect, it } from "vitest";
import { createGateContext, gateQuestion } from "@/lib/generation/gate";
import { createOfflineGenerator } from "@/lib/generation/offline-generator";
import type { EBloomLevel } from "@/types/bloom.types";
import type { IContextChunk, TQuestion } from "@/types/generation.types";

const DOC = "7a1c2e4a-1b2c-4d3e-8f40-123456789abd";
const chunk = (chunkIndex: number, section: string, lines: string[]): IContextChunk => ({
  documentId: DOC,
  chunkIndex,
  title: "Physics",
  sectionPath: `Chapter 2: Kinematics > ${section}`,
  content: lines.join("\n"),
});
const SELECTED = chunk(0, "2.4 Velocity", [
  "### Velocity",
  "",
  "Velocity is the rate of change of displacement with time.",
  "Acceleration is the rate of change of velocity with time.",
]);
const CHAPTER = [
  SELECTED,
  chunk(1, "2.1 Displacement", [
    "### Displacement",
    "",
    "Displacement is the change in position of an object from its starting point.",
    "Distance is the total length of the path travelled between two positions.",
    "A reference frame is the coordinate system used to describe the positions of objects.",
    "Position is the location of an object relative to a chosen origin.",
    "Speed is the distance an object travels in a unit of time.",
  ]),
];
const slot = (type: "mcq" | "short" | "long", bloomLevel: EBloomLevel) => ({
  id: "s0",
  index: 0,
  type,
  bloomLevel,
  marks: type === "mcq" ? 1 : type === "short" ? 3 : 5,
  difficulty: "medium" as const,
  sourceKeys: [`${DOC}:0`],
});

const candidates = (
  chunks: IContextChunk[],
  scope: IContextChunk[],
  type: "mcq" | "short" | "long",
  level: EBloomLevel,
) => [
  ...createOfflineGenerator(chunks, 1, scope).candidates(slot(type, level), { used: new Set(), keyAt: 2 }),
];

describe("definition MCQ (term ↔ its genuine definition)", () => {
  it("keys the stated definition; the options are other terms' definitions from the chapter, and the gate passes it", () => {
    const found = candidates([SELECTED], CHAPTER, "mcq", "Remember").filter((c) => c.form === "defines-mcq");
    expect(found.length).toBeGreaterThan(0);
    const q = found[0]!.question as Extract<TQuestion, { type: "mcq" }>;
    expect(q.promptText).toMatch(/velocity|acceleration/i);
    expect(q.correctIndex).toBe(2);
    const key = q.options[q.correctIndex]!;
    expect(key).toMatch(/^The rate of change of (?:displacement|velocity)/);
    // Every wrong option is another term's definition, each rationale names that term.
    expect(q.options.filter((o) => o !== key).every((o) => /^(?:The|A) /.test(o))).toBe(true);
    expect(q.distractorRationales.every((r) => /^This defines \S/.test(r))).toBe(true);
    const verdict = gateQuestion(q, "Remember", createGateContext([SELECTED]), { accepted: [] });
    expect(verdict.findings.filter((f) => f.severity === "reject")).toEqual([]);
  });

  it("writes nothing when the chapter defines fewer than three other terms", () => {
    const found = candidates([SELECTED], [SELECTED], "mcq", "Remember").filter(
      (c) => c.form === "defines-mcq",
    );
    expect(found).toEqual([]);
  });
});
