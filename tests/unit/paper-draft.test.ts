import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { checkPaper } from "@/lib/papers/check";
import { asDraft, hasTargets, unmetNotes } from "@/lib/papers/draft";
import type { IPaper, IPaperItem } from "@/types/paper.types";

const item = (marks: number, bloomLevel: "Remember" | "Apply"): IPaperItem => ({
  id: randomUUID(),
  marks,
  question: {
    type: "short",
    bloomLevel,
    difficulty: "medium",
    promptText: "Explain osmosis.",
    citations: [],
  },
});

function paper(totalMarks: number, blueprint?: IPaper["blueprint"]): IPaper {
  return {
    id: randomUUID(),
    title: "Cells test",
    board: "CBSE",
    grade: "10",
    subject: "Biology",
    durationMinutes: 60,
    totalMarks,
    instructions: ["Answer all questions."],
    sections: [
      { id: randomUUID(), name: "A", questionType: "short", items: [item(3, "Remember"), item(2, "Apply")] },
    ],
    ...(blueprint ? { blueprint } : {}),
    version: 1,
    createdAt: new Date(0).toISOString(),
    updatedAt: new Date(0).toISOString(),
  };
}

describe("draft export", () => {
  it("knows when a blueprint has targets", () => {
    expect(hasTargets(undefined)).toBe(false);
    expect(hasTargets({ tolerance: 0 })).toBe(false);
    expect(hasTargets({ tolerance: 0, types: {} })).toBe(false);
    expect(hasTargets({ tolerance: 0, bloom: { Apply: 4 } })).toBe(true);
  });

  it("lists structural problems first, then each missed target in teacher words", () => {
    const p = paper(8, { tolerance: 0, bloom: { Apply: 4, Remember: 3 } });
    expect(unmetNotes(checkPaper(p))).toEqual([
      "The questions add up to 5 marks but the paper is out of 8",
      "Bloom level Apply: 2 of 4 marks (under)",
    ]);
    expect(unmetNotes(checkPaper(paper(5)))).toEqual([]);
  });

  it("puts DRAFT before the title and the unmet note first, leaving the paper itself as it was", () => {
    const p = paper(8);
    const d = asDraft(p);
    expect(d.title).toBe("DRAFT — Cells test");
    expect(d.instructions[0]).toBe(
      "DRAFT, not final. Still unmet: The questions add up to 5 marks but the paper is out of 8.",
    );
    expect(d.instructions.slice(1)).toEqual(["Answer all questions."]);
    expect(p.title).toBe("Cells test");
    expect(asDraft(paper(5)).instructions[0]).toBe("DRAFT: not yet checked as final.");
  });
});
