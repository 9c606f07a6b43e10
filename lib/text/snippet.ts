/**
 * The preview a teacher reads on a result card: the first sentences of a passage's body, clean.
 *
 * - Headings, table rows and figure captions ("Figure: …" lines) are left out, and so are image credits ("(credit:
 *   modification of work by …)", "Credit: Rao, A., …"): they say nothing about the topic.
 * - A chunk that starts mid-sentence (chunks overlap) starts at its first whole sentence.
 * - Sentences end at ".", "!" or "?" followed by a space, so "70.0 m/s" or "e.g. 3.5" stay whole.
 * - At most three sentences within `maxWords`; when even the first is longer, it is cut at a word
 *   boundary and marked "…" (never mid-word).
 */

const SKIP_LINE = /^\s*(#|\||Figure:|!\[|\(?credit\b)/i;
const CREDIT = /\s*\((?:image\s+)?credit\b[^)]*\)|\s*\bCredit:\s[^\n]*$/gim;
/** A sentence's end: ., ! or ? (with any closing quote or bracket) then whitespace. */
const SENTENCE_END = /(?<=[.!?]["”’)\]]?)\s+(?=["“‘(]?[A-Z0-9])/;
const MAX_CHARS = 480;

export function passageSnippet(text: string, maxWords: number): string {
  const lines = text.split("\n").filter((l) => l.trim());
  const clean = (ls: string[]) => ls.join("\n").replace(CREDIT, "").replace(/\s+/g, " ").trim();
  // A chunk of nothing but captions reads as its captions; of a table, as its rows ("Plasma
  // membrane: Separates cell from …"); of nothing but headings, as those.
  const body =
    clean(lines.filter((l) => !SKIP_LINE.test(l))) ||
    clean(lines.filter((l) => /^\s*Figure:/i.test(l)).map((l) => l.replace(/^\s*Figure:\s*/i, ""))) ||
    clean(lines.filter((l) => /^\s*\|/.test(l)).map(tableRow)) ||
    clean(lines.filter((l) => /^\s*#/.test(l)).map((l) => l.replace(/^\s*#+\s*/, "").replace(/\s*$/, ".")));
  if (!body) return "";
  let sentences = body.split(SENTENCE_END).filter((s) => s.trim());
  // A chunk cut mid-sentence opens with a lower-case or punctuation fragment: start after it.
  if (sentences.length > 1 && /^[^A-Z0-9"“‘(]/.test(sentences[0] ?? "")) sentences = sentences.slice(1);
  const words = (s: string) => s.split(/\s+/).filter(Boolean).length;
  const picked: string[] = [];
  let count = 0;
  for (const s of sentences.slice(0, 3)) {
    if (picked.length > 0 && (count + words(s) > maxWords || [...picked, s].join(" ").length > MAX_CHARS))
      break;
    picked.push(s);
    count += words(s);
  }
  const out = picked.join(" ");
  if (count <= maxWords && out.length <= MAX_CHARS) return out;
  return cutAtWord(out, maxWords);
}

/** A Markdown table row as a sentence: "| Plasma membrane | Separates … | Yes |" → "Plasma membrane: Separates …." */
function tableRow(line: string): string {
  const cells = line
    .split("|")
    .map((c) => c.trim())
    .filter((c) => c && !/^:?-{2,}:?$/.test(c));
  if (cells.length === 0) return "";
  const text = cells.length > 1 ? `${cells[0]}: ${cells[1]}` : (cells[0] as string);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** The first `maxWords` words within MAX_CHARS, ended at a whole word with "…". */
function cutAtWord(text: string, maxWords: number): string {
  let out = text.split(/\s+/).slice(0, maxWords).join(" ");
  if (out.length > MAX_CHARS) {
    const cut = out.slice(0, MAX_CHARS);
    const space = cut.lastIndexOf(" ");
    out = space > 0 ? cut.slice(0, space) : cut;
  }
  return `${out.replace(/[\s,;:–—-]+$/, "")}…`;
}
