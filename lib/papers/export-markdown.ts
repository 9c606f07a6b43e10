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
 * written as `<script>`, `<img onerror>` or `[x](javascript:…)` would be live in any renderer.
 * Backslash escapes (CommonMark) keep such text literal: `\<`, `\[`, `\&` render as the plain
 * characters, and the backslash itself is escaped first so user text cannot cancel an escape.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\<>[\]&]/g, (c) => `\\${c}`);
}

/** Text made safe for one Markdown block: controls stripped, HTML and links escaped, line breaks kept as hard breaks. */
function md(text: string): string {
  return escapeMarkdown(stripControls(text).trim()).replace(/\n+/g, "  \n");
}

/** The header block shared by the paper and its answer key. */
function headerMarkdown(paper: IPaper, title: string): string[] {
  return [
    ...(paper.schoolName ? [`**${md(paper.schoolName)}**  `] : []),
    `${md(paper.board)}  `,
    md(classLine(paper)),
    "",
    `# ${md(title)}`,
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
    `## ${md(section.name)}`,
    "",
    ...(section.instructions ? [`*${md(section.instructions)}*`, ""] : []),
    sectionSummary(section),
    "",
  ];
}

/** The question paper as Markdown. */
export function paperToMarkdown(paper: IPaper): string {
  const numbers = numberItems(paper);
  const lines = headerMarkdown(paper, paper.title);
  if (paper.instructions.length > 0) {
    lines.push("## General instructions", "", ...paper.instructions.map((t, i) => `${i + 1}. ${md(t)}`), "");
  }
  for (const section of paper.sections) {
    lines.push(...sectionHeadMarkdown(section));
    for (const item of section.items) lines.push(...itemMarkdown(item, numbers.get(item.id) ?? 0));
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

/** One answer-key entry as Markdown. */
function entryMarkdown(e: IAnswerKeyEntry): string[] {
  const label = e.isAlternative ? `${e.number} (OR)` : `${e.number}`;
  const out = [`### ${label}. ${md(e.promptText)} [${marksLabel(e.marks)} · ${e.bloomLevel}]`, ""];
  if (e.correctLetter)
    out.push(`**Answer:** (${e.correctLetter.toLowerCase()}) ${md(e.correctText ?? "")}`, "");
  if (e.explanation) out.push(`**Explanation:** ${md(e.explanation)}`, "");
  for (const d of e.distractors) {
    if (d.rationale) out.push(`- Not (${d.letter.toLowerCase()}) ${md(d.text)}: ${md(d.rationale)}`);
  }
  if (e.distractors.some((d) => d.rationale)) out.push("");
  if (e.suggestedAnswer) out.push(`**Suggested answer:** ${md(e.suggestedAnswer)}`, "");
  if (e.type !== "mcq") {
    out.push("| Marking point | Marks |", "| --- | ---: |");
    for (const p of e.markingScheme) out.push(`| ${md(p.point).replace(/\|/g, "\\|")} | ${p.marks} |`);
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
    if (e.sectionIndex !== section) lines.push(`## ${md(e.sectionName)}`, "");
    section = e.sectionIndex;
    lines.push(...entryMarkdown(e));
  }
  return `${lines.join("\n").trimEnd()}\n`;
}
