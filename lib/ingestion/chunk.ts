import { estimateTokens } from "@/lib/text/tokenize";
import type { IChunkDraft, IExtractedDocument, IExtractedPage } from "@/types/chunk.types";

/**
 * Section-aware chunking. Chunks follow the document's own structure: a chunk never spans a
 * chapter or section heading (level 1–2), prefers to start at a sub-heading, packs whole
 * paragraphs, and only splits a paragraph at sentence ends (a run-on "sentence" at word ends).
 * Offsets index the pages joined with "\n\n", and every chunk's content is exactly that slice.
 */

export interface IChunkOptions {
  targetTokens?: number;
  maxTokens?: number;
  overlapTokens?: number;
}

export const DEFAULT_CHUNK_OPTIONS = { targetTokens: 300, maxTokens: 380, overlapTokens: 40 } as const;

export const PAGE_SEPARATOR = "\n\n";

/** Markdown (and DOCX, which extraction renders as Markdown) marks headings with `#`. */
export type TStructureMode = "markdown" | "layout";

export interface IHeading {
  level: number;
  title: string;
}

export interface IBlock {
  start: number;
  end: number;
  heading?: IHeading;
}

export function structureModeOf(mimeType: string): TStructureMode {
  return mimeType === "text/markdown" || mimeType.includes("wordprocessingml") ? "markdown" : "layout";
}

export function joinPages(pages: readonly IExtractedPage[]): { text: string; pageStarts: number[] } {
  const pageStarts: number[] = [];
  let offset = 0;
  for (const p of pages) {
    pageStarts.push(offset);
    offset += p.text.length + PAGE_SEPARATOR.length;
  }
  return { text: pages.map((p) => p.text).join(PAGE_SEPARATOR), pageStarts };
}

// ---------------------------------------------------------------------------------------------
// Headings

const MD_HEADING_RE = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_RE = /^ {0,3}(=+|-{2,})[ \t]*$/;
const CHAPTER_RE = /^(Chapter|CHAPTER|Unit|UNIT|Part|PART)\s+(\d{1,3}|[IVXLC]{1,7})\b\s*[:.\-–—|]?\s*(.*)$/;
const NUMBERED_RE = /^(\d{1,3}(?:\.\d{1,3}){1,4})\.?\s+(\S.*)$/u;
const TOC_TAIL_RE = /(?:\.{3,}|…|\s\.\s\.)|\s\d{1,4}$/;
const MINOR_WORDS = new Set(
  "a an and as at but by for from in into nor of on or per the to vs via with".split(" "),
);
const SENTENCE_END_RE = /[.!?:;]["'’”)\]]*$/;

/** "Chapter 5: Cells", "CHAPTER 5 Cells", "Unit IV" → its number and name; null otherwise. */
export function parseChapterLine(line: string): { label: string; name: string } | null {
  const m = CHAPTER_RE.exec(line.trim());
  if (!m) return null;
  const rest = m[3]!.trim();
  if (rest && (!/^[\p{Lu}\p{N}"'“(]/u.test(rest) || /[.,;]$/.test(rest) || TOC_TAIL_RE.test(rest)))
    return null;
  if (rest.split(/\s+/).length > 15) return null;
  return { label: m[2]!, name: rest };
}

/**
 * Level of a heading-like line in text without markup (PDF, plain text), or 0. Conservative on
 * purpose: a false heading splits a section, a missed one only loses a breadcrumb. `next` is the
 * next non-empty line, `prev` the line just before ("" at a paragraph start).
 */
export function layoutHeadingLevel(line: string, next: string, prev: string): number {
  const t = line.trim();
  if (t.length < 2 || t.length > 120) return 0;
  const md = MD_HEADING_RE.exec(t);
  if (md?.[2]) return md[1]!.length;
  // A line that continues an unfinished sentence is never a heading.
  if (prev.trim() && !SENTENCE_END_RE.test(prev.trim())) return 0;
  if (parseChapterLine(t)) return 1;
  const numbered = NUMBERED_RE.exec(t);
  if (numbered) {
    const title = numbered[2]!;
    if (
      /^\p{Lu}/u.test(title) &&
      !/[.,;:]$/.test(title) &&
      !TOC_TAIL_RE.test(title) &&
      wordCount(title) <= 14
    ) {
      return Math.min(6, numbered[1]!.split(".").length);
    }
    return 0;
  }
  return isTitleLine(t, next.trim(), prev.trim()) ? 3 : 0;
}

export function isLikelyHeadingLine(line: string, next: string, prev: string): boolean {
  return layoutHeadingLevel(line, next, prev) > 0;
}

/** A short Title-Case (or ALL-CAPS) line between a paragraph end and body text. */
function isTitleLine(t: string, next: string, prev: string): boolean {
  if (t.length < 3 || t.length > 70 || !/^\p{Lu}/u.test(t) || /[.,;:!]$/.test(t)) return false;
  if (/^(?:Fig\.?|Figure|Table|Source|Credit)\b/i.test(t) || TOC_TAIL_RE.test(t) || t.includes("|"))
    return false;
  if (prev && !SENTENCE_END_RE.test(prev)) return false;
  if (next.length < Math.max(40, t.length + 10) || !/^[\p{Lu}\p{N}"'“(]/u.test(next)) return false;
  const ws = t.split(/\s+/);
  if (ws.length > 9 || !ws.some((w) => /\p{L}{3,}/u.test(w))) return false;
  if (t === t.toUpperCase() && /\p{Lu}{3,}/u.test(t)) return true;
  const significant = ws.filter((w) => !MINOR_WORDS.has(w.toLowerCase()));
  const capitalised = significant.filter((w) => /^["'“(]?[\p{Lu}\p{N}]/u.test(w)).length;
  return significant.length > 0 && capitalised / significant.length >= 0.75;
}

function wordCount(s: string): number {
  return s.split(/\s+/).filter(Boolean).length;
}

function headingTitle(line: string): string {
  const md = MD_HEADING_RE.exec(line.trim());
  return (md ? md[2]! : line).trim().replace(/\s+/g, " ");
}

// ---------------------------------------------------------------------------------------------
// Blocks: headings and paragraphs, with offsets trimmed to non-whitespace

/** Splits text into heading lines and paragraphs (runs of non-blank lines). */
export function parseBlocks(text: string, mode: TStructureMode): IBlock[] {
  const lines: { start: number; end: number }[] = [];
  for (let start = 0; start <= text.length; ) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    lines.push({ start, end });
    start = end + 1;
  }
  const lineText = (i: number) => {
    const l = lines[i];
    return l ? text.slice(l.start, l.end) : "";
  };
  const nextNonEmpty = (i: number) => {
    for (let j = i + 1; j < lines.length && j < i + 4; j++) {
      const s = lineText(j);
      if (s.trim()) return s;
    }
    return "";
  };

  const blocks: IBlock[] = [];
  let para: IBlock | null = null;
  let fence = false;
  // The line before, or "" after a blank line or a heading (a heading may follow either).
  let prev = "";
  const closePara = () => {
    if (para) blocks.push(para);
    para = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const { start, end } = lines[i]!;
    const raw = lineText(i);
    const trimmed = raw.trim();
    if (!trimmed) {
      closePara();
      prev = "";
      continue;
    }
    const s = start + raw.search(/\S/);
    const e = start + raw.trimEnd().length;
    let level = 0;
    let blockEnd = e;
    if (mode === "markdown") {
      const underline = SETEXT_RE.exec(lineText(i + 1));
      if (/^ {0,3}(?:```|~~~)/.test(raw)) fence = !fence;
      else if (!fence && MD_HEADING_RE.test(raw) && /^ {0,3}#{1,6}[ \t]+\S/.test(raw)) {
        level = MD_HEADING_RE.exec(raw)![1]!.length;
      } else if (!fence && underline && !para && !/^\s*(?:[-*+|>]|\d+[.)])\s/.test(raw)) {
        // A Setext heading: one line of text underlined with === (level 1) or --- (level 2).
        level = underline[1]!.startsWith("=") ? 1 : 2;
        blockEnd = lines[i + 1]!.start + lineText(i + 1).trimEnd().length;
        i++;
      }
    } else {
      level = layoutHeadingLevel(trimmed, nextNonEmpty(i), prev);
    }
    if (level > 0) {
      closePara();
      blocks.push({ start: s, end: blockEnd, heading: { level, title: headingTitle(trimmed) } });
      prev = "";
      continue;
    }
    prev = trimmed;
    if (para) para.end = e;
    else para = { start: s, end };
    para.end = e;
  }
  closePara();
  return blocks;
}

// ---------------------------------------------------------------------------------------------
// Sentences and word pieces

const ABBREVIATIONS = new Set(
  "e.g i.e etc vs cf al fig figs eq eqs no nos dr mr mrs ms prof st sr jr approx ca vol pp p ch sec resp esp".split(
    " ",
  ),
);
const SENTENCE_BREAK_RE = /([.!?]+["'’”)\]]*)(\s+)|([。！？।॥]+["'’”)\]]*)(\s*)|\n(\s*)/g;

/** Sentence spans in text[start, end): ends at terminal punctuation or a line break. */
export function sentenceSpans(text: string, start: number, end: number): [number, number][] {
  const spans: [number, number][] = [];
  const slice = text.slice(start, end);
  let from = 0;
  SENTENCE_BREAK_RE.lastIndex = 0;
  for (let m = SENTENCE_BREAK_RE.exec(slice); m; m = SENTENCE_BREAK_RE.exec(slice)) {
    const punct = m[1] ?? m[3];
    const boundary = m.index + (punct?.length ?? 0);
    const resume = m.index + m[0].length;
    if (resume >= slice.length) break;
    if (m[1] && !isSentenceEnd(slice, m.index, resume)) continue;
    if (boundary > from) spans.push([start + from, start + boundary]);
    from = resume;
  }
  if (from < slice.length) spans.push([start + from, end]);
  return spans.filter(([s, e]) => /\S/.test(text.slice(s, e)));
}

function isSentenceEnd(slice: string, punctAt: number, resume: number): boolean {
  if (/^\p{Ll}/u.test(slice.charAt(resume))) return false;
  const before = /(\S+)$/.exec(slice.slice(Math.max(0, punctAt - 20), punctAt))?.[1] ?? "";
  const word = before.replace(/^["'“(]+/, "").toLowerCase();
  if (ABBREVIATIONS.has(word)) return false;
  // An initial ("J. Watson") or a one-letter label is not a sentence.
  return !/^\p{L}$/u.test(word);
}

/** Cuts text[start, end) at word ends into pieces of at most `limit` tokens and `maxChars`. */
export function wordPieces(
  text: string,
  start: number,
  end: number,
  limit: number,
  maxChars: number,
): [number, number][] {
  const words: [number, number][] = [];
  const re = /\S+/g;
  const slice = text.slice(start, end);
  for (let m = re.exec(slice); m; m = re.exec(slice)) {
    const ws = start + m.index;
    const we = ws + m[0].length;
    // A "word" longer than a chunk (CJK text, a data blob) is cut by characters.
    for (let s = ws; s < we; ) {
      let e = Math.min(we, s + maxChars);
      if (e < we && isLowSurrogate(text.charCodeAt(e))) e--;
      words.push([s, e]);
      s = e;
    }
  }
  const pieces: [number, number][] = [];
  let i = 0;
  while (i < words.length) {
    // The longest run of words that fits: estimateTokens grows with every word, so bisect.
    let lo = i;
    let hi = words.length - 1;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      const s = words[i]![0];
      const e = words[mid]![1];
      if (e - s <= maxChars && estimateTokens(text.slice(s, e)) <= limit) lo = mid;
      else hi = mid - 1;
    }
    pieces.push([words[i]![0], words[lo]![1]]);
    i = lo + 1;
  }
  return pieces;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

// ---------------------------------------------------------------------------------------------
// Packing

/** A sub-heading starts a new chunk once the current one has this share of the target. */
const SUB_HEADING_BREAK = 0.4;
/** A paragraph that does not fit starts a new chunk once the current one has this share. */
const PARAGRAPH_BREAK = 0.5;

type TUnitKind = "heading" | "body" | "overlap";

interface IUnit {
  start: number;
  end: number;
  /** estimateTokens of the unit; summing them bounds a chunk's tokens (the estimate is subadditive). */
  tokens: number;
  kind: TUnitKind;
}

interface IChunkContext {
  text: string;
  /** Whether the source has page numbers a reader can turn to (a PDF, or extracted pages). */
  paged: boolean;
  pageStarts: number[];
  pages: readonly IExtractedPage[];
  target: number;
  max: number;
  overlap: number;
  maxChars: number;
}

/**
 * Whether a reader can turn to a page of this source: a PDF, or text that came in pages (several,
 * or a chapter cut from a paged book, which keeps its page number). Markdown, HTML, text and DOCX
 * are one "page 1" each: their chunks carry no page, so no "p. 1" is shown for them.
 */
export function hasPageNumbers(doc: IExtractedDocument): boolean {
  return doc.mimeType === "application/pdf" || doc.pages.length > 1 || doc.pages[0]?.pageNumber !== 1;
}

export function chunkDocument(doc: IExtractedDocument, opts: IChunkOptions = {}): IChunkDraft[] {
  const max = Math.max(8, opts.maxTokens ?? DEFAULT_CHUNK_OPTIONS.maxTokens);
  const target = Math.min(max, Math.max(4, opts.targetTokens ?? DEFAULT_CHUNK_OPTIONS.targetTokens));
  const overlap = Math.max(
    0,
    Math.min(opts.overlapTokens ?? DEFAULT_CHUNK_OPTIONS.overlapTokens, target / 2),
  );
  const { text, pageStarts } = joinPages(doc.pages);
  // Token estimates count words; text without spaces (CJK, data) needs a character cap too.
  const packer = new ChunkPacker({
    text,
    paged: hasPageNumbers(doc),
    pageStarts,
    pages: doc.pages,
    target,
    max,
    overlap,
    maxChars: max * 10,
  });
  for (const block of parseBlocks(text, structureModeOf(doc.mimeType))) {
    if (block.heading) packer.heading(block, block.heading);
    else packer.paragraph(block);
  }
  return packer.finish();
}

/** Builds chunks from blocks in document order; holds the chunk being filled. */
class ChunkPacker {
  private readonly out: IChunkDraft[] = [];
  private readonly trail: string[] = [];
  private units: IUnit[] = [];
  private tokens = 0;
  /** Tokens of body text not already in the previous chunk. */
  private fresh = 0;
  private path: string | null = null;

  constructor(private readonly ctx: IChunkContext) {}

  heading(block: IBlock, { level, title }: IHeading): void {
    if (this.fresh > 0 && (level <= 2 || this.fresh >= this.ctx.target * SUB_HEADING_BREAK))
      this.flush(false);
    // Overlap right before a heading would only repeat the previous chunk's end.
    if (this.fresh === 0) this.dropOverlap();
    this.trail.length = level;
    this.trail[level - 1] = title;
    for (const u of toUnits(this.ctx, block.start, block.end, this.ctx.target, "heading")) {
      if (!this.fits(u, this.ctx.target)) {
        if (this.fresh > 0) this.flush(false);
        else this.emitAll();
      }
      this.push(u);
    }
  }

  paragraph(block: IBlock): void {
    const { ctx } = this;
    const para: IUnit = {
      start: block.start,
      end: block.end,
      tokens: tokensOf(ctx.text, block),
      kind: "body",
    };
    const whole = para.tokens <= ctx.max && para.end - para.start <= ctx.maxChars;
    if (whole && this.fits(para, ctx.target)) {
      this.push(para);
      return;
    }
    if (this.fresh >= ctx.target * PARAGRAPH_BREAK) this.flush(true);
    if (whole) {
      // A paragraph that fits a chunk on its own stays whole, at the cost of the overlap.
      if (!this.fits(para, ctx.max)) this.dropOverlap();
      if (this.fits(para, ctx.max)) {
        this.push(para);
        return;
      }
    }
    for (const u of toUnits(ctx, para.start, para.end, ctx.max, "body")) {
      if (this.fresh > 0 && !this.fits(u, ctx.target)) this.flush(true);
      if (!this.fits(u, ctx.max)) this.dropOverlap();
      if (!this.fits(u, ctx.max)) {
        if (this.fresh > 0) this.flush(false);
        else this.emitAll();
      }
      this.push(u);
    }
  }

  finish(): IChunkDraft[] {
    if (this.fresh === 0) this.dropOverlap();
    this.emitAll();
    return this.out;
  }

  private fits(u: IUnit, limit: number): boolean {
    const first = this.units[0];
    return !first || (this.tokens + u.tokens <= limit && u.end - first.start <= this.ctx.maxChars);
  }

  private push(u: IUnit): void {
    this.units.push(u);
    this.tokens += u.tokens;
    if (u.kind === "body") {
      if (this.fresh === 0) this.path = trailPath(this.trail);
      this.fresh += u.tokens;
    }
  }

  private reset(): void {
    this.units = [];
    this.tokens = 0;
    this.fresh = 0;
    this.path = null;
  }

  /** Emits the chunk so far; headings at its end move on to open the next chunk. */
  private flush(withOverlap: boolean): void {
    let cut = this.units.length;
    while (cut > 0 && this.units[cut - 1]!.kind === "heading") cut--;
    const emitted = this.units.slice(0, cut);
    const carried = this.units.slice(cut);
    if (this.fresh > 0) this.emit(emitted);
    const overlap = withOverlap && carried.length === 0 ? this.overlapFrom(emitted) : [];
    this.reset();
    for (const u of [...overlap, ...carried]) this.push(u);
  }

  private emitAll(): void {
    if (this.units.length > 0 && (this.fresh > 0 || this.units.some((u) => u.kind === "heading"))) {
      this.emit(this.units);
    }
    this.reset();
  }

  /** Overlap leads a chunk, so dropping it only moves the chunk's start. */
  private dropOverlap(): void {
    let i = 0;
    while (i < this.units.length && this.units[i]!.kind === "overlap") this.tokens -= this.units[i++]!.tokens;
    if (i > 0) this.units = this.units.slice(i);
  }

  /** Trailing sentences (≈ overlapTokens, one long one may run over) of the same section's text. */
  private overlapFrom(emitted: readonly IUnit[]): IUnit[] {
    const { ctx } = this;
    const first = emitted[0];
    if (ctx.overlap <= 0 || !first) return [];
    const picked: IUnit[] = [];
    let total = 0;
    for (let i = emitted.length - 1; i >= 0; i--) {
      const u = emitted[i]!;
      if (u.kind === "heading") break;
      const sentences = sentenceSpans(ctx.text, u.start, u.end);
      for (let j = sentences.length - 1; j >= 0; j--) {
        const [start, end] = sentences[j]!;
        const tokens = tokensOf(ctx.text, { start, end });
        const limit = picked.length === 0 ? ctx.overlap * 1.5 : ctx.overlap;
        if (total + tokens > limit || start <= first.start) return picked;
        picked.unshift({ start, end, tokens, kind: "overlap" });
        total += tokens;
      }
    }
    return picked;
  }

  private emit(units: readonly IUnit[]): void {
    const start = units[0]!.start;
    const end = units[units.length - 1]!.end;
    const content = this.ctx.text.slice(start, end);
    this.out.push({
      chunkIndex: this.out.length,
      content,
      tokens: estimateTokens(content),
      pageStart: this.ctx.paged ? pageAt(this.ctx, start) : null,
      pageEnd: this.ctx.paged ? pageAt(this.ctx, Math.max(start, end - 1)) : null,
      sectionPath: this.path ?? trailPath(this.trail),
      charStart: start,
      charEnd: end,
    });
  }
}

/** Sentences of text[start, end), each cut at word ends when over `limit` tokens. */
function toUnits(ctx: IChunkContext, start: number, end: number, limit: number, kind: TUnitKind): IUnit[] {
  const tokens = tokensOf(ctx.text, { start, end });
  if (tokens <= limit && end - start <= ctx.maxChars) return [{ start, end, tokens, kind }];
  const units: IUnit[] = [];
  for (const [s, e] of sentenceSpans(ctx.text, start, end)) {
    const t = tokensOf(ctx.text, { start: s, end: e });
    if (t <= limit && e - s <= ctx.maxChars) units.push({ start: s, end: e, tokens: t, kind });
    else {
      for (const [ps, pe] of wordPieces(ctx.text, s, e, Math.min(limit, ctx.target), ctx.maxChars)) {
        units.push({ start: ps, end: pe, tokens: tokensOf(ctx.text, { start: ps, end: pe }), kind });
      }
    }
  }
  return units;
}

function tokensOf(text: string, span: { start: number; end: number }): number {
  return estimateTokens(text.slice(span.start, span.end));
}

function trailPath(trail: readonly string[]): string {
  return trail.filter(Boolean).join(" > ");
}

function pageAt(ctx: IChunkContext, offset: number): number {
  let lo = 0;
  let hi = ctx.pageStarts.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ctx.pageStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return ctx.pages[lo]?.pageNumber ?? lo + 1;
}
