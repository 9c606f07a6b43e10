import { randomUUID } from "node:crypto";
import type { TPaperCreate } from "@/schema/paper.schema";
import type { EQuestionType } from "@/types/generation.types";
import type { IPaper, IPaperBlueprint, IPaperSection } from "@/types/paper.types";

interface ISectionSpec {
  name: string;
  instructions: string;
  questionType: EQuestionType | "mixed";
  marksPerQuestion?: number;
}

interface ITemplate {
  durationMinutes: number;
  totalMarks: number;
  instructions: string[];
  sections: ISectionSpec[];
  blueprint?: Omit<IPaperBlueprint, "chapters">;
}

/**
 * Paper templates. "board-80" follows the CBSE Class X science design (2024–25): five sections
 * by question type and marks, 80 marks in 3 hours, internal choice in the long answers, and a
 * competency mix of about 45 % remember/understand, 30 % apply and 25 % analyse/evaluate/create.
 */
const TEMPLATES: Record<TPaperCreate["template"], ITemplate> = {
  "board-80": {
    durationMinutes: 180,
    totalMarks: 80,
    instructions: [
      "This question paper has five sections, A to E. All questions are compulsory.",
      "Internal choice is given in some questions; attempt only one of the alternatives.",
      "Section A has 20 multiple-choice questions of 1 mark each.",
      "Section B has 6 very short answer questions of 2 marks each; answer in 30 to 50 words.",
      "Section C has 7 short answer questions of 3 marks each; answer in 50 to 80 words.",
      "Section D has 3 long answer questions of 5 marks each; answer in 80 to 120 words.",
      "Section E has 3 case-based questions of 4 marks each.",
    ],
    sections: [
      {
        name: "Section A",
        instructions: "Choose the correct option.",
        questionType: "mcq",
        marksPerQuestion: 1,
      },
      {
        name: "Section B",
        instructions: "Very short answer questions.",
        questionType: "short",
        marksPerQuestion: 2,
      },
      {
        name: "Section C",
        instructions: "Short answer questions.",
        questionType: "short",
        marksPerQuestion: 3,
      },
      {
        name: "Section D",
        instructions: "Long answer questions.",
        questionType: "long",
        marksPerQuestion: 5,
      },
      { name: "Section E", instructions: "Case-based questions.", questionType: "long", marksPerQuestion: 4 },
    ],
    blueprint: {
      bloomBands: { "Remember+Understand": 36, Apply: 24, "Analyze+Evaluate+Create": 20 },
      types: { mcq: 20, short: 33, long: 27 },
      difficulty: { easy: 30, medium: 50, hard: 20 },
      tolerance: 4,
    },
  },
  "unit-test-20": {
    durationMinutes: 45,
    totalMarks: 20,
    instructions: ["All questions are compulsory.", "Marks are shown against each question."],
    sections: [
      {
        name: "Section A",
        instructions: "Choose the correct option.",
        questionType: "mcq",
        marksPerQuestion: 1,
      },
      { name: "Section B", instructions: "Answer briefly.", questionType: "short", marksPerQuestion: 2 },
      { name: "Section C", instructions: "Answer in detail.", questionType: "long", marksPerQuestion: 3 },
    ],
    blueprint: {
      bloomBands: { "Remember+Understand": 10, Apply: 6, "Analyze+Evaluate+Create": 4 },
      types: { mcq: 6, short: 8, long: 6 },
      tolerance: 2,
    },
  },
  blank: {
    durationMinutes: 60,
    totalMarks: 25,
    instructions: ["All questions are compulsory."],
    sections: [{ name: "Section A", instructions: "", questionType: "mixed" }],
  },
};

/** A new paper from a template; explicit duration/marks override the template's. */
export function paperFromTemplate(input: TPaperCreate, now = new Date()): Omit<IPaper, "id"> {
  const t = TEMPLATES[input.template];
  const sections: IPaperSection[] = t.sections.map((s) => ({
    id: randomUUID(),
    name: s.name,
    ...(s.instructions ? { instructions: s.instructions } : {}),
    questionType: s.questionType,
    ...(s.marksPerQuestion !== undefined ? { marksPerQuestion: s.marksPerQuestion } : {}),
    items: [],
  }));
  const totalMarks = input.totalMarks ?? t.totalMarks;
  // A template blueprint is only meaningful at the template's scale.
  const blueprint = t.blueprint && totalMarks === t.totalMarks ? t.blueprint : undefined;
  return {
    title: input.title,
    ...(input.schoolName ? { schoolName: input.schoolName } : {}),
    board: input.board,
    grade: input.grade,
    subject: input.subject,
    durationMinutes: input.durationMinutes ?? t.durationMinutes,
    totalMarks,
    instructions: [...t.instructions],
    sections,
    ...(blueprint ? { blueprint: structuredClone(blueprint) } : {}),
    version: 1,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
}
