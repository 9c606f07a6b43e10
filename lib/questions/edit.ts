import { type IEditableQuestion, questionEditIssues, type TPatchQuestion } from "@/schema/generation.schema";
import type { EBloomLevel } from "@/types/bloom.types";
import type { EQuestionType, TQuestion } from "@/types/generation.types";
import type { IPaperItem, IPaperQuestion } from "@/types/paper.types";

/** A question as the edit form holds it, for a generated card and a paper item alike. */
export interface IQuestionForm {
  type: EQuestionType;
  promptText: string;
  bloomLevel: EBloomLevel;
  marks: number;
  /** MCQ only. */
  options?: string[];
  correctIndex?: number;
  /** The MCQ's explanation, or the model answer of a short or long answer. */
  answer: string;
  markingScheme: { point: string; marks: number }[];
}

export interface IFormIssue {
  path: string;
  message: string;
}

/** What is wrong with the form, per field: the server's rules (`questionEditIssues`) and empty text. */
export function formIssues(f: IQuestionForm, maxMarks = 20): IFormIssue[] {
  const issues: IFormIssue[] = [];
  if (f.promptText.trim().length < 8) {
    issues.push({ path: "promptText", message: "The question needs at least 8 characters" });
  }
  if (!Number.isInteger(f.marks) || f.marks < 1 || f.marks > maxMarks) {
    issues.push({ path: "marks", message: `Marks are a whole number from 1 to ${maxMarks}` });
  }
  f.options?.forEach((o, i) => {
    if (o.trim() === "") issues.push({ path: `options.${i}`, message: `Option ${letter(i)} is empty` });
  });
  f.markingScheme.forEach((p, i) => {
    if (p.point.trim() === "")
      issues.push({ path: `markingScheme.${i}`, message: `Marking point ${i + 1} is empty` });
    if (!Number.isInteger(p.marks) || p.marks < 1)
      issues.push({ path: `markingScheme.${i}`, message: `Marking point ${i + 1} needs at least 1 mark` });
  });
  const editable: IEditableQuestion = {
    type: f.type,
    marks: f.marks,
    ...(f.options ? { options: f.options } : {}),
    ...(f.correctIndex !== undefined ? { correctIndex: f.correctIndex } : {}),
    markingScheme: f.markingScheme,
  };
  return [...issues, ...questionEditIssues(editable)];
}

export const letter = (i: number) => String.fromCharCode(65 + i);

export function formOfQuestion(q: TQuestion): IQuestionForm {
  return {
    type: q.type,
    promptText: q.promptText,
    bloomLevel: q.bloomLevel,
    marks: q.marks,
    ...(q.type === "mcq" ? { options: [...q.options], correctIndex: q.correctIndex } : {}),
    answer: q.type === "mcq" ? q.explanation : q.suggestedAnswer,
    markingScheme: q.type === "mcq" ? [] : [...(q.markingScheme ?? [])],
  };
}

export function formOfPaperItem(item: IPaperItem): IQuestionForm {
  const q = item.question;
  return {
    type: q.type,
    promptText: q.promptText,
    bloomLevel: q.bloomLevel,
    marks: item.marks,
    ...(q.type === "mcq" ? { options: [...(q.options ?? [])], correctIndex: q.correctIndex ?? 0 } : {}),
    answer: (q.type === "mcq" ? q.explanation : q.suggestedAnswer) ?? "",
    markingScheme: [...(q.markingScheme ?? [])],
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Whether the question itself (stem or options) changed: the key may no longer be right. */
export function questionChanged(before: IQuestionForm, after: IQuestionForm): boolean {
  return before.promptText.trim() !== after.promptText.trim() || !same(before.options, after.options);
}

/** The PATCH body for what changed between two forms (undefined: nothing changed). */
export function patchOf(before: IQuestionForm, after: IQuestionForm): TPatchQuestion | undefined {
  const p: TPatchQuestion = {};
  if (after.promptText.trim() !== before.promptText.trim()) p.promptText = after.promptText.trim();
  if (after.marks !== before.marks) p.marks = after.marks;
  if (after.bloomLevel !== before.bloomLevel) p.bloomLevel = after.bloomLevel;
  if (after.options && !same(after.options, before.options)) p.options = after.options.map((o) => o.trim());
  if (after.correctIndex !== undefined && after.correctIndex !== before.correctIndex)
    p.correctIndex = after.correctIndex;
  if (after.answer.trim() !== before.answer.trim()) {
    if (after.type === "mcq") p.explanation = after.answer.trim();
    else p.suggestedAnswer = after.answer.trim();
  }
  if (!same(after.markingScheme, before.markingScheme)) {
    p.markingScheme = after.markingScheme.map((m) => ({ point: m.point.trim(), marks: m.marks }));
  }
  return Object.keys(p).length > 0 ? p : undefined;
}

/** A generated question with an edit applied, as the server saves it (for the card at once). */
export function applyPatch(q: TQuestion, p: TPatchQuestion): TQuestion {
  const content = Object.keys(p).some((k) => k !== "status" && k !== "checkAnswer");
  const changed =
    (p.promptText !== undefined && p.promptText !== q.promptText) ||
    (p.options !== undefined && q.type === "mcq" && !same(p.options, q.options));
  const base = {
    ...q,
    ...(p.promptText !== undefined ? { promptText: p.promptText } : {}),
    ...(p.marks !== undefined ? { marks: p.marks } : {}),
    ...(p.bloomLevel !== undefined ? { bloomLevel: p.bloomLevel } : {}),
    ...(content ? { edited: true } : {}),
    ...(p.checkAnswer !== undefined ? { checkAnswer: p.checkAnswer } : changed ? { checkAnswer: true } : {}),
  };
  if (base.type === "mcq") {
    const options = p.options ?? base.options;
    const correctIndex = p.correctIndex ?? base.correctIndex;
    const old = new Map(
      base.options
        .map((o, i) => [o, i] as const)
        .filter(([, i]) => i !== base.correctIndex)
        .map(([o], j) => [o, base.distractorRationales[j] ?? ""] as const),
    );
    return {
      ...base,
      options,
      correctIndex,
      distractorRationales:
        p.options || p.correctIndex !== undefined
          ? options.filter((_, i) => i !== correctIndex).map((o) => old.get(o) ?? "")
          : base.distractorRationales,
      ...(p.explanation !== undefined ? { explanation: p.explanation } : {}),
    };
  }
  return {
    ...base,
    ...(p.suggestedAnswer !== undefined ? { suggestedAnswer: p.suggestedAnswer } : {}),
    ...(p.markingScheme !== undefined ? { markingScheme: p.markingScheme } : {}),
  } as TQuestion;
}

/** A paper item with the form applied: the item's marks, the question's fields and review flags. */
export function applyFormToItem(item: IPaperItem, opened: IQuestionForm, f: IQuestionForm): void {
  const q: IPaperQuestion = item.question;
  item.marks = f.marks;
  q.promptText = f.promptText;
  q.bloomLevel = f.bloomLevel;
  if (f.options) {
    q.options = f.options;
    q.correctIndex = f.correctIndex;
  }
  if (f.type === "mcq") q.explanation = f.answer;
  else q.suggestedAnswer = f.answer;
  q.markingScheme = f.markingScheme.length > 0 ? f.markingScheme : undefined;
  const changed = patchOf(opened, f) !== undefined;
  if (changed) q.edited = true;
  if (questionChanged(opened, f)) q.checkAnswer = true;
}
