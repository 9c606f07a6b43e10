import type { IPaper } from "@/types/paper.types";
import { marksLabel } from "./answer-key";
import { clean, graderInfo, type ILmsQuestion, lmsSections, optionFeedback } from "./export-lms";

/**
 * Moodle GIFT. Every text is written as `[moodle]` (Moodle's auto-format: line breaks kept, HTML
 * honoured), with `&`, `<` and `>` as entities so text arrives as written, never as markup, and
 * GIFT's own `~ = # { } :` and `\` escaped. The explicit format also means a text that itself
 * starts with `[html]` stays literal. GIFT has no syntax for a question's mark: the mark is in the
 * title and a comment (the Moodle XML export carries it as the default mark).
 */
export function giftEscape(text: string): string {
  return clean(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\\/g, "\\\\")
    .replace(/[~=#{}:]/g, (c) => `\\${c}`)
    .replace(/\n/g, "\\n");
}

/** Formatted GIFT text. */
const text = (s: string) => `[moodle]${giftEscape(s)}`;

/** A category path segment: Moodle splits category paths on `/`. */
const segment = (s: string) => clean(s).replace(/\s+/g, " ").replace(/\//g, "-").replace(/[<>]/g, "") || "-";

/** The answer block: choices with per-option feedback for MCQs, an essay with the grader's information otherwise. */
function answers(q: ILmsQuestion): string {
  const { question, entry } = q;
  if (question.type === "mcq" && question.options && question.correctIndex !== undefined) {
    const feedback = optionFeedback(question, entry);
    const lines = question.options.map((o, i) => {
      const fb = feedback[i];
      return `  ${i === question.correctIndex ? "=" : "~"}${text(o)}${fb ? `#${text(fb)}` : ""}`;
    });
    return `{\n${lines.join("\n")}\n}`;
  }
  // An essay's general feedback (`####`) shows the model answer and marking scheme after the attempt.
  const info = graderInfo(entry);
  return info ? `{\n  ####${text(info)}\n}` : "{}";
}

function question(q: ILmsQuestion, marks: number): string {
  return [
    `// ${q.title}: ${marksLabel(marks)}`,
    `::${giftEscape(`${q.title} (${marksLabel(marks)})`)}::${text(q.question.promptText)} ${answers(q)}`,
  ].join("\n");
}

/**
 * The paper as GIFT: one category per section; each OR pair in a category of its own, so the quiz
 * can draw one random question from it (Moodle's nearest form of "answer one of the two").
 */
export function paperToGift(paper: IPaper): string {
  const root = `$course$/top/${segment(paper.title)}`;
  const blocks = [
    `// ${clean(paper.title).replace(/\n/g, " ")}`,
    `// ${clean(`${paper.board} · Class ${paper.grade} · ${paper.subject}`).replace(/\n/g, " ")}`,
    "// GIFT carries no marks: each question's mark is in its title; import the Moodle XML export to keep them.",
  ];
  for (const { section, items } of lmsSections(paper)) {
    const category = `${root}/${segment(section.name)}`;
    const note = section.attemptAny ? ` (attempt any ${section.attemptAny} of ${items.length})` : "";
    blocks.push(`// ${clean(section.name).replace(/\n/g, " ")}${note}`, `$CATEGORY: ${category}`);
    for (const item of items) {
      if (!item.alternative) {
        blocks.push(question(item.main, item.marks));
        continue;
      }
      blocks.push(
        `// Q${item.number}: answer one of the two (add one random question from this category to the quiz)`,
        `$CATEGORY: ${category}/Q${item.number} (choose one)`,
        question(item.main, item.marks),
        question(item.alternative, item.marks),
        `$CATEGORY: ${category}`,
      );
    }
  }
  return `${blocks.join("\n\n")}\n`;
}
