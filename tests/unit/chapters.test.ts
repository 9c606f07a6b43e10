import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { splitChapters } from "@/lib/ingestion/chapters";
import { chunkDocument } from "@/lib/ingestion/chunk";
import type { IExtractedDocument } from "@/types/chunk.types";

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/openstax/ch31-soil-and-plant-nutrition.md");
const md = (text: string): IExtractedDocument => ({
  mimeType: "text/markdown",
  pages: [{ pageNumber: 1, text }],
});
const plain = (...pages: string[]): IExtractedDocument => ({
  mimeType: "text/plain",
  pages: pages.map((text, i) => ({ pageNumber: i + 1, text })),
});
const body = (topic: string, n = 6) =>
  Array.from(
    { length: n },
    (_, i) => `${topic} is discussed in sentence ${i + 1} of this fairly long paragraph.`,
  ).join(" ");
const nonSpace = (s: string) => s.replace(/\s+/g, "");
const allText = (docs: { doc: IExtractedDocument }[]) =>
  docs.map((c) => c.doc.pages.map((p) => p.text).join("")).join("");

describe("splitChapters", () => {
  it("splits a Markdown book on its chapter headings", () => {
    const book = [
      "# Chapter 1: The Study of Life",
      body("Biology"),
      "## 1.1 The Science of Biology",
      body("Science"),
      "# Chapter 2: The Chemical Foundation of Life",
      body("Atoms"),
      "# Chapter 3: Biological Macromolecules",
      body("Proteins"),
    ].join("\n\n");
    const chapters = splitChapters(md(book));
    expect(chapters.map((c) => [c.chapterNumber, c.chapterName])).toEqual([
      [1, "The Study of Life"],
      [2, "The Chemical Foundation of Life"],
      [3, "Biological Macromolecules"],
    ]);
    expect(chapters[1]!.doc.pages[0]!.text.startsWith("# Chapter 2:")).toBe(true);
    expect(chapters[1]!.doc.title).toBe("The Chemical Foundation of Life");
    expect(nonSpace(allText(chapters))).toBe(nonSpace(book));
  });

  it("returns the whole document when there is one chapter or none", () => {
    const one = splitChapters(md(readFileSync(FIXTURE, "utf8")));
    expect(one).toHaveLength(1);
    expect(one[0]).toMatchObject({ chapterNumber: 31, chapterName: "Soil and Plant Nutrition" });
    const none = splitChapters({ ...md(`Just notes.\n\n${body("Notes")}`), title: "My notes" });
    expect(none).toEqual([
      { chapterName: "My notes", doc: expect.objectContaining({ mimeType: "text/markdown" }) },
    ]);
  });

  it("splits on plain # headings when no chapter lines exist, folding a bare book title forward", () => {
    const book = ["# Physics for Schools", "# Motion", body("Motion"), "# Forces", body("Force")].join(
      "\n\n",
    );
    const chapters = splitChapters(md(book));
    expect(chapters.map((c) => c.chapterName)).toEqual(["Motion", "Forces"]);
    expect(chapters[0]!.doc.pages[0]!.text.startsWith("# Physics for Schools")).toBe(true);
    expect(chapters[0]!.chapterNumber).toBeUndefined();
  });

  it("ignores table-of-contents lines and running heads in a PDF-like text", () => {
    const toc = ["Contents", "", "Chapter 1 Cells", "", "Chapter 2 Energy", "", "Chapter 3 Genetics"].join(
      "\n",
    );
    const pages = [
      toc,
      `CHAPTER 1\n\nCells\n\n${body("Cells", 4)}`,
      `Chapter 1 Cells\n\n${body("Membranes", 4)}`,
      `Chapter 2: Energy\n\n${body("Energy", 4)}`,
      `Chapter 3 Genetics\n\n${body("Genes", 4)}`,
    ];
    const chapters = splitChapters(plain(...pages));
    expect(chapters.map((c) => [c.chapterNumber, c.chapterName])).toEqual([
      [1, "Cells"],
      [2, "Energy"],
      [3, "Genetics"],
    ]);
    // Pages keep their original numbers; the short table of contents joins chapter 1.
    expect(chapters[0]!.doc.pages.map((p) => p.pageNumber)).toEqual([1, 2, 3]);
    expect(chapters[2]!.doc.pages.map((p) => p.pageNumber)).toEqual([5]);
    expect(nonSpace(allText(chapters))).toBe(nonSpace(pages.join("")));
    const chunks = chunkDocument(chapters[1]!.doc);
    expect(chunks.every((c) => c.pageStart === 4)).toBe(true);
  });

  it("keeps long front matter as its own entry", () => {
    const book = [
      `Preface\n\n${body("Preface", 20)}`,
      "Chapter 1: Start",
      body("Start"),
      "Chapter 2: Next",
      body("Next"),
    ];
    const chapters = splitChapters(plain(book.join("\n\n")));
    expect(chapters.map((c) => c.chapterName)).toEqual(["Front matter", "Start", "Next"]);
    expect(chapters[0]!.chapterNumber).toBeUndefined();
  });

  it("reads Roman numerals and prefers chapters over units", () => {
    const book = [
      "Unit I Mechanics",
      body("Units"),
      "Chapter IV: Work",
      body("Work"),
      "Chapter 5: Energy",
      body("Energy"),
    ].join("\n\n");
    expect(splitChapters(plain(book)).map((c) => [c.chapterNumber, c.chapterName])).toEqual([
      [4, "Work"],
      [5, "Energy"],
    ]);
  });
});
