import type { EBloomLevel } from "@/types/bloom.types";
import type { EQuestionType } from "@/types/generation.types";
import type { IPaper, IPaperCitation, IPaperQuestion, IPaperSection } from "@/types/paper.types";
import { numberItems, sectionMarks } from "./check";

export interface IMarkingPoint {
  point: string;
  marks: number;
}

export interface IDistractor {
  letter: string;
  text: string;
  rationale?: string;
}

export interface IAnswerCitation {
  title: string;
  /** "p. 4" or "pp. 4–6"; absent when the source has no page numbers. */
  pages?: string;
}

/** One line of the answer key: an item, or the OR alternative of an item. */
export interface IAnswerKeyEntry {
  itemId: string;
  /** The number printed on the paper (OR alternatives share their item's number). */
  number: number;
  isAlternative: boolean;
  /** Index of the item's section in `paper.sections`. */
  sectionIndex: number;
  sectionName: string;
  type: EQuestionType;
  marks: number;
  bloomLevel: EBloomLevel;
  promptText: string;
  /** MCQ: the correct option's letter (A, B, C…) and text. */
  correctLetter?: string;
  correctText?: string;
  explanation?: string;
  distractors: IDistractor[];
  suggestedAnswer?: string;
  evaluatorKeywords: string[];
  /** Per-point marks that always add up to `marks`. */
  markingScheme: IMarkingPoint[];
  /** "given" when the question's own scheme adds up; "derived" when it was built here. */
  schemeSource: "given" | "derived";
  citations: IAnswerCitation[];
}

/** The option letter for a 0-based index: A, B, C… */
export function optionLetter(index: number): string {
  return String.fromCharCode(65 + index);
}

/** "3 hours", "1 hour 30 minutes", "45 minutes". */
export function formatDuration(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  const hours = h > 0 ? `${h} ${h === 1 ? "hour" : "hours"}` : "";
  const mins = m > 0 || h === 0 ? `${m} ${m === 1 ? "minute" : "minutes"}` : "";
  return [hours, mins].filter(Boolean).join(" ");
}

/** "1 mark" / "3 marks". */
export function marksLabel(marks: number): string {
  return `${marks} ${marks === 1 ? "mark" : "marks"}`;
}

/** The line printed under a section heading: "(4 questions × 1 mark = 4 marks)" or "Attempt any 3 of 4 …". */
export function sectionSummary(section: Pick<IPaperSection, "items" | "attemptAny">): string {
  const n = section.items.length;
  const total = sectionMarks(section);
  const first = section.items[0]?.marks;
  const uniform = first !== undefined && section.items.every((i) => i.marks === first);
  if (section.attemptAny !== undefined) {
    const detail = uniform ? `${section.attemptAny} × ${marksLabel(first)} = ${total}` : `${total}`;
    return `Attempt any ${section.attemptAny} of ${n} questions (${detail} marks)`;
  }
  if (uniform)
    return `(${n} ${n === 1 ? "question" : "questions"} × ${marksLabel(first)} = ${marksLabel(total)})`;
  return `(${n} ${n === 1 ? "question" : "questions"}, ${marksLabel(total)})`;
}

/** "Class 10 · Science". */
export function classLine(paper: Pick<IPaper, "grade" | "subject">): string {
  return `Class ${paper.grade} · ${paper.subject}`;
}

/** Removes characters no export format can carry (C0 controls but tab/newline, U+FFFE/FFFF, lone surrogates). */
export function stripControls(text: string): string {
  let out = "";
  for (const ch of text.replace(/\r\n?/g, "\n")) if (allowedChar(ch.codePointAt(0) ?? 0)) out += ch;
  return out;
}

/** Whether XML 1.0 (and so docx, QTI and PDF text) can hold a code point; string iteration yields lone surrogates alone. */
function allowedChar(cp: number): boolean {
  if (cp < 0x20) return cp === 0x09 || cp === 0x0a;
  if (cp === 0x7f || cp === 0xfffe || cp === 0xffff) return false;
  return cp < 0xd800 || cp > 0xdfff;
}

/** "Title, pp. 4–6". */
export function citationLabel(c: IAnswerCitation): string {
  return c.pages ? `${c.title}, ${c.pages}` : c.title;
}

/** Citations reduced to title and pages, without duplicates. */
function citationsOf(q: IPaperQuestion): IAnswerCitation[] {
  const seen = new Map<string, IAnswerCitation>();
  for (const c of q.citations) {
    const pages = pagesOf(c);
    const key = `${c.title}\u0000${pages ?? ""}`;
    if (!seen.has(key)) seen.set(key, pages ? { title: c.title, pages } : { title: c.title });
  }
  return [...seen.values()];
}

/** "p. 4", "pp. 4–6" or undefined. */
function pagesOf(c: IPaperCitation): string | undefined {
  if (c.pageStart === undefined) return undefined;
  if (c.pageEnd === undefined || c.pageEnd === c.pageStart) return `p. ${c.pageStart}`;
  return `pp. ${c.pageStart}–${c.pageEnd}`;
}

/** Splits an answer into its points: list lines first, then sentences. */
export function answerPoints(answer: string): string[] {
  return answer
    .split(/\n+/)
    .map((line) => line.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, "").trim())
    .filter(Boolean)
    .flatMap((line) => line.split(/(?<=[.!?;])\s+(?=[\p{Lu}\p{N}"'“(])/u))
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Sizes of `n` near-equal integer parts of `total` (larger parts first). */
function evenParts(total: number, n: number): number[] {
  const base = Math.floor(total / n);
  return Array.from({ length: n }, (_, i) => base + (i < total % n ? 1 : 0));
}

/**
 * A marking scheme for `marks` built from answer points: at most `marks` points (neighbours are
 * merged), marks spread as evenly as possible, at least 1 each, adding up to `marks`.
 */
export function deriveMarkingScheme(points: string[], marks: number): IMarkingPoint[] {
  if (marks < 1) return [];
  const source = points.length > 0 ? points : ["A complete and correct answer"];
  const n = Math.min(source.length, marks);
  const groupSizes = evenParts(source.length, n);
  const markParts = evenParts(marks, n);
  let at = 0;
  return groupSizes.map((size, i) => {
    const point = source.slice(at, at + size).join(" ");
    at += size;
    return { point, marks: markParts[i] ?? 0 };
  });
}

/** The question's scheme when it adds up to `marks`, else one derived from its answer. */
function markingSchemeOf(
  q: IPaperQuestion,
  marks: number,
): Pick<IAnswerKeyEntry, "markingScheme" | "schemeSource"> {
  const given = q.markingScheme ?? [];
  const sum = given.reduce((a, p) => a + p.marks, 0);
  if (given.length > 0 && sum === marks && given.every((p) => Number.isInteger(p.marks) && p.marks >= 1)) {
    return { markingScheme: given.map((p) => ({ point: p.point, marks: p.marks })), schemeSource: "given" };
  }
  if (q.type === "mcq" && q.correctIndex !== undefined) {
    const point = `Correct option (${optionLetter(q.correctIndex)})`;
    return { markingScheme: deriveMarkingScheme([point], marks), schemeSource: "derived" };
  }
  const points =
    given.length > 0 ? given.map((p) => p.point) : answerPoints(q.suggestedAnswer ?? q.explanation ?? "");
  return { markingScheme: deriveMarkingScheme(points, marks), schemeSource: "derived" };
}

/** Wrong options with their rationale (rationales follow the option order, or the distractor order). */
function distractorsOf(q: IPaperQuestion): IDistractor[] {
  const options = q.options ?? [];
  const rationales = q.distractorRationales ?? [];
  const perOption = rationales.length === options.length;
  let d = 0;
  const out: IDistractor[] = [];
  options.forEach((text, i) => {
    if (i === q.correctIndex) return;
    const rationale = perOption ? rationales[i] : rationales[d];
    d += 1;
    out.push(rationale ? { letter: optionLetter(i), text, rationale } : { letter: optionLetter(i), text });
  });
  return out;
}

/** The answer-key entry of one question (an item's main question or its OR alternative). */
function entryOf(
  q: IPaperQuestion,
  base: Pick<
    IAnswerKeyEntry,
    "itemId" | "number" | "isAlternative" | "sectionIndex" | "sectionName" | "marks"
  >,
): IAnswerKeyEntry {
  const correct = q.correctIndex !== undefined ? q.options?.[q.correctIndex] : undefined;
  return {
    ...base,
    type: q.type,
    bloomLevel: q.bloomLevel,
    promptText: q.promptText,
    ...(q.type === "mcq" && correct !== undefined && q.correctIndex !== undefined
      ? { correctLetter: optionLetter(q.correctIndex), correctText: correct }
      : {}),
    ...(q.explanation ? { explanation: q.explanation } : {}),
    distractors: q.type === "mcq" ? distractorsOf(q) : [],
    ...(q.suggestedAnswer ? { suggestedAnswer: q.suggestedAnswer } : {}),
    evaluatorKeywords: q.evaluatorKeywords ?? [],
    ...markingSchemeOf(q, base.marks),
    citations: citationsOf(q),
  };
}

/** The answer key of a paper: one entry per item, plus one per OR alternative, in printed order. */
export function buildAnswerKey(paper: IPaper): IAnswerKeyEntry[] {
  const numbers = numberItems(paper);
  return paper.sections.flatMap((section, sectionIndex) =>
    section.items.flatMap((item) => {
      const number = numbers.get(item.id) ?? 0;
      const base = { itemId: item.id, number, sectionIndex, sectionName: section.name, marks: item.marks };
      const main = entryOf(item.question, { ...base, isAlternative: false });
      return item.alternative ? [main, entryOf(item.alternative, { ...base, isAlternative: true })] : [main];
    }),
  );
}
