import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { buildAnswerKey } from "@/lib/papers/answer-key";
import { clean } from "@/lib/papers/export-lms";
import { answerKeyToMarkdown, escapeMarkdown, paperToMarkdown } from "@/lib/papers/export-markdown";
import { hostilePaper, questionsOf } from "../support/hostile-paper";

/**
 * The document exports read back by real clients: Markdown rendered by markdown-it (CommonMark,
 * plus GFM tables and strikethrough, with raw HTML allowed: the most a renderer does) and compared
 * with the paper's structure.
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
