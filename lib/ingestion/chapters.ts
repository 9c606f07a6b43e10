import type { IExtractedDocument, IExtractedPage } from "@/types/chunk.types";
import {
  type IBlock,
  joinPages,
  PAGE_SEPARATOR,
  parseBlocks,
  parseChapterLine,
  structureModeOf,
} from "./chunk";

/**
 * Splits a multi-chapter book into one document per chapter, from its headings: "Chapter 5: …"
 * style lines first, else Markdown `# ` headings. Running heads and tables of contents also
 * look like chapter headings, so a candidate must own real text and numbers must increase.
 */

export interface IChapterDocument {
  chapterNumber?: number;
  chapterName: string;
  doc: IExtractedDocument;
}

interface ICandidate {
  start: number;
  number?: number;
  name: string;
  keyword: string;
}

/** Text before the first chapter shorter than this (non-space chars) joins the first chapter. */
const MIN_FRONT_MATTER = 1000;
/** A heading that owns less text than this is a table-of-contents line or a title, not a chapter. */
const MIN_CHAPTER_BODY = 200;

export function splitChapters(doc: IExtractedDocument): IChapterDocument[] {
  const { text } = joinPages(doc.pages);
  const blocks = parseBlocks(text, structureModeOf(doc.mimeType));
  const chosen = chooseChapters(text, blocks);
  if (chosen.length === 0) {
    return [{ chapterName: doc.title ?? "Document", doc }];
  }
  const result: IChapterDocument[] = [];
  const firstStart = chosen[0]!.start;
  const frontMatter = nonSpaceCount(text, 0, firstStart);
  if (frontMatter >= MIN_FRONT_MATTER) {
    result.push({
      chapterName: "Front matter",
      doc: subDocument(doc, 0, firstStart, doc.title ?? "Front matter"),
    });
  }
  chosen.forEach((c, i) => {
    const start = i === 0 && frontMatter < MIN_FRONT_MATTER ? 0 : c.start;
    const end = chosen[i + 1]?.start ?? text.length;
    result.push({
      ...(c.number !== undefined ? { chapterNumber: c.number } : {}),
      chapterName: c.name,
      doc: subDocument(doc, start, end, c.name),
    });
  });
  return result;
}

function chooseChapters(text: string, blocks: readonly IBlock[]): ICandidate[] {
  const patterned: ICandidate[] = [];
  const topLevel: ICandidate[] = [];
  blocks.forEach((b, i) => {
    if (!b.heading || b.heading.level > 2) return;
    const parsed = parseChapterLine(b.heading.title);
    if (parsed) {
      const next = blocks[i + 1];
      // "CHAPTER 5" on its own line: the name is the short line that follows.
      const nextLine = next ? text.slice(next.start, next.end) : "";
      const name =
        parsed.name ||
        (nextLine && !nextLine.includes("\n") && nextLine.length <= 80 ? stripHashes(nextLine) : "");
      patterned.push({
        start: b.start,
        number: parseNumber(parsed.label),
        name: name || b.heading.title,
        keyword: b.heading.title.split(/\s/)[0]!.toLowerCase(),
      });
    } else if (b.heading.level === 1) {
      const m = /^(\d{1,3})[.:)]?\s+(.+)$/.exec(b.heading.title);
      topLevel.push(
        m
          ? { start: b.start, number: Number(m[1]), name: m[2]!, keyword: "#" }
          : {
              start: b.start,
              name: b.heading.title,
              keyword: "#",
            },
      );
    }
  });
  // Chapters, else units/parts when a book has no chapter lines.
  const chapters = patterned.filter((c) => c.keyword === "chapter");
  const numbered = chapters.length > 0 ? chapters : patterned;
  if (numbered.length > 0) return increasingByBody(text, numbered);
  return topLevel.length >= 2 ? mergeTiny(text, topLevel) : [];
}

/**
 * The increasing run of chapter numbers that owns the most text. A table of contents lists
 * every chapter with almost no text under each line, and a repeated running head ("Chapter 5"
 * on every page) keeps only its first occurrence, which owns the whole chapter.
 */
function increasingByBody(text: string, cands: readonly ICandidate[]): ICandidate[] {
  const weight = cands.map((c, i) => {
    let j = i + 1;
    while (j < cands.length && cands[j]!.number === c.number) j++;
    const body = nonSpaceCount(text, c.start, cands[j]?.start ?? text.length);
    return body >= MIN_CHAPTER_BODY ? body : 0;
  });
  const best = new Array<number>(cands.length).fill(0);
  const prev = new Array<number>(cands.length).fill(-1);
  for (let i = 0; i < cands.length; i++) {
    if (weight[i] === 0) continue;
    best[i] = weight[i]!;
    for (let j = 0; j < i; j++) {
      if (
        weight[j]! > 0 &&
        (cands[j]!.number ?? -1) < (cands[i]!.number ?? -1) &&
        best[j]! + weight[i]! > best[i]!
      ) {
        best[i] = best[j]! + weight[i]!;
        prev[i] = j;
      }
    }
  }
  let at = best.indexOf(Math.max(0, ...best));
  if (at < 0 || best[at] === 0) return [];
  const chain: ICandidate[] = [];
  for (; at >= 0; at = prev[at]!) chain.unshift(cands[at]!);
  return chain;
}

/** A heading with almost no text under it (a book title) joins the chapter after it. */
function mergeTiny(text: string, cands: readonly ICandidate[]): ICandidate[] {
  const kept: ICandidate[] = [];
  let pendingStart: number | null = null;
  cands.forEach((c, i) => {
    const body = nonSpaceCount(text, c.start, cands[i + 1]?.start ?? text.length);
    const start = pendingStart ?? c.start;
    if (body < MIN_CHAPTER_BODY && i < cands.length - 1) {
      pendingStart = start;
      return;
    }
    pendingStart = null;
    kept.push({ ...c, start });
  });
  return kept.length >= 2 ? kept : [];
}

function subDocument(doc: IExtractedDocument, start: number, end: number, title: string): IExtractedDocument {
  const pages: IExtractedPage[] = [];
  let offset = 0;
  for (const p of doc.pages) {
    const pageEnd = offset + p.text.length;
    const s = Math.max(start, offset);
    const e = Math.min(end, pageEnd);
    if (s < e && /\S/.test(p.text.slice(s - offset, e - offset))) {
      pages.push({ pageNumber: p.pageNumber, text: p.text.slice(s - offset, e - offset).trim() });
    }
    offset = pageEnd + PAGE_SEPARATOR.length;
  }
  return { mimeType: doc.mimeType, pages, title };
}

function nonSpaceCount(text: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 9) n++;
  }
  return n;
}

function stripHashes(line: string): string {
  return line.replace(/^#+\s*/, "").trim();
}

const ROMAN: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100 };

function parseNumber(label: string): number | undefined {
  if (/^\d+$/.test(label)) return Number(label);
  let total = 0;
  for (let i = 0; i < label.length; i++) {
    const v = ROMAN[label[i]!] ?? 0;
    const next = ROMAN[label[i + 1] ?? ""] ?? 0;
    total += v < next ? -v : v;
  }
  return total > 0 ? total : undefined;
}
