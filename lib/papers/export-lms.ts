import type { IPaper, IPaperQuestion, IPaperSection } from "@/types/paper.types";
import { buildAnswerKey, type IAnswerKeyEntry, marksLabel, optionLetter, stripControls } from "./answer-key";
import { numberItems } from "./check";

/**
 * What the LMS exports (QTI 1.2, Moodle XML, GIFT) share: the paper as numbered questions with
 * their answer-key entries, the feedback each format can carry, and XML escaping. Every LMS quiz
 * scores what the student answers, so the paper's internal choices become the nearest faithful
 * form each format has (see docs/exports-and-api.md):
 * - an OR pair is a *choice group*: both alternatives, of which the quiz uses one;
 * - an "attempt any N" section is a group that uses N of its questions.
 */

export interface ILmsQuestion {
  question: IPaperQuestion;
  entry: IAnswerKeyEntry | undefined;
  /** "Q5", "Q5-OR". */
  title: string;
  ident: string;
}

export interface ILmsItem {
  number: number;
  marks: number;
  main: ILmsQuestion;
  /** The OR alternative: the item becomes a group that uses one of the two. */
  alternative?: ILmsQuestion;
}

export interface ILmsSection {
  section: IPaperSection;
  items: ILmsItem[];
}

/** The paper as the LMS exports read it. */
export function lmsSections(paper: IPaper): ILmsSection[] {
  const numbers = numberItems(paper);
  const key = new Map(buildAnswerKey(paper).map((e) => [`${e.itemId}:${e.isAlternative}`, e]));
  return paper.sections.map((section) => ({
    section,
    items: section.items.map((item) => {
      const n = numbers.get(item.id) ?? 0;
      return {
        number: n,
        marks: item.marks,
        main: {
          question: item.question,
          entry: key.get(`${item.id}:false`),
          title: `Q${n}`,
          ident: `item-${item.id}`,
        },
        ...(item.alternative
          ? {
              alternative: {
                question: item.alternative,
                entry: key.get(`${item.id}:true`),
                title: `Q${n}-OR`,
                ident: `item-${item.id}-or`,
              },
            }
          : {}),
      };
    }),
  }));
}

/** Text cleaned for any export: controls dropped, line ends normalised, trimmed. */
export function clean(text: string): string {
  return stripControls(text).trim();
}

/** The feedback a student sees for each option: the explanation on the key, the rationale on a distractor. */
export function optionFeedback(
  q: IPaperQuestion,
  entry: IAnswerKeyEntry | undefined,
): (string | undefined)[] {
  const rationales = new Map((entry?.distractors ?? []).map((d) => [d.letter, d.rationale]));
  return (q.options ?? []).map((_, i) =>
    i === q.correctIndex ? q.explanation : rationales.get(optionLetter(i)),
  );
}

/**
 * What a marker needs for an open question, as plain text: the model answer, the marking scheme
 * (points that add up to the marks) and the keywords.
 */
export function graderInfo(entry: IAnswerKeyEntry | undefined): string {
  if (!entry) return "";
  const lines: string[] = [];
  if (entry.suggestedAnswer) lines.push(`Model answer: ${clean(entry.suggestedAnswer)}`);
  if (entry.markingScheme.length > 0) {
    lines.push(`Marking scheme (${marksLabel(entry.marks)}):`);
    for (const p of entry.markingScheme) lines.push(`- ${clean(p.point)} [${marksLabel(p.marks)}]`);
  }
  if (entry.evaluatorKeywords.length > 0)
    lines.push(`Keywords: ${entry.evaluatorKeywords.map(clean).join(", ")}`);
  return lines.join("\n");
}

/** Escapes text for XML 1.0 content and attributes, dropping characters XML cannot hold. */
export function xmlEscape(text: string): string {
  return stripControls(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}
