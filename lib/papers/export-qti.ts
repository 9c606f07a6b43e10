import type { IPaper } from "@/types/paper.types";
import { optionLetter } from "./answer-key";
import {
  clean,
  graderInfo,
  type ILmsItem,
  type ILmsQuestion,
  lmsSections,
  optionFeedback,
  xmlEscape,
} from "./export-lms";

/**
 * IMS QTI 1.2.1 (ASI), as Canvas and Blackboard import it: the IMS namespace on the root, one
 * assessment with one root section, and per item its marks (`points_possible`, `SCORE` maximum),
 * Canvas's `question_type`, feedback per option for MCQs, and for open questions the model answer,
 * marking scheme and keywords as general feedback. An OR pair (and an "attempt any N" section) is a
 * nested section with `selection_number` (Canvas imports it as a question group that draws one of
 * the two, worth the item's marks). Paper sections are named in each item's title and metadata.
 */
const NS = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2";
const XSD = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2p1.xsd";

const material = (text: string) =>
  `<material><mattext texttype="text/plain">${xmlEscape(clean(text))}</mattext></material>`;

function metadata(fields: Record<string, string>): string[] {
  return [
    "<itemmetadata>",
    "  <qtimetadata>",
    ...Object.entries(fields).map(
      ([k, v]) =>
        `    <qtimetadatafield><fieldlabel>${xmlEscape(k)}</fieldlabel><fieldentry>${xmlEscape(v)}</fieldentry></qtimetadatafield>`,
    ),
    "  </qtimetadata>",
    "</itemmetadata>",
  ];
}

const feedbackBlock = (ident: string, text: string) => [
  `<itemfeedback ident="${ident}">`,
  `  <flow_mat>${material(text)}</flow_mat>`,
  "</itemfeedback>",
];

/** An MCQ: choices, scoring of the right letter, and a feedback per option. */
function choiceItem(q: ILmsQuestion, marks: number): { body: string[]; feedback: string[] } {
  const { question } = q;
  const options = question.options ?? [];
  const feedback = optionFeedback(question, q.entry);
  const right = optionLetter(question.correctIndex ?? 0);
  const perOption = options.flatMap((_, i) =>
    feedback[i]
      ? [
          `<respcondition continue="Yes">`,
          `  <conditionvar><varequal respident="response1">${optionLetter(i)}</varequal></conditionvar>`,
          `  <displayfeedback feedbacktype="Response" linkrefid="${optionLetter(i)}_fb"/>`,
          "</respcondition>",
        ]
      : [],
  );
  return {
    body: [
      "<presentation>",
      `  ${material(question.promptText)}`,
      `  <response_lid ident="response1" rcardinality="Single">`,
      `    <render_choice shuffle="No">`,
      ...options.map(
        (o, i) => `      <response_label ident="${optionLetter(i)}">${material(o)}</response_label>`,
      ),
      "    </render_choice>",
      "  </response_lid>",
      "</presentation>",
      "<resprocessing>",
      `  <outcomes><decvar varname="SCORE" vartype="Decimal" minvalue="0" maxvalue="${marks}"/></outcomes>`,
      ...perOption.map((l) => `  ${l}`),
      `  <respcondition continue="No" title="correct">`,
      `    <conditionvar><varequal respident="response1">${right}</varequal></conditionvar>`,
      `    <setvar action="Set" varname="SCORE">${marks}</setvar>`,
      "  </respcondition>",
      "</resprocessing>",
    ],
    feedback: options.flatMap((_, i) => {
      const text = feedback[i];
      return text ? feedbackBlock(`${optionLetter(i)}_fb`, text) : [];
    }),
  };
}

/** A short or long question: a text box, scored by hand out of its marks, with the grader's information. */
function essayItem(q: ILmsQuestion, marks: number): { body: string[]; feedback: string[] } {
  const rows = q.question.type === "long" ? 15 : 5;
  const info = graderInfo(q.entry);
  return {
    body: [
      "<presentation>",
      `  ${material(q.question.promptText)}`,
      `  <response_str ident="response1" rcardinality="Single">`,
      `    <render_fib fibtype="String" prompt="Box" rows="${rows}" columns="80"/>`,
      "  </response_str>",
      "</presentation>",
      "<resprocessing>",
      `  <outcomes><decvar varname="SCORE" vartype="Decimal" minvalue="0" maxvalue="${marks}"/></outcomes>`,
      `  <respcondition continue="No">`,
      "    <conditionvar><other/></conditionvar>",
      ...(info ? [`    <displayfeedback feedbacktype="Response" linkrefid="general_fb"/>`] : []),
      "  </respcondition>",
      "</resprocessing>",
    ],
    feedback: info ? feedbackBlock("general_fb", info) : [],
  };
}

function item(q: ILmsQuestion, marks: number, sectionName: string): string[] {
  const mcq = q.question.type === "mcq" && q.question.options && q.question.correctIndex !== undefined;
  const { body, feedback } = mcq ? choiceItem(q, marks) : essayItem(q, marks);
  const title = `${clean(sectionName).replace(/\s+/g, " ")} · ${q.title.replace("-OR", " (OR)")}`;
  return [
    `<item ident="${xmlEscape(q.ident)}" title="${xmlEscape(title)}">`,
    ...metadata({
      question_type: mcq ? "multiple_choice_question" : "essay_question",
      qmd_itemtype: mcq ? "Multiple Choice" : "Essay",
      points_possible: String(marks),
      bloom_level: q.question.bloomLevel,
      paper_section: clean(sectionName),
    }).map((l) => `  ${l}`),
    ...body.map((l) => `  ${l}`),
    ...feedback.map((l) => `  ${l}`),
    "</item>",
  ];
}

/** A nested section that draws `pick` of its items, each worth `marks` (a Canvas question group). */
function group(ident: string, title: string, pick: number, marks: number, items: string[]): string[] {
  return [
    `<section ident="${xmlEscape(ident)}" title="${xmlEscape(title)}">`,
    "  <selection_ordering>",
    "    <selection>",
    `      <selection_number>${pick}</selection_number>`,
    `      <selection_extension><points_per_item>${marks}</points_per_item></selection_extension>`,
    "    </selection>",
    "  </selection_ordering>",
    ...items.map((l) => `  ${l}`),
    "</section>",
  ];
}

/** An item, or its OR pair as a group that draws one. */
function itemOrPair(i: ILmsItem, sectionName: string): string[] {
  if (!i.alternative) return item(i.main, i.marks, sectionName);
  return group(`${i.main.ident}-choice`, `Q${i.number}: one of two (OR)`, 1, i.marks, [
    ...item(i.main, i.marks, sectionName),
    ...item(i.alternative, i.marks, sectionName),
  ]);
}

/** The paper as QTI 1.2.1: `questestinterop` → assessment → root section → items and groups. */
export function paperToQti(paper: IPaper): string {
  const body = lmsSections(paper).flatMap(({ section, items }) => {
    // "Attempt any N": a group drawing N of the section's questions (only their main questions:
    // a group cannot hold a group), each worth the section's highest mark.
    if (section.attemptAny && section.attemptAny < items.length) {
      const marks = Math.max(...items.map((i) => i.marks));
      return group(
        `section-${section.id}`,
        `${clean(section.name)} (any ${section.attemptAny} of ${items.length})`,
        section.attemptAny,
        marks,
        items.flatMap((i) => item(i.main, i.marks, section.name)),
      );
    }
    return items.flatMap((i) => itemOrPair(i, section.name));
  });
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<questestinterop xmlns="${NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${NS} ${XSD}">`,
    `  <assessment ident="paper-${xmlEscape(paper.id)}" title="${xmlEscape(clean(paper.title))}">`,
    "    <qtimetadata>",
    `      <qtimetadatafield><fieldlabel>qmd_timelimit</fieldlabel><fieldentry>${paper.durationMinutes}</fieldentry></qtimetadatafield>`,
    `      <qtimetadatafield><fieldlabel>cc_maxattempts</fieldlabel><fieldentry>1</fieldentry></qtimetadatafield>`,
    "    </qtimetadata>",
    `    <section ident="root_section" title="${xmlEscape(clean(paper.title))}">`,
    ...body.map((l) => `      ${l}`),
    "    </section>",
    "  </assessment>",
    "</questestinterop>",
    "",
  ].join("\n");
}
