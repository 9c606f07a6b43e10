import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkPaper, countedMarks, numberItems, paperProblems, sectionMarks } from "@/lib/papers/check";
import { findPyqMatches, fingerprint, similarity, splitQuestions } from "@/lib/papers/pyq";
import { rescaleScheme } from "@/lib/papers/store";
import { paperFromTemplate } from "@/lib/papers/templates";
import { PaperBlueprintSchema, PaperUpdateSchema } from "@/schema/paper.schema";
import type { EBloomLevel } from "@/types/bloom.types";
import type { EDifficulty, EQuestionType } from "@/types/generation.types";
import type { IPaper, IPaperItem, IPaperSection } from "@/types/paper.types";

function item(
  marks: number,
  type: EQuestionType,
  bloomLevel: EBloomLevel = "Remember",
  chapter = "1 · Cells",
  difficulty: EDifficulty = "medium",
  promptText = "Which organelle makes ATP?",
): IPaperItem {
  return {
    id: randomUUID(),
    marks,
    question: {
      type,
      bloomLevel,
      difficulty,
      promptText,
      ...(type === "mcq"
        ? { options: ["Mitochondrion", "Ribosome", "Vacuole", "Nucleus"], correctIndex: 0 }
        : {}),
      citations: [],
      chapter,
    },
  };
}

function section(items: IPaperItem[], extra: Partial<IPaperSection> = {}): IPaperSection {
  return { id: randomUUID(), name: "Section A", questionType: "mixed", items, ...extra };
}

function paper(sections: IPaperSection[], totalMarks: number, blueprint?: IPaper["blueprint"]): IPaper {
  return {
    id: randomUUID(),
    title: "Test",
    board: "CBSE",
    grade: "10",
    subject: "Science",
    durationMinutes: 60,
    totalMarks,
    instructions: [],
    sections,
    ...(blueprint ? { blueprint } : {}),
    version: 1,
    createdAt: new Date(0).toISOString(),
    updatedAt: new Date(0).toISOString(),
  };
}

describe("blueprint arithmetic", () => {
  it("counts OR alternatives once and only the best N of 'attempt any N'", () => {
    const withOr = item(3, "short");
    withOr.alternative = item(3, "short").question;
    const s1 = section([item(1, "mcq"), item(1, "mcq"), withOr]);
    const s2 = section([item(5, "long"), item(5, "long"), item(4, "long")], { attemptAny: 2 });
    expect(sectionMarks(s1)).toBe(5);
    expect(sectionMarks(s2)).toBe(10);
    expect(countedMarks({ sections: [s1, s2] })).toBe(15);
  });

  it("internal-choice totals never exceed the plain sum (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 12 }),
        fc.nat(),
        (marks, k) => {
          const n = (k % marks.length) + 1;
          const s = section(
            marks.map((m) => item(m, "short")),
            { attemptAny: n },
          );
          const counted = sectionMarks(s);
          const sorted = [...marks].sort((a, b) => b - a);
          expect(counted).toBe(sorted.slice(0, n).reduce((a, m) => a + m, 0));
          expect(counted).toBeLessThanOrEqual(marks.reduce((a, m) => a + m, 0));
        },
      ),
    );
  });

  it("reports marks that do not add up, empty sections and off-scheme items", () => {
    const long = item(5, "long");
    long.question.markingScheme = [
      { point: "a", marks: 2 },
      { point: "b", marks: 2 },
    ];
    const p = paper(
      [
        section([item(1, "mcq"), item(2, "mcq")], { marksPerQuestion: 1 }),
        section([], { name: "Section B" }),
        section([long]),
      ],
      20,
    );
    const messages = paperProblems(p).map((x) => x.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'Section "Section B" has no questions',
        'Question 2 of "Section A" carries 2 marks; the section gives 1',
        'The marking scheme of question 1 in "Section A" adds up to 4, not 5',
        "The questions add up to 8 marks but the paper is out of 20",
      ]),
    );
  });

  it("totals per chapter, Bloom level and band, type and difficulty against targets", () => {
    const p = paper(
      [
        section([
          item(1, "mcq", "Remember", "1 · Cells", "easy"),
          item(1, "mcq", "Understand", "2 · Energy", "easy"),
          item(3, "short", "Apply", "2 · Energy", "medium"),
          item(5, "long", "Evaluate", "1 · Cells", "hard"),
        ]),
      ],
      10,
      {
        chapters: { "1 · Cells": 6, "2 · Energy": 4 },
        bloomBands: { "Remember+Understand": 2, Apply: 3, "Analyze+Evaluate+Create": 5 },
        types: { mcq: 2, short: 3, long: 4 },
        difficulty: { easy: 20, medium: 30, hard: 50 },
        tolerance: 0,
      },
    );
    const c = checkPaper(p);
    expect(c.countedMarks).toBe(10);
    expect(c.chapters).toEqual([
      { key: "1 · Cells", target: 6, actual: 6, status: "ok" },
      { key: "2 · Energy", target: 4, actual: 4, status: "ok" },
    ]);
    expect(c.bloomBands.map((r) => r.status)).toEqual(["ok", "ok", "ok"]);
    expect(c.bloom.find((r) => r.key === "Evaluate")).toEqual({ key: "Evaluate", actual: 5, status: "ok" });
    expect(c.types.find((r) => r.key === "long")).toEqual({
      key: "long",
      target: 4,
      actual: 5,
      status: "over",
    });
    expect(c.types.find((r) => r.key === "short")?.status).toBe("ok");
    expect(c.difficulty.map((r) => [r.key, r.actual, r.status])).toEqual([
      ["easy", 20, "ok"],
      ["medium", 30, "ok"],
      ["hard", 50, "ok"],
    ]);
    expect(c.blueprintMet).toBe(false);
    p.blueprint!.types!.long = 5;
    expect(checkPaper(p).blueprintMet).toBe(true);
    p.blueprint!.chapters!["3 · Genetics"] = 2;
    const missing = checkPaper(p).chapters.find((r) => r.key === "3 · Genetics");
    expect(missing).toEqual({ key: "3 · Genetics", target: 2, actual: 0, status: "under" });
  });

  it("weights 'attempt any N of M' items so the section contributes what a student can score", () => {
    const s = section([item(4, "long", "Apply"), item(4, "long", "Analyze"), item(4, "long", "Apply")], {
      attemptAny: 2,
    });
    const c = checkPaper(paper([s], 8));
    const total = c.types.reduce((a, r) => a + r.actual, 0);
    expect(total).toBeCloseTo(8, 5);
    expect(c.problems).toEqual([]);
  });

  it("numbers items across sections", () => {
    const a = section([item(1, "mcq"), item(1, "mcq")]);
    const b = section([item(3, "short")]);
    const numbers = numberItems({ sections: [a, b] });
    expect([...numbers.values()]).toEqual([1, 2, 3]);
    expect(numbers.get(b.items[0]!.id)).toBe(3);
  });

  it("templates add up: board-80 and unit-test-20 blueprints total their paper", () => {
    for (const template of ["board-80", "unit-test-20"] as const) {
      const p = paperFromTemplate({ template, title: "T", board: "CBSE", grade: "10", subject: "Science" });
      const bands = Object.values(p.blueprint?.bloomBands ?? {}).reduce((a, v) => a + (v ?? 0), 0);
      const types = Object.values(p.blueprint?.types ?? {}).reduce((a, v) => a + (v ?? 0), 0);
      expect(bands).toBe(p.totalMarks);
      expect(types).toBe(p.totalMarks);
    }
  });
});

describe("paper schemas", () => {
  it("rejects difficulty shares that do not add to 100 and mixed Bloom target styles", () => {
    const r = PaperBlueprintSchema.safeParse({
      difficulty: { easy: 50, hard: 20 },
      bloom: { Apply: 2 },
      bloomBands: { Apply: 2 },
    });
    expect(r.success).toBe(false);
    const paths = r.error!.issues.map((i) => i.path.join("."));
    expect(paths).toEqual(expect.arrayContaining(["difficulty", "bloomBands"]));
  });

  it("rejects an MCQ whose key is not one of its options, and OR pairs of different types", () => {
    const bad = item(1, "mcq");
    bad.question.correctIndex = 4;
    const pair = item(3, "short");
    pair.alternative = item(3, "long").question;
    const r = PaperUpdateSchema.safeParse({
      ...paper([section([bad, pair])], 4),
      id: undefined,
      createdAt: undefined,
      updatedAt: undefined,
    });
    expect(r.success).toBe(false);
    const paths = r.error!.issues.map((i) => i.path.join("."));
    expect(paths).toEqual(
      expect.arrayContaining([
        "sections.0.items.0.question.correctIndex",
        "sections.0.items.1.alternative.type",
      ]),
    );
  });
});

describe("marking-scheme rescaling", () => {
  it("always sums to the item's marks with at least one mark per point (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 20 }),
        (weights, marks) => {
          const out = rescaleScheme(
            weights.map((m, i) => ({ point: `p${i}`, marks: m })),
            marks,
          );
          expect(out.reduce((a, p) => a + p.marks, 0)).toBe(marks);
          expect(out.every((p) => p.marks >= 1)).toBe(true);
          expect(out.length).toBeLessThanOrEqual(marks);
        },
      ),
    );
  });
});

describe("past-paper near-duplicates", () => {
  it("splits numbered past papers into questions", () => {
    const qs = splitQuestions(
      "Biology 2023\n1. Define osmosis and give one example from plant cells.\nQ2) Why do leaves appear green to us?\n(iii) State the function of stomata in a leaf.",
    );
    expect(qs).toEqual([
      "Define osmosis and give one example from plant cells.",
      "Why do leaves appear green to us?",
      "State the function of stomata in a leaf.",
    ]);
  });

  it("scores rephrasings of the same question high and different questions low", () => {
    const s = (a: string, b: string) => similarity(fingerprint(a), fingerprint(b));
    expect(
      s(
        "Explain the role of chlorophyll in absorbing light energy during photosynthesis.",
        "Describe the role of chlorophyll in the absorption of light energy in photosynthesis. (3 marks)",
      ),
    ).toBeGreaterThan(0.6);
    expect(
      s(
        "Explain the role of chlorophyll in absorbing light energy during photosynthesis.",
        "Why do desert plants open their stomata only at night?",
      ),
    ).toBeLessThan(0.2);
    // Too little shared content to call it a duplicate.
    expect(s("Define osmosis.", "What is osmosis?")).toBeLessThan(0.6);
  });

  it("flags the matching item with the past paper's text and page", () => {
    const dup = item(
      3,
      "short",
      "Understand",
      "8",
      "medium",
      "Explain how the light-dependent reactions produce ATP and NADPH.",
    );
    const fresh = item(1, "mcq", "Remember", "8", "easy", "Which gas enters the leaf through the stomata?");
    const matches = findPyqMatches({ sections: [section([dup, fresh])] }, [
      {
        documentId: randomUUID(),
        title: "PYQ 2022",
        pageStart: 2,
        content:
          "4. Explain how ATP and NADPH are produced in the light-dependent reactions. [3]\n5. Name two C4 plants.",
      },
    ]);
    expect(Object.keys(matches)).toEqual([dup.id]);
    expect(matches[dup.id]).toMatchObject({ title: "PYQ 2022", pageStart: 2 });
    expect(matches[dup.id]!.text).toMatch(/^Explain how ATP and NADPH/);
  });
});
