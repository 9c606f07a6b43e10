import "server-only";
import { readFileSync } from "node:fs";
import path from "node:path";
import fontkit from "@pdf-lib/fontkit";
import { PDFDocument, type PDFFont, type PDFPage, rgb } from "pdf-lib";
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

const PAGE_W = 595;
const PAGE_H = 842;
const MARGIN = 50;
const CONTENT_W = PAGE_W - 2 * MARGIN;
const RIGHT = PAGE_W - MARGIN;
const NUM_W = 26;
const MARKS_W = 34;
const TEXT_X = MARGIN + NUM_W;
const TEXT_W = CONTENT_W - NUM_W - MARKS_W;
const BODY = 10.5;
const LEADING = 1.38;

/** A font and the code points it can draw. */
interface IFace {
  font: PDFFont;
  chars: Set<number>;
  widths: Map<string, number>;
}

interface IFaces {
  regular: IFace;
  bold: IFace;
}

/** Text drawn at an absolute x on a row. */
interface IRun {
  text: string;
  x: number;
  face: IFace;
  size: number;
}

interface IRow {
  height: number;
  runs: IRun[];
  rule?: boolean;
  spacer?: boolean;
}

/** Rows placed together; a short `keep` block moves to a new page rather than split (see keepHeight). */
interface IBlock {
  rows: IRow[];
  keep?: boolean;
  /** Extra space that must follow the block on the same page (keeps headings with what they head). */
  needs?: number;
}

interface IWriter {
  doc: PDFDocument;
  page: PDFPage;
  y: number;
}

interface IStyle {
  face: IFace;
  size: number;
}

/** Reads a DejaVu font from node_modules. */
function fontBytes(file: string): Buffer {
  // Spelled out (not spread from a list) so the build traces only this folder, not the project.
  return readFileSync(path.join(process.cwd(), "node_modules", "dejavu-fonts-ttf", "ttf", file));
}

/** Embeds the serif faces (subset, fixed names so output is reproducible). */
async function embedFaces(doc: PDFDocument): Promise<IFaces> {
  doc.registerFontkit(fontkit);
  const face = async (file: string, customName: string): Promise<IFace> => {
    const font = await doc.embedFont(fontBytes(file), { subset: true, customName });
    return { font, chars: new Set(font.getCharacterSet()), widths: new Map() };
  };
  return {
    regular: await face("DejaVuSerif.ttf", "DejaVuSerif"),
    bold: await face("DejaVuSerif-Bold.ttf", "DejaVuSerif-Bold"),
  };
}

/** Text the face can draw: controls stripped, tabs as spaces, missing glyphs as "?". */
function drawable(text: string, face: IFace): string {
  let out = "";
  for (const ch of stripControls(text)) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === "\n") out += ch;
    else if (ch === "\t") out += " ";
    else out += face.chars.has(cp) ? ch : "?";
  }
  return out;
}

/** Width of (already fitted) text, cached per word. */
function measure(text: string, style: IStyle): number {
  let w = style.face.widths.get(text);
  if (w === undefined) {
    w = style.face.font.widthOfTextAtSize(text, 1);
    style.face.widths.set(text, w);
  }
  return w * style.size;
}

/** Splits a word too wide for any line into pieces: the first fits `first`, the rest `width`. */
function breakWord(word: string, style: IStyle, first: number, width: number): string[] {
  const pieces: string[] = [];
  let piece = "";
  for (const ch of word) {
    const avail = pieces.length === 0 ? first : width;
    if (piece && measure(piece + ch, style) > avail) {
      pieces.push(piece);
      piece = ch;
    } else piece += ch;
  }
  if (piece) pieces.push(piece);
  return pieces;
}

/** Word-wraps text to `width` (the first line to `first`); breaks long words; keeps paragraph breaks. */
function wrap(text: string, style: IStyle, width: number, first = width): string[] {
  const lines: string[] = [];
  const space = measure(" ", style);
  for (const para of drawable(text, style.face).split("\n")) {
    let line = "";
    let lineW = 0;
    for (const word of para.split(/ +/).filter(Boolean)) {
      const avail = lines.length === 0 ? first : width;
      const w = measure(word, style);
      if (line && lineW + space + w <= avail) {
        line += ` ${word}`;
        lineW += space + w;
        continue;
      }
      if (line) lines.push(line);
      const pieces =
        w <= (line ? width : avail) ? [word] : breakWord(word, style, line ? width : avail, width);
      lines.push(...pieces.slice(0, -1));
      line = pieces.at(-1) ?? "";
      lineW = measure(line, style);
    }
    lines.push(line);
  }
  return lines;
}

/** Row height for a font size. */
const lineHeight = (size: number) => size * LEADING;

/** A blank gap (dropped at the top of a page). */
const spacer = (height: number): IRow => ({ height, runs: [], spacer: true });

/** Wrapped text as rows, aligned within [x, x + width]. */
function textRows(
  text: string,
  style: IStyle,
  x: number,
  width: number,
  align: "left" | "center" = "left",
): IRow[] {
  return wrap(text, style, width).map((line) => {
    const lx = align === "center" ? x + (width - measure(line, style)) / 2 : x;
    return { height: lineHeight(style.size), runs: [{ text: line, x: lx, ...style }] };
  });
}

/** Rows of a "Label: text" paragraph: bold label, text wrapping under it. */
function labelledRows(label: string, text: string, faces: IFaces, x: number, width: number): IRow[] {
  const labelStyle = { face: faces.bold, size: BODY };
  const style = { face: faces.regular, size: BODY };
  const labelW = measure(drawable(label, faces.bold), labelStyle) + measure(" ", style);
  return wrap(text, style, width, width - labelW).map((line, i) => ({
    height: lineHeight(BODY),
    runs:
      i === 0
        ? [
            { text: drawable(label, faces.bold), x, ...labelStyle },
            { text: line, x: x + labelW, ...style },
          ]
        : [{ text: line, x, ...style }],
  }));
}

/**
 * A right-aligned run ending at `right`. Callers put it before a row's text so that text
 * extraction reads "[2]" ahead of the question rather than inside it when a question breaks pages.
 */
function rightRun(text: string, style: IStyle, right = RIGHT): IRun {
  const t = drawable(text, style.face);
  return { text: t, x: right - measure(t, style), ...style };
}

/** Starts a new page. */
function newPage(w: IWriter): void {
  w.page = w.doc.addPage([PAGE_W, PAGE_H]);
  w.y = PAGE_H - MARGIN;
}

/** Draws one row at the writer's position. */
function drawRow(w: IWriter, row: IRow): void {
  const baseline = w.y - row.height + (row.height - (row.runs[0]?.size ?? BODY)) * 0.55;
  if (row.rule) {
    const y = w.y - row.height / 2;
    w.page.drawLine({ start: { x: MARGIN, y }, end: { x: RIGHT, y }, thickness: 0.8, color: rgb(0, 0, 0) });
  }
  for (const run of row.runs) {
    if (run.text) w.page.drawText(run.text, { x: run.x, y: baseline, font: run.face.font, size: run.size });
  }
  w.y -= row.height;
}

/**
 * Height that must fit on the current page before a block starts: the whole block when it is kept
 * together and short (under a third of a page), else its first three rows (no orphaned first line).
 */
function keepHeight(block: IBlock): number {
  const content = block.rows.filter((r, i) => !(r.spacer && i === 0));
  const whole = content.reduce((a, r) => a + r.height, 0);
  const head = content.slice(0, 3).reduce((a, r) => a + r.height, 0);
  const kept = block.keep && whole <= (PAGE_H - 2 * MARGIN) / 3 ? whole : head;
  return kept + (block.needs ?? 0);
}

/** Places a block row by row, breaking pages before a row would cross the bottom margin. */
function placeBlock(w: IWriter, block: IBlock): void {
  const atTop = w.y >= PAGE_H - MARGIN;
  if (!atTop && w.y - keepHeight(block) < MARGIN) newPage(w);
  for (const row of block.rows) {
    const top = w.y >= PAGE_H - MARGIN;
    if (row.spacer && (top || w.y - row.height < MARGIN)) continue;
    if (w.y - row.height < MARGIN) newPage(w);
    drawRow(w, row);
  }
}

/** Footer "Page i of n" on every page. */
function drawFooters(doc: PDFDocument, faces: IFaces): void {
  const pages = doc.getPages();
  const style = { face: faces.regular, size: 9 };
  pages.forEach((page, i) => {
    const text = `Page ${i + 1} of ${pages.length}`;
    page.drawText(text, {
      x: (PAGE_W - measure(text, style)) / 2,
      y: MARGIN / 2,
      font: faces.regular.font,
      size: 9,
    });
  });
}

/** The centred header: school, board, class and subject, title, then time / maximum marks and a rule. */
function headerBlock(paper: IPaper, title: string, faces: IFaces): IBlock {
  const centred = (text: string, face: IFace, size: number) =>
    textRows(text, { face, size }, MARGIN, CONTENT_W, "center");
  const style = { face: faces.regular, size: BODY };
  const time = drawable(`Time: ${formatDuration(paper.durationMinutes)}`, faces.regular);
  return {
    rows: [
      ...(paper.schoolName ? centred(paper.schoolName, faces.bold, 13) : []),
      ...centred(paper.board, faces.regular, 11),
      ...centred(classLine(paper), faces.regular, 11),
      spacer(4),
      ...centred(title, faces.bold, 15),
      spacer(8),
      {
        height: lineHeight(BODY),
        runs: [{ text: time, x: MARGIN, ...style }, rightRun(`Maximum marks: ${paper.totalMarks}`, style)],
      },
      { height: 10, runs: [], rule: true },
    ],
  };
}

/** "General instructions" and its numbered list. */
function instructionsBlock(paper: IPaper, faces: IFaces): IBlock[] {
  if (paper.instructions.length === 0) return [];
  const style = { face: faces.regular, size: BODY };
  const head = {
    rows: [spacer(4), ...textRows("General instructions", { face: faces.bold, size: 11 }, MARGIN, CONTENT_W)],
    needs: 30,
    keep: true,
  };
  const items = paper.instructions.map((text, i) => {
    const rows = textRows(text, style, MARGIN + 20, CONTENT_W - 20);
    rows[0]?.runs.unshift({ text: `${i + 1}.`, x: MARGIN + 4, ...style });
    return { rows: [...rows, spacer(2)] };
  });
  return [head, ...items, { rows: [spacer(6)] }];
}

/** A section heading with its instructions and summary line. */
function sectionHeadBlock(section: IPaperSection, faces: IFaces): IBlock {
  const centred = (text: string, face: IFace, size: number) =>
    textRows(text, { face, size }, MARGIN, CONTENT_W, "center");
  return {
    rows: [
      spacer(12),
      ...centred(section.name, faces.bold, 12.5),
      ...(section.instructions ? centred(section.instructions, faces.regular, BODY) : []),
      ...centred(sectionSummary(section), faces.regular, 9.5),
      spacer(6),
    ],
    keep: true,
    needs: lineHeight(BODY) * 3,
  };
}

/** MCQ options as (a) (b) (c) (d): two columns when every option is short, else one per line. */
function optionRows(options: string[], faces: IFaces): IRow[] {
  const style = { face: faces.regular, size: BODY };
  const labelW = 20;
  const colW = TEXT_W / 2;
  const label = (i: number) => `(${String.fromCharCode(97 + i)})`;
  const short = options.every(
    (o) => measure(drawable(o, faces.regular), style) <= colW - labelW - 10 && !o.includes("\n"),
  );
  if (short) {
    const rows: IRow[] = [];
    for (let i = 0; i < options.length; i += 2) {
      const runs = [i, i + 1].flatMap((j, col) => {
        const o = options[j];
        if (o === undefined) return [];
        const x = TEXT_X + col * colW;
        return [
          { text: label(j), x, ...style },
          { text: drawable(o, faces.regular), x: x + labelW, ...style },
        ];
      });
      rows.push({ height: lineHeight(BODY), runs });
    }
    return rows;
  }
  return options.flatMap((o, i) => {
    const rows = textRows(o, style, TEXT_X + labelW, TEXT_W - labelW);
    rows[0]?.runs.unshift({ text: label(i), x: TEXT_X, ...style });
    return rows;
  });
}

/** A question's text and options at the question indent. */
function questionRows(q: IPaperQuestion, faces: IFaces): IRow[] {
  const rows = textRows(q.promptText, { face: faces.regular, size: BODY }, TEXT_X, TEXT_W);
  return q.options && q.options.length > 0 ? [...rows, spacer(2), ...optionRows(q.options, faces)] : rows;
}

/** A centred bold "OR" between alternatives. */
function orRows(faces: IFaces): IRow[] {
  return [
    spacer(3),
    ...textRows("OR", { face: faces.bold, size: BODY }, MARGIN, CONTENT_W, "center"),
    spacer(3),
  ];
}

/** One numbered item with right-aligned marks and its OR alternative. */
function itemBlock(item: IPaperItem, number: number, faces: IFaces): IBlock {
  const rows = questionRows(item.question, faces);
  const bold = { face: faces.bold, size: BODY };
  rows[0]?.runs.unshift(
    { text: `${number}.`, x: MARGIN, ...bold },
    rightRun(`[${item.marks}]`, { face: faces.regular, size: BODY }),
  );
  const alt = item.alternative ? [...orRows(faces), ...questionRows(item.alternative, faces)] : [];
  return { rows: [...rows, ...alt, spacer(9)], keep: true };
}

/** A new A4 document with reproducible metadata. */
async function newDocument(paper: IPaper, title: string): Promise<{ w: IWriter; faces: IFaces }> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const parsed = new Date(paper.updatedAt);
  const date = Number.isNaN(parsed.getTime()) ? new Date(0) : parsed;
  doc.setTitle(stripControls(title), { showInWindowTitleBar: true });
  doc.setSubject(stripControls(`${paper.board} · ${classLine(paper)}`));
  doc.setCreator("Paperwise");
  doc.setProducer("Paperwise (pdf-lib)");
  doc.setCreationDate(date);
  doc.setModificationDate(date);
  const faces = await embedFaces(doc);
  const w = { doc, page: doc.addPage([PAGE_W, PAGE_H]), y: PAGE_H - MARGIN };
  return { w, faces };
}

/** Places every block, adds footers and saves. */
async function finish(w: IWriter, faces: IFaces, blocks: IBlock[]): Promise<Uint8Array> {
  for (const block of blocks) placeBlock(w, block);
  drawFooters(w.doc, faces);
  return w.doc.save();
}

/** The question paper as a print-ready A4 PDF. */
export async function paperToPdf(paper: IPaper): Promise<Uint8Array> {
  const { w, faces } = await newDocument(paper, paper.title);
  const numbers = numberItems(paper);
  const blocks = [headerBlock(paper, paper.title, faces), ...instructionsBlock(paper, faces)];
  for (const section of paper.sections) {
    blocks.push(sectionHeadBlock(section, faces));
    for (const item of section.items) blocks.push(itemBlock(item, numbers.get(item.id) ?? 0, faces));
  }
  return finish(w, faces, blocks);
}

/** "• point … [m]" rows of a marking scheme. */
function schemeRows(entry: IAnswerKeyEntry, faces: IFaces): IRow[] {
  const style = { face: faces.regular, size: BODY };
  const head = textRows("Marking scheme:", { face: faces.bold, size: BODY }, TEXT_X, TEXT_W);
  const points = entry.markingScheme.flatMap((p) => {
    const rows = textRows(p.point, style, TEXT_X + 12, TEXT_W - 12);
    rows[0]?.runs.unshift({ text: "•", x: TEXT_X + 2, ...style }, rightRun(`[${p.marks}]`, style));
    return rows;
  });
  return [...head, ...points];
}

/** The answer rows of one entry: answer, explanation, rationales, suggested answer, scheme, keywords, sources. */
function answerRows(e: IAnswerKeyEntry, faces: IFaces): IRow[] {
  const para = (label: string, text: string) => labelledRows(label, text, faces, TEXT_X, TEXT_W);
  const rows: IRow[] = [];
  if (e.correctLetter)
    rows.push(...para("Answer:", `(${e.correctLetter.toLowerCase()}) ${e.correctText ?? ""}`));
  if (e.explanation) rows.push(...para("Explanation:", e.explanation));
  for (const d of e.distractors) {
    if (d.rationale) rows.push(...para(`Not (${d.letter.toLowerCase()}):`, `${d.text} — ${d.rationale}`));
  }
  if (e.suggestedAnswer) rows.push(...para("Suggested answer:", e.suggestedAnswer));
  if (e.type !== "mcq") rows.push(...schemeRows(e, faces));
  if (e.evaluatorKeywords.length > 0) rows.push(...para("Keywords:", e.evaluatorKeywords.join(", ")));
  rows.push(...para("Bloom level:", e.bloomLevel));
  if (e.citations.length > 0) rows.push(...para("Source:", e.citations.map(citationLabel).join("; ")));
  return rows;
}

/** One answer-key entry: the question (numbered, or after "OR"), then its answer rows. */
function entryBlock(e: IAnswerKeyEntry, faces: IFaces): IBlock {
  const question = textRows(e.promptText, { face: faces.regular, size: BODY }, TEXT_X, TEXT_W);
  question[0]?.runs.unshift(rightRun(`[${e.marks}]`, { face: faces.regular, size: BODY }));
  if (!e.isAlternative)
    question[0]?.runs.unshift({ text: `${e.number}.`, x: MARGIN, face: faces.bold, size: BODY });
  const rows = [
    ...(e.isAlternative ? orRows(faces) : []),
    ...question,
    spacer(2),
    ...answerRows(e, faces),
    spacer(9),
  ];
  return { rows, keep: true };
}

/** The answer key and marking scheme as a print-ready A4 PDF. */
export async function answerKeyToPdf(paper: IPaper): Promise<Uint8Array> {
  const title = `${paper.title} — Answer key and marking scheme`;
  const { w, faces } = await newDocument(paper, title);
  const blocks = [headerBlock(paper, title, faces)];
  const entries = buildAnswerKey(paper);
  for (const [i, section] of paper.sections.entries()) {
    blocks.push(sectionHeadBlock(section, faces));
    for (const e of entries) if (e.sectionIndex === i) blocks.push(entryBlock(e, faces));
  }
  return finish(w, faces, blocks);
}
