import type { IPaper } from "@/types/paper.types";
import { marksLabel } from "./answer-key";
import { clean, graderInfo, type ILmsQuestion, lmsSections, optionFeedback, xmlEscape } from "./export-lms";

/**
 * Moodle XML (Question bank → Import → Moodle XML format). Unlike GIFT it carries each question's
 * default mark, the essay grader information (model answer, marking scheme, keywords) and feedback
 * per option. Every text is `plain_text`, so Moodle shows it exactly as written, never as HTML.
 * Sections become categories; an OR pair gets a category of its own, from which the quiz draws one
 * random question (Moodle's nearest form of "answer one of the two").
 */

const text = (s: string) => `<text>${xmlEscape(clean(s))}</text>`;
const plain = (tag: string, s: string, attrs = "") =>
  `<${tag}${attrs} format="plain_text">${text(s)}</${tag}>`;

/** A Moodle category path segment (`/` separates categories). */
const segment = (s: string) => clean(s).replace(/\s+/g, " ").replace(/\//g, "-").replace(/[<>]/g, "") || "-";

function category(path: string, info: string): string[] {
  return [
    `<question type="category">`,
    `  <category>${text(path)}</category>`,
    `  ${plain("info", info)}`,
    "</question>",
  ];
}

function common(q: ILmsQuestion, marks: number, type: string, feedback: string): string[] {
  return [
    `<question type="${type}">`,
    `  <name>${text(`${q.title} (${marksLabel(marks)})`)}</name>`,
    `  ${plain("questiontext", q.question.promptText)}`,
    `  ${plain("generalfeedback", feedback)}`,
    `  <defaultgrade>${marks}</defaultgrade>`,
    "  <penalty>0</penalty>",
    "  <hidden>0</hidden>",
    `  <idnumber>${xmlEscape(q.ident)}</idnumber>`,
  ];
}

const tags = (q: ILmsQuestion) => [
  "  <tags>",
  `    <tag>${text(`bloom:${q.question.bloomLevel}`)}</tag>`,
  `    <tag>${text(`difficulty:${q.question.difficulty}`)}</tag>`,
  "  </tags>",
];

function multichoice(q: ILmsQuestion, marks: number): string[] {
  const options = q.question.options ?? [];
  const feedback = optionFeedback(q.question, q.entry);
  return [
    ...common(q, marks, "multichoice", q.question.explanation ?? ""),
    "  <single>true</single>",
    "  <shuffleanswers>false</shuffleanswers>",
    "  <answernumbering>abc</answernumbering>",
    ...options.flatMap((o, i) => [
      `  <answer fraction="${i === q.question.correctIndex ? 100 : 0}" format="plain_text">`,
      `    ${text(o)}`,
      `    ${plain("feedback", feedback[i] ?? "")}`,
      "  </answer>",
    ]),
    ...tags(q),
    "</question>",
  ];
}

/** An essay marked by hand: the model answer and marking scheme go to the grader, not the student. */
function essay(q: ILmsQuestion, marks: number): string[] {
  const long = q.question.type === "long";
  return [
    ...common(q, marks, "essay", ""),
    "  <responseformat>editor</responseformat>",
    "  <responserequired>1</responserequired>",
    `  <responsefieldlines>${long ? 15 : 5}</responsefieldlines>`,
    "  <attachments>0</attachments>",
    "  <attachmentsrequired>0</attachmentsrequired>",
    `  ${plain("graderinfo", graderInfo(q.entry))}`,
    `  ${plain("responsetemplate", "")}`,
    ...tags(q),
    "</question>",
  ];
}

function question(q: ILmsQuestion, marks: number): string[] {
  const mcq = q.question.type === "mcq" && q.question.options && q.question.correctIndex !== undefined;
  return mcq ? multichoice(q, marks) : essay(q, marks);
}

/** The paper as a Moodle XML question bank: a category per section, and per OR pair. */
export function paperToMoodleXml(paper: IPaper): string {
  const root = `$course$/top/${segment(paper.title)}`;
  const out: string[] = [];
  for (const { section, items } of lmsSections(paper)) {
    const path = `${root}/${segment(section.name)}`;
    const any = section.attemptAny
      ? ` Attempt any ${section.attemptAny} of ${items.length}: add ${section.attemptAny} random questions from this category.`
      : "";
    out.push(...category(path, `${clean(section.name)}.${any}`));
    for (const item of items) {
      if (!item.alternative) {
        out.push(...question(item.main, item.marks));
        continue;
      }
      out.push(
        ...category(
          `${path}/Q${item.number} (choose one)`,
          `Q${item.number}: the student answers one of the two. Add one random question from this category to the quiz.`,
        ),
        ...question(item.main, item.marks),
        ...question(item.alternative, item.marks),
        ...category(path, clean(section.name)),
      );
    }
  }
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    "<quiz>",
    ...out.map((l) => `  ${l}`),
    "</quiz>",
    "",
  ].join("\n");
}
