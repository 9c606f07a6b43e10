import "server-only";
import {
  AlignmentType,
  BorderStyle,
  Document,
  Footer,
  HeadingLevel,
  LevelFormat,
  Packer,
  PageNumber,
  Paragraph,
  type ParagraphChild,
  Tab,
  TabStopType,
  TextRun,
} from "docx";
import JSZip from "jszip";
import type { IPaper, IPaperItem, IPaperQuestion, IPaperSection } from "@/types/paper.types";
import {
  buildAnswerKey,
  citationLabel,
  classLine,
  formatDuration,
  type IAnswerKeyEntry,
  sectionSummary,
  stripControls,
} from "./answer-key";

/** Twips (1/20 pt): A4 with 50 pt margins, the number column, the right edge for marks. */
const PAGE_W = 11906;
const PAGE_H = 16838;
const MARGIN = 1000;
const RIGHT = PAGE_W - 2 * MARGIN;
const NUM = 520;
const OPTION_LABEL = 440;
const FONT = "Times New Roman";

interface IRunStyle {
  bold?: boolean;
  italics?: boolean;
  /** Half-points. */
  size?: number;
}

/** Text as runs: controls stripped, line breaks kept as breaks. */
function runs(text: string, style: IRunStyle = {}): TextRun[] {
  return stripControls(text)
    .split("\n")
    .map((line, i) => new TextRun({ text: line, ...style, ...(i > 0 ? { break: 1 } : {}) }));
}

/**
 * Word's own styles carry the structure, so the navigation pane and screen readers find it: the
 * title is Title, sections (and "General instructions") Heading 1, answer-key questions Heading 2;
 * questions are a numbered list (numbering continues across sections, as printed), options a
 * lettered list that starts again at (a) for every question, instructions a numbered list and
 * marking points a bulleted one.
 */
const QUESTIONS = "paperwise-questions";
const OPTIONS = "paperwise-options";
const INSTRUCTIONS = "paperwise-instructions";
const POINTS = "paperwise-points";

const NUMBERING = {
  config: [
    {
      reference: QUESTIONS,
      levels: [
        {
          level: 0,
          format: LevelFormat.DECIMAL,
          text: "%1.",
          alignment: AlignmentType.LEFT,
          style: { paragraph: { indent: { left: NUM, hanging: NUM } }, run: { bold: true } },
        },
        // A question's options: lettered again from (a) after every question.
        {
          level: 1,
          format: LevelFormat.LOWER_LETTER,
          text: "(%2)",
          alignment: AlignmentType.LEFT,
          style: { paragraph: { indent: { left: NUM + OPTION_LABEL, hanging: OPTION_LABEL } } },
        },
      ],
    },
    {
      reference: OPTIONS,
      levels: [
        {
          level: 0,
          format: LevelFormat.LOWER_LETTER,
          text: "(%1)",
          alignment: AlignmentType.LEFT,
          style: { paragraph: { indent: { left: NUM + OPTION_LABEL, hanging: OPTION_LABEL } } },
        },
      ],
    },
    {
      reference: INSTRUCTIONS,
      levels: [
        {
          level: 0,
          format: LevelFormat.DECIMAL,
          text: "%1.",
          alignment: AlignmentType.LEFT,
          style: { paragraph: { indent: { left: 400, hanging: 400 } } },
        },
      ],
    },
    {
      reference: POINTS,
      levels: [
        {
          level: 0,
          format: LevelFormat.BULLET,
          text: "•",
          alignment: AlignmentType.LEFT,
          style: { paragraph: { indent: { left: NUM + 300, hanging: 300 } } },
        },
      ],
    },
  ],
};

const black = { font: FONT, color: "000000" };
const STYLES = {
  default: {
    document: { run: { font: FONT, size: 22 } },
    title: {
      run: { ...black, size: 30, bold: true },
      paragraph: { alignment: AlignmentType.CENTER, spacing: { after: 200 } },
    },
    heading1: {
      run: { ...black, size: 26, bold: true },
      paragraph: { alignment: AlignmentType.CENTER, keepNext: true, spacing: { before: 280, after: 40 } },
    },
    heading2: {
      run: { ...black, size: 22, bold: true },
      paragraph: { keepNext: true, spacing: { before: 160, after: 40 } },
    },
  },
};

/** A centred paragraph. */
function centred(text: string, style: IRunStyle = {}, after = 40): Paragraph {
  return new Paragraph({ alignment: AlignmentType.CENTER, spacing: { after }, children: runs(text, style) });
}

/** The header: school, board, class and subject, title, time / maximum marks with a rule under. */
function header(paper: IPaper, title: string): Paragraph[] {
  return [
    ...(paper.schoolName ? [centred(paper.schoolName, { bold: true, size: 26 })] : []),
    centred(paper.board),
    centred(classLine(paper)),
    new Paragraph({ heading: HeadingLevel.TITLE, children: runs(title) }),
    new Paragraph({
      tabStops: [{ type: TabStopType.RIGHT, position: RIGHT }],
      border: { bottom: { style: BorderStyle.SINGLE, size: 8, color: "000000", space: 4 } },
      spacing: { after: 200 },
      children: [
        new TextRun(`Time: ${formatDuration(paper.durationMinutes)}`),
        new TextRun({ children: [new Tab(), `Maximum marks: ${paper.totalMarks}`] }),
      ],
    }),
  ];
}

/** "General instructions" and its numbered list. */
function instructions(paper: IPaper): Paragraph[] {
  if (paper.instructions.length === 0) return [];
  const head = new Paragraph({
    heading: HeadingLevel.HEADING_1,
    alignment: AlignmentType.LEFT,
    children: runs("General instructions"),
  });
  const items = paper.instructions.map(
    (t) =>
      new Paragraph({
        numbering: { reference: INSTRUCTIONS, level: 0 },
        spacing: { after: 40 },
        children: runs(t),
      }),
  );
  return [head, ...items];
}

/** A section heading, its instructions and its summary line. */
function sectionHead(section: IPaperSection): Paragraph[] {
  const keep = { alignment: AlignmentType.CENTER, keepNext: true } as const;
  return [
    new Paragraph({ heading: HeadingLevel.HEADING_1, children: runs(section.name) }),
    ...(section.instructions
      ? [
          new Paragraph({
            ...keep,
            spacing: { after: 20 },
            children: runs(section.instructions, { italics: true }),
          }),
        ]
      : []),
    new Paragraph({
      ...keep,
      spacing: { after: 160 },
      children: runs(sectionSummary(section), { size: 20 }),
    }),
  ];
}

/**
 * MCQ options as a lettered list: nested under a numbered question (its second level), or, under
 * an OR alternative (which has no number of its own), a list of their own started again at (a).
 */
function options(opts: string[], numbered: boolean): Paragraph[] {
  return opts.map(
    (o, i) =>
      new Paragraph({
        numbering: numbered
          ? { reference: QUESTIONS, level: 1 }
          : { reference: OPTIONS, level: 0, ...(i === 0 ? { restart: true } : {}) },
        keepNext: i < opts.length - 1,
        children: runs(o),
      }),
  );
}

/**
 * A question paragraph: an item of the numbered question list (or, for an OR alternative and in
 * the answer key, a plain paragraph at the same indent), its text, and its marks at the right edge.
 */
function stem(text: string, numbered: boolean, marks: number | undefined, keepNext: boolean): Paragraph {
  const children: ParagraphChild[] = [
    ...runs(text),
    ...(marks !== undefined ? [new TextRun({ children: [new Tab(), `[${marks}]`] })] : []),
  ];
  return new Paragraph({
    ...(numbered ? { numbering: { reference: QUESTIONS, level: 0 } } : { indent: { left: NUM } }),
    tabStops: [{ type: TabStopType.RIGHT, position: RIGHT }],
    keepNext,
    spacing: { after: 60 },
    children,
  });
}

/** A question with its options. */
function question(q: IPaperQuestion, numbered: boolean, marks?: number): Paragraph[] {
  const opts = q.options ?? [];
  return [stem(q.promptText, numbered, marks, opts.length > 0), ...options(opts, numbered)];
}

/** A centred bold "OR". */
function or(): Paragraph {
  return new Paragraph({
    alignment: AlignmentType.CENTER,
    keepNext: true,
    spacing: { before: 60, after: 60 },
    children: runs("OR", { bold: true }),
  });
}

/** One item: numbered question with marks, then "OR" and its alternative. */
function item(it: IPaperItem): Paragraph[] {
  const out = question(it.question, true, it.marks);
  if (it.alternative) out.push(or(), ...question(it.alternative, false));
  out.push(new Paragraph({ spacing: { after: 80 }, children: [] }));
  return out;
}

/** A labelled line of the answer key: bold "Label:" then text. */
function labelled(label: string, text: string): Paragraph {
  return new Paragraph({
    indent: { left: NUM },
    spacing: { after: 40 },
    children: [new TextRun({ text: `${label} `, bold: true }), ...runs(text)],
  });
}

/** The marking scheme as a bulleted list of "point<tab>[m]". */
function scheme(e: IAnswerKeyEntry): Paragraph[] {
  const rows = e.markingScheme.map(
    (p) =>
      new Paragraph({
        numbering: { reference: POINTS, level: 0 },
        tabStops: [{ type: TabStopType.RIGHT, position: RIGHT }],
        children: [...runs(p.point), new TextRun({ children: [new Tab(), `[${p.marks}]`] })],
      }),
  );
  return [
    new Paragraph({
      indent: { left: NUM },
      keepNext: true,
      children: runs("Marking scheme:", { bold: true }),
    }),
    ...rows,
  ];
}

/**
 * One answer-key entry: a Heading 2 "Question n (OR) · marks", the question, then answer,
 * explanation, rationales, scheme, keywords, sources.
 */
function entry(e: IAnswerKeyEntry): Paragraph[] {
  const label = `Question ${e.number}${e.isAlternative ? " (OR)" : ""} · ${e.marks} ${e.marks === 1 ? "mark" : "marks"}`;
  const out = [new Paragraph({ heading: HeadingLevel.HEADING_2, children: runs(label) })];
  out.push(stem(e.promptText, false, undefined, true));
  if (e.correctLetter)
    out.push(labelled("Answer:", `(${e.correctLetter.toLowerCase()}) ${e.correctText ?? ""}`));
  if (e.explanation) out.push(labelled("Explanation:", e.explanation));
  for (const d of e.distractors)
    if (d.rationale) out.push(labelled(`Not (${d.letter.toLowerCase()}):`, `${d.text} — ${d.rationale}`));
  if (e.suggestedAnswer) out.push(labelled("Suggested answer:", e.suggestedAnswer));
  if (e.type !== "mcq") out.push(...scheme(e));
  if (e.evaluatorKeywords.length > 0) out.push(labelled("Keywords:", e.evaluatorKeywords.join(", ")));
  out.push(labelled("Bloom level:", e.bloomLevel));
  if (e.citations.length > 0) out.push(labelled("Source:", e.citations.map(citationLabel).join("; ")));
  out.push(new Paragraph({ spacing: { after: 80 }, children: [] }));
  return out;
}

/** Builds the document: A4, 50 pt margins, serif body, "Page i of n" footer. */
async function pack(paper: IPaper, title: string, children: Paragraph[]): Promise<Buffer> {
  const doc = new Document({
    title: stripControls(title),
    subject: stripControls(`${paper.board} · ${classLine(paper)}`),
    creator: "Paperwise",
    lastModifiedBy: "Paperwise",
    revision: paper.version,
    styles: STYLES,
    numbering: NUMBERING,
    sections: [
      {
        properties: {
          page: {
            size: { width: PAGE_W, height: PAGE_H },
            margin: { top: MARGIN, right: MARGIN, bottom: MARGIN, left: MARGIN },
          },
        },
        footers: {
          default: new Footer({
            children: [
              new Paragraph({
                alignment: AlignmentType.CENTER,
                children: [
                  new TextRun({
                    size: 18,
                    children: ["Page ", PageNumber.CURRENT, " of ", PageNumber.TOTAL_PAGES],
                  }),
                ],
              }),
            ],
          }),
        },
        children,
      },
    ],
  });
  return reproducible(await Packer.toBuffer(doc), paper.updatedAt);
}

/** Rewrites the time docx stamps into core.xml and the zip entries, so equal papers give equal bytes. */
async function reproducible(buf: Buffer, updatedAt: string): Promise<Buffer> {
  const parsed = new Date(updatedAt);
  const date = Number.isNaN(parsed.getTime()) ? new Date(0) : parsed;
  const iso = date.toISOString().replace(/\.\d{3}Z$/, "Z");
  const zip = await JSZip.loadAsync(buf);
  const core = zip.file("docProps/core.xml");
  if (core) {
    const xml = (await core.async("string"))
      .replace(/(<dcterms:created[^>]*>)[^<]*(<\/dcterms:created>)/, `$1${iso}$2`)
      .replace(/(<dcterms:modified[^>]*>)[^<]*(<\/dcterms:modified>)/, `$1${iso}$2`);
    zip.file("docProps/core.xml", xml);
  }
  for (const file of Object.values(zip.files)) file.date = date;
  return zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
}

/** The question paper as a Word document. */
export async function paperToDocx(paper: IPaper): Promise<Buffer> {
  const children = [...header(paper, paper.title), ...instructions(paper)];
  for (const section of paper.sections) {
    children.push(...sectionHead(section));
    for (const it of section.items) children.push(...item(it));
  }
  return pack(paper, paper.title, children);
}

/** The answer key and marking scheme as a Word document. */
export async function answerKeyToDocx(paper: IPaper): Promise<Buffer> {
  const title = `${paper.title} — Answer key and marking scheme`;
  const entries = buildAnswerKey(paper);
  const children = header(paper, title);
  for (const [i, section] of paper.sections.entries()) {
    children.push(...sectionHead(section));
    for (const e of entries) if (e.sectionIndex === i) children.push(...entry(e));
  }
  return pack(paper, title, children);
}
