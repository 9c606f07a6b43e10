import "server-only";
import {
  AlignmentType,
  BorderStyle,
  Document,
  Footer,
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
import { numberItems } from "./check";

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
    centred(title, { bold: true, size: 30 }, 200),
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
    keepNext: true,
    spacing: { after: 80 },
    children: runs("General instructions", { bold: true }),
  });
  const items = paper.instructions.map(
    (t, i) =>
      new Paragraph({
        indent: { left: 400, hanging: 400 },
        tabStops: [{ type: TabStopType.LEFT, position: 400 }],
        spacing: { after: 40 },
        children: [new TextRun({ children: [`${i + 1}.`, new Tab()] }), ...runs(t)],
      }),
  );
  return [head, ...items];
}

/** A section heading, its instructions and its summary line. */
function sectionHead(section: IPaperSection): Paragraph[] {
  const keep = { alignment: AlignmentType.CENTER, keepNext: true } as const;
  return [
    new Paragraph({
      ...keep,
      outlineLevel: 1,
      spacing: { before: 280, after: 40 },
      children: runs(section.name, { bold: true, size: 26 }),
    }),
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

/** MCQ options as (a) (b) (c) (d): two per line when all are short, else one per line. */
function options(opts: string[]): Paragraph[] {
  const label = (i: number) => `(${String.fromCharCode(97 + i)})`;
  const half = NUM + (RIGHT - NUM) / 2;
  if (opts.every((o) => o.length <= 40 && !o.includes("\n"))) {
    const rows: Paragraph[] = [];
    for (let i = 0; i < opts.length; i += 2) {
      const pair: ParagraphChild[] = [new TextRun(`${label(i)} ${stripControls(opts[i] ?? "")}`)];
      if (opts[i + 1] !== undefined)
        pair.push(
          new TextRun({ children: [new Tab(), `${label(i + 1)} ${stripControls(opts[i + 1] ?? "")}`] }),
        );
      rows.push(
        new Paragraph({
          indent: { left: NUM },
          tabStops: [{ type: TabStopType.LEFT, position: half }],
          keepNext: true,
          children: pair,
        }),
      );
    }
    return rows;
  }
  return opts.map(
    (o, i) =>
      new Paragraph({
        indent: { left: NUM + OPTION_LABEL, hanging: OPTION_LABEL },
        tabStops: [{ type: TabStopType.LEFT, position: NUM + OPTION_LABEL }],
        keepNext: true,
        children: [new TextRun({ children: [label(i), new Tab()] }), ...runs(o)],
      }),
  );
}

/** A question paragraph: "n.<tab>text<tab>[marks]" (number and marks optional). */
function stem(text: string, number: string, marks: number | undefined, keepNext: boolean): Paragraph {
  const children: ParagraphChild[] = [
    new TextRun({ bold: true, children: [number, new Tab()] }),
    ...runs(text),
    ...(marks !== undefined ? [new TextRun({ children: [new Tab(), `[${marks}]`] })] : []),
  ];
  return new Paragraph({
    indent: { left: NUM, hanging: NUM },
    tabStops: [
      { type: TabStopType.LEFT, position: NUM },
      { type: TabStopType.RIGHT, position: RIGHT },
    ],
    keepNext,
    spacing: { after: 60 },
    children,
  });
}

/** A question with its options. */
function question(q: IPaperQuestion, number = "", marks?: number): Paragraph[] {
  const opts = q.options ?? [];
  return [stem(q.promptText, number, marks, opts.length > 0), ...options(opts)];
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
function item(it: IPaperItem, n: number): Paragraph[] {
  const out = question(it.question, `${n}.`, it.marks);
  if (it.alternative) out.push(or(), ...question(it.alternative));
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

/** The marking scheme as "• point<tab>[m]" lines. */
function scheme(e: IAnswerKeyEntry): Paragraph[] {
  const rows = e.markingScheme.map(
    (p) =>
      new Paragraph({
        indent: { left: NUM + 300, hanging: 300 },
        tabStops: [
          { type: TabStopType.LEFT, position: NUM + 300 },
          { type: TabStopType.RIGHT, position: RIGHT },
        ],
        children: [
          new TextRun({ children: ["•", new Tab()] }),
          ...runs(p.point),
          new TextRun({ children: [new Tab(), `[${p.marks}]`] }),
        ],
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

/** One answer-key entry: the question, then answer, explanation, rationales, scheme, keywords, sources. */
function entry(e: IAnswerKeyEntry): Paragraph[] {
  const out = e.isAlternative ? [or()] : [];
  out.push(stem(e.promptText, e.isAlternative ? "" : `${e.number}.`, e.marks, true));
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
    styles: { default: { document: { run: { font: FONT, size: 22 } } } },
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
  const numbers = numberItems(paper);
  const children = [...header(paper, paper.title), ...instructions(paper)];
  for (const section of paper.sections) {
    children.push(...sectionHead(section));
    for (const it of section.items) children.push(...item(it, numbers.get(it.id) ?? 0));
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
