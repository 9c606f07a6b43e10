import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  applyFormToItem,
  applyPatch,
  formIssues,
  formOfPaperItem,
  formOfQuestion,
  patchOf,
  questionChanged,
} from "@/lib/questions/edit";
import { questionEditIssues } from "@/schema/generation.schema";
import type { TQuestion } from "@/types/generation.types";
import type { IPaperItem } from "@/types/paper.types";

const validation = { citationsOk: true, supported: true, bloomAgreed: true, regenerated: false, flags: [] };
const mcq: TQuestion = {
  id: randomUUID(),
  type: "mcq",
  bloomLevel: "Remember",
  promptText: "Which organelle makes most of the cell's ATP?",
  marks: 1,
  difficulty: "easy",
  contextRefs: [],
  validation,
  source: "offline",
  options: ["Ribosome", "Mitochondrion", "Vacuole", "Nucleus"],
  correctIndex: 1,
  explanation: "Mitochondria carry out cellular respiration.",
  distractorRationales: ["makes proteins", "stores water", "holds DNA"],
};
const long: TQuestion = {
  id: randomUUID(),
  type: "long",
  bloomLevel: "Understand",
  promptText: "Explain how the cell membrane controls what enters the cell.",
  marks: 3,
  difficulty: "medium",
  contextRefs: [],
  validation,
  source: "offline",
  suggestedAnswer: "Selective permeability …",
  evaluatorKeywords: ["phospholipid"],
  markingScheme: [
    { point: "Phospholipid bilayer", marks: 1 },
    { point: "Transport proteins", marks: 2 },
  ],
};

describe("question edit rules", () => {
  it("wants exactly one key among distinct options and points that add up to the marks", () => {
    expect(questionEditIssues({ type: "mcq", marks: 1, options: ["a", "b"], correctIndex: 0 })).toEqual([]);
    expect(
      questionEditIssues({ type: "mcq", marks: 1, options: ["Ribosome", " ribosome "], correctIndex: 0 }),
    ).toEqual([
      { path: "options.1", message: "Options A and B are the same: there must be exactly one right answer" },
    ]);
    expect(questionEditIssues({ type: "mcq", marks: 1, options: ["a", "b"], correctIndex: 2 })[0]?.path).toBe(
      "correctIndex",
    );
    expect(
      questionEditIssues({ type: "long", marks: 4, markingScheme: [{ point: "x", marks: 3 }] })[0]?.message,
    ).toBe("The marking points add up to 3 marks; the question carries 4");
    expect(questionEditIssues({ type: "short", marks: 2, markingScheme: [] })).toEqual([]);
  });

  it("names empty text and marks out of range in the form", () => {
    const f = { ...formOfQuestion(mcq), promptText: "short", options: ["a", "", "c", "d"], marks: 0 };
    expect(formIssues(f).map((i) => i.path)).toEqual(["promptText", "marks", "options.1"]);
  });
});

describe("patches from the form", () => {
  it("sends only what changed, trimmed", () => {
    const opened = formOfQuestion(mcq);
    expect(patchOf(opened, opened)).toBeUndefined();
    const after = {
      ...opened,
      options: ["Ribosome", "Mitochondrion", "Chloroplast ", "Nucleus"],
      correctIndex: 1,
    };
    expect(patchOf(opened, after)).toEqual({
      options: ["Ribosome", "Mitochondrion", "Chloroplast", "Nucleus"],
    });
    expect(questionChanged(opened, after)).toBe(true);
    expect(questionChanged(opened, { ...opened, bloomLevel: "Apply" })).toBe(false);
    const lf = formOfQuestion(long);
    expect(patchOf(lf, { ...lf, answer: "New answer", marks: 4 })).toEqual({
      suggestedAnswer: "New answer",
      marks: 4,
    });
  });

  it("applies an option edit as the server does: edited, key to check, rationales kept for unchanged options", () => {
    const q = applyPatch(mcq, { options: ["Ribosome", "Mitochondrion", "Chloroplast", "Nucleus"] });
    expect(q).toMatchObject({ edited: true, checkAnswer: true });
    expect(q.type === "mcq" && q.distractorRationales).toEqual(["makes proteins", "", "holds DNA"]);
    const confirmed = applyPatch(q, { checkAnswer: false });
    expect(confirmed.checkAnswer).toBe(false);
    const marksOnly = applyPatch(long, { marks: 3, markingScheme: [{ point: "All", marks: 3 }] });
    expect(marksOnly).toMatchObject({ edited: true, markingScheme: [{ point: "All", marks: 3 }] });
    expect(marksOnly.checkAnswer).toBeUndefined();
  });

  it("writes the form into a paper item with its marks and review flags", () => {
    const item: IPaperItem = {
      id: randomUUID(),
      marks: 1,
      question: {
        type: "mcq",
        bloomLevel: "Remember",
        difficulty: "easy",
        promptText: mcq.promptText,
        options: ["Ribosome", "Mitochondrion", "Vacuole", "Nucleus"],
        correctIndex: 1,
        explanation: "x",
        citations: [],
      },
    };
    const opened = formOfPaperItem(item);
    applyFormToItem(item, opened, { ...opened, marks: 2, bloomLevel: "Understand" });
    expect(item.marks).toBe(2);
    expect(item.question).toMatchObject({ bloomLevel: "Understand", edited: true });
    expect(item.question.checkAnswer).toBeUndefined();
    applyFormToItem(item, opened, {
      ...formOfPaperItem(item),
      promptText: "Which organelle releases energy?",
    });
    expect(item.question.checkAnswer).toBe(true);
  });
});
