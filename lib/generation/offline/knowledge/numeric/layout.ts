import { type IContextChunk, passageKey } from "@/types/generation.types";

/**
 * Finding worked examples in passages. Chunk text is Markdown as ingestion stores it; a worked
 * example is a problem statement ("Problem: …", "Example 3.2: …", or a paragraph under an
 * "Example …" heading) followed, after an optional strategy, by a solution ("Solution: …" or a
 * "Solution" heading) that runs to the next heading that is not part of the example. An example
 * may straddle chunks, so consecutive chunks of one document are joined first (their overlap
 * removed), and each example remembers the chunks its solution came from, for the citation.
 */

export interface ISourceChunk {
  chunkKey: string;
  content: string;
}

export interface IWorkedExample {
  /** `${documentId}:${chunkIndex}` of the chunk where the solution starts. */
  chunkKey: string;
  title?: string;
  problem: string;
  /** Text between the problem and the solution ("Strategy"); formulas are looked up here too. */
  strategy: string;
  solution: string;
  /** For one part of a multi-part problem: its letter. */
  part?: string;
  /** The chunks the solution text came from, to cite the exact line a problem is built on. */
  sources: ISourceChunk[];
}

interface IPiece extends ISourceChunk {
  start: number;
  end: number;
}

interface IPassage {
  text: string;
  pieces: IPiece[];
}

const keyOf = (c: IContextChunk) => passageKey(c);

/** Joins runs of consecutive chunks of the same document into passages. */
export function passagesOf(chunks: readonly IContextChunk[]): IPassage[] {
  const byDoc = new Map<string, IContextChunk[]>();
  for (const c of chunks) {
    const list = byDoc.get(c.documentId) ?? [];
    if (!list.some((x) => x.chunkIndex === c.chunkIndex)) list.push(c);
    byDoc.set(c.documentId, list);
  }
  const passages: IPassage[] = [];
  for (const list of byDoc.values()) {
    list.sort((a, b) => a.chunkIndex - b.chunkIndex);
    let current: IPassage | null = null;
    let lastIndex = Number.NaN;
    for (const c of list) {
      if (current && c.chunkIndex === lastIndex + 1) {
        const overlap = overlapLength(current.text, c.content);
        const start = current.text.length - overlap + (overlap > 0 ? 0 : 2);
        current.text =
          overlap > 0 ? current.text + c.content.slice(overlap) : `${current.text}\n\n${c.content}`;
        current.pieces.push({ chunkKey: keyOf(c), content: c.content, start, end: start + c.content.length });
      } else {
        current = {
          text: c.content,
          pieces: [{ chunkKey: keyOf(c), content: c.content, start: 0, end: c.content.length }],
        };
        passages.push(current);
      }
      lastIndex = c.chunkIndex;
    }
  }
  return passages;
}

/** Length of the longest prefix of `b` that ends `a` (the chunker repeats a few sentences). */
function overlapLength(a: string, b: string): number {
  const probe = b.slice(0, Math.min(24, b.length));
  if (!probe) return 0;
  for (let i = Math.max(0, a.length - 4000); ; ) {
    const at = a.indexOf(probe, i);
    if (at < 0) return 0;
    const tail = a.slice(at);
    if (b.startsWith(tail)) return tail.length;
    i = at + 1;
  }
}

const HEADING_RE = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/;
const PROBLEM_RE =
  /^(?:\*\*)?(?:Problem|Example(?:\s+\d+(?:\.\d+)*)?|Sample problem|Worked example|Question)\s*[:.](?:\*\*)?\s*/i;
const EXAMPLE_HEADING_RE = /^(?:Example|Worked example|Sample problem)\b/i;
const SOLUTION_RE =
  /^(?:\*\*)?(?:Solution|Answer|Working)s?\b[^:\n]{0,40}?:(?:\*\*)?\s*|^(?:\*\*)?(?:Solution|Answer|Working)s?(?:\*\*)?\s*$/i;
const SOLUTION_HEADING_RE = /^(?:(?:Strategy and )?Solution|Answer|Working)\b/i;
const STRATEGY_HEADING_RE = /^(?:Strategy|Given|Known|Plan|Analysis)\b/i;
const DISCUSSION_RE = /^(?:\*\*)?(?:Discussion|Significance|Check your understanding)\b/i;

interface ILine {
  text: string;
  start: number;
  end: number;
  heading?: string;
}

function linesOf(text: string): ILine[] {
  const lines: ILine[] = [];
  let start = 0;
  for (const raw of text.split("\n")) {
    const end = start + raw.length;
    const h = HEADING_RE.exec(raw);
    lines.push({ text: raw.trim(), start, end, ...(h ? { heading: h[1]! } : {}) });
    start = end + 1;
  }
  return lines;
}

/** Worked examples in the given passages, in passage order; incomplete ones are left out. */
export function findWorkedExamples(chunks: readonly IContextChunk[]): IWorkedExample[] {
  const out: IWorkedExample[] = [];
  for (const passage of passagesOf(chunks)) {
    const lines = linesOf(passage.text);
    for (let i = 0; i < lines.length; i++) {
      const found = exampleAt(passage, lines, i);
      if (found) {
        out.push(...found.examples);
        i = found.next - 1;
      }
    }
  }
  return out;
}

function exampleAt(
  passage: IPassage,
  lines: readonly ILine[],
  i: number,
): { examples: IWorkedExample[]; next: number } | null {
  const line = lines[i]!;
  let problemStart: number;
  let first: string;
  const label = line.heading ? null : PROBLEM_RE.exec(line.text);
  if (label) {
    problemStart = i;
    first = line.text.slice(label[0].length);
    // "Problem: ###### Strategy": the statement was lost (a figure or table the converter dropped).
    if (first.startsWith("#")) first = "";
  } else if (line.heading && EXAMPLE_HEADING_RE.test(line.heading)) {
    problemStart = i + 1;
    first = "";
  } else return null;

  // Problem: up to a strategy or solution marker or a heading; figure captions are not part of it.
  const problem: string[] = first ? [first] : [];
  let j = problemStart + (label ? 1 : 0);
  for (; j < lines.length; j++) {
    const l = lines[j]!;
    if (l.heading || SOLUTION_RE.test(l.text) || PROBLEM_RE.test(l.text) || /^Strategy\b/i.test(l.text))
      break;
    if (l.text && !/^Figure:/.test(l.text)) problem.push(l.text);
  }
  const strategy: string[] = [];
  for (; j < lines.length; j++) {
    const l = lines[j]!;
    if (l.heading ? SOLUTION_HEADING_RE.test(l.heading) : SOLUTION_RE.test(l.text)) break;
    if (l.heading && !STRATEGY_HEADING_RE.test(l.heading)) return null;
    if (!l.heading && PROBLEM_RE.test(l.text)) return null;
    if (l.text && !l.heading) strategy.push(l.text);
  }
  if (j >= lines.length) return null;

  const solutionFrom = j;
  let k = j;
  for (; k < lines.length; k++) {
    const l = lines[k]!;
    if (k > solutionFrom && l.heading && !SOLUTION_HEADING_RE.test(l.heading)) break;
    if (k > solutionFrom && !l.heading && (PROBLEM_RE.test(l.text) || DISCUSSION_RE.test(l.text))) break;
  }
  const solutionStart = lines[solutionFrom]!.start;
  const solutionEnd = lines[k - 1]!.end;
  // Blocks of the solution, one per part when the book solves parts separately: a new
  // "Solution:" label, a "Strategy and Solution for (b)" heading, or a paragraph opening "(b)".
  const blocks: string[][] = [[]];
  for (let m = solutionFrom; m < k; m++) {
    const l = lines[m]!;
    const opens = l.heading
      ? SOLUTION_HEADING_RE.test(l.heading)
      : SOLUTION_RE.test(l.text) || /^\([a-h]\)\s/.test(l.text);
    if (m > solutionFrom && opens && blocks[blocks.length - 1]!.some((x) => x.trim())) blocks.push([]);
    if (!l.heading && !/^Figure:/.test(l.text))
      blocks[blocks.length - 1]!.push(passage.text.slice(l.start, l.end));
  }
  const blockTexts = blocks.map((b) => b.join("\n").trim()).filter(Boolean);
  const solution = blockTexts.join("\n\n");
  const problemText = problem.join("\n").trim();
  if (problemText.length < 15 || solution.length < 10) return null;

  const sources = passage.pieces
    .filter((p) => p.start < solutionEnd && p.end > solutionStart)
    .map(({ chunkKey, content }) => ({ chunkKey, content }));
  const titleLine = [...lines.slice(0, problemStart)].reverse().find((l) => l.heading || l.text);
  const title = titleLine?.heading;
  const example: IWorkedExample = {
    chunkKey: sources[0]?.chunkKey ?? passage.pieces[0]!.chunkKey,
    ...(title && !STRATEGY_HEADING_RE.test(title) ? { title } : {}),
    problem: problemText,
    strategy: strategy.join("\n"),
    solution,
    sources,
  };
  return { examples: splitParts(example, blockTexts), next: k };
}

const PART_RE = /(?:^|\s)\(([a-h])\)\s+|(?:^|\n)\s*([1-8])\.\s+/g;
/** A later part that leans on an earlier one ("between the hour hand at these two times"). */
const REFERS_BACK =
  /\b(?:these|those|this (?:time|point|value|result)|the same|previous|part \(?[a-h]\)?|above)\b/i;

/**
 * One example per part of a multi-part problem the book solves part by part: the shared
 * situation plus that part's question, that part's solution, and the earlier parts' solutions as
 * working it may build on. Parts that cannot be paired with a solution block, or that refer back
 * to an earlier part, are left as they are (the analysis then refuses the whole problem).
 */
export function splitParts(example: IWorkedExample, blocks: readonly string[]): IWorkedExample[] {
  const marks = [...example.problem.matchAll(PART_RE)];
  if (marks.length === 0) return [example];
  const labels = marks.map((m) => m[1] ?? "abcdefgh"[Number(m[2]) - 1]!);
  if (labels.some((l, i) => l !== "abcdefgh"[i])) return [example];
  const context = example.problem.slice(0, marks[0]!.index).trim();
  if (context && !/[.?!]$/.test(context)) return [example];
  const parts = marks.map((m, i) =>
    example.problem.slice(m.index + m[0].length, marks[i + 1]?.index ?? example.problem.length).trim(),
  );
  if (parts.some((p) => !/[.?!)]$/.test(p))) return [example];
  if (parts.length === 1) return [{ ...example, problem: `${context} ${parts[0]}`.trim() }];
  if (blocks.length !== parts.length) return [example];
  return parts.flatMap((part, i) =>
    i > 0 && REFERS_BACK.test(part)
      ? []
      : [
          {
            ...example,
            ...(example.title ? { title: `${example.title} (${labels[i]})` } : {}),
            part: labels[i]!,
            problem: `${context} ${part}`.trim(),
            strategy: [example.strategy, ...blocks.slice(0, i)].filter(Boolean).join("\n"),
            solution: blocks[i]!,
          },
        ],
  );
}
