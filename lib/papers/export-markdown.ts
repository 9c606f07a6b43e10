import type { IPaper, IPaperItem, IPaperQuestion, IPaperSection } from "@/types/paper.types";
import {
  buildAnswerKey,
  citationLabel,
  classLine,
  formatDuration,
  type IAnswerKeyEntry,
  marksLabel,
  sectionSummary,
  stripControls,
} from "./answer-key";
import { numberItems } from "./check";

/**
 * Markdown passes raw HTML through and makes links of `[text](url)` and `<url>`, so a question
 * written as `<script>`, `<img onerror>` or `[x](javascript:…)` would be live in any renderer; and
 * `p = m*v … 2*3*4` would turn italic. Backslash escapes (CommonMark) keep such text literal: the
 * backslash itself first (so user text cannot cancel an escape), then HTML, links, entities,
 * emphasis, code, strikethrough and table pipes anywhere in a line.
 */
const INLINE = /[\\<>[\]&*_`~|]/g;

/**
 * Escapes one line of text for Markdown: inline markers anywhere, and at its start what would make
 * the line a block of its own (`#` heading, `-`/`+` list or `---`/`===` rule or heading underline,
 * `1.`/`1)` ordered list; `>`, `*`, fences and tables are covered by the inline escapes).
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(INLINE, (c) => `\\${c}`)
    .replace(/^([#+=-])/, "\\$1")
    .replace(/^(\d{1,9})([.)])/, "$1\\$2");
}

/**
 * Text made safe for one Markdown paragraph: controls stripped, each line trimmed (a leading indent
 * would start a code block) and escaped, line breaks kept as hard breaks.
 */
function md(text: string): string {
  return stripControls(text)
    .trim()
    .split(/\n+/)
    .map((line) => escapeMarkdown(line.trim()))
    .join("  \n");
}

/** Text for a heading, which is one line: line breaks become spaces. */
const oneLine = (text: string) => md(text.replace(/\s*\n\s*/g, " "));

/** A list item whose text may span lines: continuation lines are indented under the marker. */
const listItem = (marker: string, text: string) =>
  `${marker} ${text.replace(/ {2}\n/g, `  \n${" ".repeat(marker.length + 1)}`)}`;

/** The header block shared by the paper and its answer key. */
function headerMarkdown(paper: IPaper, title: string): string[] {
  return [
    ...(paper.schoolName ? [`**${md(paper.schoolName)}**  `] : []),
    `${md(paper.board)}  `,
    md(classLine(paper)),
    "",
    `# ${oneLine(title)}`,
    "",
    `**Time:** ${formatDuration(paper.durationMinutes)} · **Maximum marks:** ${paper.totalMarks}`,
    "",
    "---",
    "",
  ];
}

/** A question's text and, for MCQs, its options as (a) (b) (c) lines. */
function questionMarkdown(q: IPaperQuestion): string[] {
  const options = (q.options ?? []).map((o, i) => `(${String.fromCharCode(97 + i)}) ${md(o)}`);
  return [md(q.promptText), ...(options.length > 0 ? ["", options.join("  \n")] : [])];
}

/** One numbered item with its marks and OR alternative. */
function itemMarkdown(item: IPaperItem, number: number): string[] {
  const [first = "", ...rest] = questionMarkdown(item.question);
  const out = [`**${number}.** ${first} **[${item.marks}]**`, ...rest, ""];
  if (item.alternative) out.push("**OR**", "", ...questionMarkdown(item.alternative), "");
  return out;
}

/** A section heading, its instructions and summary line. */
function sectionHeadMarkdown(section: IPaperSection): string[] {
  return [
    `## ${oneLine(section.name)}`,
    "",
    ...(section.instructions ? [`*${md(section.instructions)}*`, ""] : []),
    md(sectionSummary(section)),
    "",
  ];
}

/** The question paper as Markdown. */
export function paperToMarkdown(paper: IPaper): string {
  const numbers = numberItems(paper);
  const lines = headerMarkdown(paper, paper.title);
  if (paper.instructions.length > 0) {
    lines.push(
      "## General instructions",
      "",
      ...paper.instructions.map((t, i) => listItem(`${i + 1}.`, md(t))),
      "",
    );
  }
  for (const section of paper.sections) {
    lines.push(...sectionHeadMarkdown(section));
    for (const item of section.items) lines.push(...itemMarkdown(item, numbers.get(item.id) ?? 0));
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

/**
 * One answer-key entry as Markdown: a heading that holds only the number, marks and level (a
 * heading is one line, and a question may have several), then the question, then the answers.
 * The marking scheme is a list: CommonMark has no tables.
 */
function entryMarkdown(e: IAnswerKeyEntry): string[] {
  const label = e.isAlternative ? `Question ${e.number} (OR)` : `Question ${e.number}`;
  const out = [`### ${label} · ${marksLabel(e.marks)} · ${e.bloomLevel}`, "", md(e.promptText), ""];
  if (e.correctLetter)
    out.push(`**Answer:** (${e.correctLetter.toLowerCase()}) ${md(e.correctText ?? "")}`, "");
  if (e.explanation) out.push(`**Explanation:** ${md(e.explanation)}`, "");
  for (const d of e.distractors) {
    if (d.rationale)
      out.push(listItem("-", `Not (${d.letter.toLowerCase()}) ${md(d.text)}: ${md(d.rationale)}`));
  }
  if (e.distractors.some((d) => d.rationale)) out.push("");
  if (e.suggestedAnswer) out.push(`**Suggested answer:** ${md(e.suggestedAnswer)}`, "");
  if (e.type !== "mcq") {
    out.push("**Marking scheme:**", "");
    for (const p of e.markingScheme) out.push(listItem("-", `${md(p.point)} — **${marksLabel(p.marks)}**`));
    out.push("");
  }
  if (e.evaluatorKeywords.length > 0) out.push(`**Keywords:** ${e.evaluatorKeywords.map(md).join(", ")}`, "");
  if (e.citations.length > 0)
    out.push(`**Source:** ${e.citations.map((c) => md(citationLabel(c))).join("; ")}`, "");
  return out;
}

/** The answer key and marking scheme as Markdown. */
export function answerKeyToMarkdown(paper: IPaper): string {
  const lines = headerMarkdown(paper, `${paper.title} — Answer key and marking scheme`);
  let section = -1;
  for (const e of buildAnswerKey(paper)) {
    if (e.sectionIndex !== section) lines.push(`## ${oneLine(e.sectionName)}`, "");
    section = e.sectionIndex;
    lines.push(...entryMarkdown(e));
  }
  return `${lines.join("\n").trimEnd()}\n`;
}
