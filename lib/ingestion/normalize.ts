import { isLikelyHeadingLine } from "./chunk";

/**
 * Text clean-up shared by every extractor, so chunk offsets, keyword search and embeddings all
 * see the same characters whatever the source format was.
 */

// Invisible characters with no meaning in running text. ZWJ/ZWNJ (U+200C/D) are kept: they
// change how Indic scripts and emoji render.
const INVISIBLE_RE = /[\u00ad\u180e\u200b\u2060\ufeff]/g;
const UNICODE_SPACE_RE = /[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g;
// \v and \f become line breaks first, so what they separated stays separated.
const CONTROL_RE = /(?![\n\t])\p{Cc}/gu;

export function normalizeText(s: string): string {
  return s
    .normalize("NFC")
    .replace(/\r\n?|[\v\f\u2028\u2029\u0085]/g, "\n")
    .replace(CONTROL_RE, "")
    .replace(INVISIBLE_RE, "")
    .replace(UNICODE_SPACE_RE, " ")
    .replace(/(?<=\S)(?:[ \t]{2,}|\t)/g, " ")
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{4,}/g, "\n\n\n")
    .replace(/^\n+/, "")
    .trimEnd();
}

const SENTENCE_END_RE = /[.!?:;]["'’”)\]]*$/;
const LIST_ITEM_RE = /^(?:[-–•*▪◦●]|\(?\d{1,3}[.)]|\(?[a-z][.)])\s/;

/**
 * Undoes the layout of a PDF text layer: joins words hyphenated across a line break and the
 * hard-wrapped lines of a paragraph, and marks paragraph ends with a blank line. A line that
 * ends a sentence well short of the page's usual line length is taken as a paragraph's last
 * line; heading-like lines and list items keep their own lines.
 */
export function dehyphenatePdf(s: string): string {
  const lines = s.split("\n");
  const fullLength = typicalLineLength(lines);
  const out: string[] = [];
  let current = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "") {
      if (current) out.push(current);
      current = "";
      continue;
    }
    // At a block start the previous line ended a paragraph or was a heading.
    const prev = current ? (lines[i - 1]?.trim() ?? "") : "";
    if (!current) {
      current = line;
    } else if (/\p{Ll}-$/u.test(current) && /^\p{Ll}/u.test(line)) {
      current = current.slice(0, -1) + line;
    } else {
      current = `${current} ${line}`;
    }
    const next = lines[i + 1]?.trim() ?? "";
    if (next === "" || endsBlock(line, prev, next, lines[i + 2]?.trim() ?? "", fullLength)) {
      out.push(current);
      current = "";
    }
  }
  if (current) out.push(current);
  return out.join("\n\n");
}

function endsBlock(line: string, prev: string, next: string, afterNext: string, fullLength: number): boolean {
  if (isLikelyHeadingLine(line, next, prev) || isLikelyHeadingLine(next, afterNext, line)) return true;
  if (LIST_ITEM_RE.test(next)) return true;
  if (/^\|.*\|$/.test(line) || /^\|.*\|$/.test(next)) return true;
  return SENTENCE_END_RE.test(line) && line.length < fullLength * 0.8 && /^[\p{Lu}\p{N}"'“(]/u.test(next);
}

function typicalLineLength(lines: readonly string[]): number {
  const lengths = lines
    .map((l) => l.trim().length)
    .filter((n) => n > 0)
    .sort((a, b) => a - b);
  if (lengths.length === 0) return 0;
  // The 80th percentile: most lines of a justified paragraph are "full".
  return lengths[Math.floor(lengths.length * 0.8)] ?? 0;
}

/** Page furniture that repeats at the top or bottom of most pages: running heads, page numbers. */
export function stripRunningHeaders(pages: readonly string[]): string[] {
  if (pages.length < 3) return [...pages];
  const keyOf = (line: string) => line.trim().toLowerCase().replace(/\d+/g, "#");
  const edgeCounts = new Map<string, number>();
  const edges = pages.map((text) => edgeLineIndexes(text.split("\n")));
  pages.forEach((text, p) => {
    const lines = text.split("\n");
    const seen = new Set<string>();
    for (const i of edges[p]!) seen.add(keyOf(lines[i]!));
    for (const k of seen) edgeCounts.set(k, (edgeCounts.get(k) ?? 0) + 1);
  });
  const threshold = Math.max(3, Math.ceil(pages.length * 0.4));
  return pages.map((text, p) => {
    const lines = text.split("\n");
    const drop = new Set(
      edges[p]!.filter((i) => {
        const key = keyOf(lines[i]!);
        return /^(?:page )?#+(?: of #+)?$/.test(key) || (edgeCounts.get(key) ?? 0) >= threshold;
      }),
    );
    return drop.size === 0 ? text : lines.filter((_, i) => !drop.has(i)).join("\n");
  });
}

/** Indexes of the first two and last two non-empty lines, if short enough to be furniture. */
function edgeLineIndexes(lines: readonly string[]): number[] {
  const nonEmpty = lines.flatMap((l, i) => (l.trim() && l.length <= 100 ? [i] : []));
  return [...new Set([...nonEmpty.slice(0, 2), ...nonEmpty.slice(-2)])];
}
