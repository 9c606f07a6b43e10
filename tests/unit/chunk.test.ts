import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  chunkDocument,
  hasPageNumbers,
  type IChunkOptions,
  joinPages,
  layoutHeadingLevel,
  parseBlocks,
  sentenceSpans,
  structureModeOf,
} from "@/lib/ingestion/chunk";
import { normalizeText } from "@/lib/ingestion/normalize";
import { estimateTokens } from "@/lib/text/tokenize";
import type { IChunkDraft, IExtractedDocument } from "@/types/chunk.types";

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/openstax/ch31-soil-and-plant-nutrition.md");
const md = (text: string): IExtractedDocument => ({
  mimeType: "text/markdown",
  pages: [{ pageNumber: 1, text }],
});
const pdf = (...pages: string[]): IExtractedDocument => ({
  mimeType: "application/pdf",
  pages: pages.map((text, i) => ({ pageNumber: i + 1, text })),
});

/** Offsets of `#`/`##` (or layout level 1–2) heading lines. */
function hardHeadingStarts(doc: IExtractedDocument): number[] {
  const { text } = joinPages(doc.pages);
  return parseBlocks(text, structureModeOf(doc.mimeType))
    .filter((b) => b.heading && b.heading.level <= 2)
    .map((b) => b.start);
}

/** Every invariant the pipeline relies on. */
function checkInvariants(doc: IExtractedDocument, chunks: IChunkDraft[], opts: IChunkOptions = {}): void {
  const { text } = joinPages(doc.pages);
  const max = opts.maxTokens ?? 380;
  const covered = new Uint8Array(text.length);
  const headingStarts = hardHeadingStarts(doc);
  const headingBlocks = parseBlocks(text, structureModeOf(doc.mimeType)).filter((b) => b.heading);
  chunks.forEach((c, i) => {
    expect(c.chunkIndex).toBe(i);
    expect(c.content).toBe(text.slice(c.charStart, c.charEnd));
    expect(c.content).toBe(c.content.trim());
    expect(c.content.length).toBeGreaterThan(0);
    expect(c.tokens).toBe(estimateTokens(c.content));
    expect(c.tokens).toBeLessThanOrEqual(max);
    const paged = hasPageNumbers(doc);
    if (!paged) expect([c.pageStart, c.pageEnd]).toEqual([null, null]);
    else expect(c.pageStart!).toBeLessThanOrEqual(c.pageEnd!);
    if (i > 0) {
      const prev = chunks[i - 1]!;
      expect(c.charStart).toBeGreaterThan(prev.charStart);
      expect(c.charEnd).toBeGreaterThan(prev.charEnd);
      if (paged) {
        expect(c.pageStart!).toBeGreaterThanOrEqual(prev.pageStart!);
        expect(c.pageEnd!).toBeGreaterThanOrEqual(prev.pageEnd!);
      }
    }
    for (let k = c.charStart; k < c.charEnd; k++) covered[k] = 1;
    // A chapter/section heading inside a chunk may only be preceded by other headings.
    for (const h of headingStarts) {
      if (h <= c.charStart || h >= c.charEnd) continue;
      const before = headingBlocks.filter((b) => b.start >= c.charStart && b.end <= h);
      let rest = text.slice(c.charStart, h);
      for (const b of before) rest = rest.replace(text.slice(b.start, b.end), "");
      expect(rest.trim(), `chunk ${i} crosses the heading at ${h}`).toBe("");
    }
  });
  for (let k = 0; k < text.length; k++) {
    if (!covered[k] && /\S/.test(text[k]!))
      throw new Error(`character ${k} (${JSON.stringify(text[k])}) is in no chunk`);
  }
}

// ---------------------------------------------------------------------------------------------
// Generators

const word = fc.constantFrom(
  "cell",
  "membrane",
  "Osmosis",
  "water",
  "the",
  "of",
  "ATP",
  "e.g.",
  "Dr.",
  "5.2",
  "x",
  "(see",
  "Figure)",
  "i.e.",
  "transport",
  "photosynthesis,",
  "नमस्ते",
  "細胞膜は水を通す",
  "supercalifragilisticexpialidocious",
);
const sentence = fc
  .tuple(fc.array(word, { minLength: 1, maxLength: 30 }), fc.constantFrom(".", "?", "!", "", ":", "।"))
  .map(([ws, end]) => {
    const s = ws.join(" ");
    return s.charAt(0).toUpperCase() + s.slice(1) + end;
  });
const runOn = fc.array(word, { minLength: 150, maxLength: 700 }).map((ws) => ws.join(" "));
const paragraph = fc.oneof(
  { weight: 8, arbitrary: fc.array(sentence, { minLength: 1, maxLength: 14 }).map((ss) => ss.join(" ")) },
  {
    weight: 2,
    arbitrary: fc
      .array(sentence, { minLength: 2, maxLength: 8 })
      .map((ss) => ss.map((s) => `- ${s}`).join("\n")),
  },
  { weight: 1, arbitrary: runOn },
  {
    weight: 1,
    arbitrary: fc.string({ minLength: 1, maxLength: 4000, unit: fc.constantFrom("细", "胞", "。", "x") }),
  },
);
const title = fc.array(fc.constantFrom("Passive", "Transport", "Osmosis", "Cell", "Energy", "Plants"), {
  minLength: 1,
  maxLength: 5,
});
const mdBlock = fc.oneof(
  { weight: 3, arbitrary: paragraph },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 1, max: 5 }), title)
      .map(([l, t]) => `${"#".repeat(l)} ${t.join(" ")}`),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom("===", "---"), title).map(([u, t]) => `${t.join(" ")}\n${u}`),
  },
);
const layoutBlock = fc.oneof(
  { weight: 3, arbitrary: paragraph.map((p) => `${p}.`) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.nat(30), fc.nat(9), title).map(([a, b, t]) => `${a + 1}.${b + 1} ${t.join(" ")}`),
  },
  { weight: 1, arbitrary: fc.tuple(fc.nat(30), title).map(([a, t]) => `Chapter ${a + 1}: ${t.join(" ")}`) },
);
/** Blocks spread over 1–4 pages, with stray blank lines. */
const pagesOf = (block: fc.Arbitrary<string>) =>
  fc.array(
    fc
      .tuple(
        fc.array(block, { maxLength: 14 }),
        fc.constantFrom("\n\n", "\n\n\n", "\n"),
        fc.constantFrom("", "\n", "  "),
      )
      .map(([bs, sep, pad]) => pad + bs.join(sep) + pad),
    { minLength: 1, maxLength: 4 },
  );
const options = fc
  .tuple(fc.integer({ min: 20, max: 400 }), fc.integer({ min: 0, max: 120 }), fc.integer({ min: 0, max: 60 }))
  .map(
    ([target, extra, overlap]): IChunkOptions => ({
      targetTokens: target,
      maxTokens: target + extra,
      overlapTokens: overlap,
    }),
  );

describe("chunkDocument invariants (property tests)", () => {
  it("Markdown: no text lost, exact slices, size cap, order, pages, no crossing # / ##", () => {
    fc.assert(
      fc.property(pagesOf(mdBlock), options, (pages, opts) => {
        const doc: IExtractedDocument = {
          mimeType: "text/markdown",
          pages: pages.map((text, i) => ({ pageNumber: i + 1, text })),
        };
        checkInvariants(doc, chunkDocument(doc, opts), opts);
      }),
      { numRuns: 300 },
    );
  });

  it("PDF layout: the same, with numbered and chapter headings found in plain lines", () => {
    fc.assert(
      fc.property(pagesOf(layoutBlock), options, (pages, opts) => {
        const doc = pdf(...pages);
        checkInvariants(doc, chunkDocument(doc, opts), opts);
      }),
      { numRuns: 300 },
    );
  });

  it("any string at all, with the default options", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 600 }), { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        (pages, isMd) => {
          const doc: IExtractedDocument = {
            mimeType: isMd ? "text/markdown" : "text/plain",
            pages: pages.map((text, i) => ({ pageNumber: i + 1, text })),
          };
          checkInvariants(doc, chunkDocument(doc));
        },
      ),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Behaviour

const sentences = (n: number, prefix = "Sentence") =>
  Array.from({ length: n }, (_, i) => `${prefix} ${i + 1} has exactly eight words in it.`).join(" ");

describe("chunkDocument behaviour", () => {
  it("builds the heading trail and merges heading-only fragments forward", () => {
    const doc = md(
      "# Chapter 5: Structure and Function of Plasma Membranes\n\n## 5.2 Passive Transport\n\n### Osmosis\n\nWater moves.",
    );
    const chunks = chunkDocument(doc);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.charStart).toBe(0);
    expect(chunks[0]!.sectionPath).toBe(
      "Chapter 5: Structure and Function of Plasma Membranes > 5.2 Passive Transport > Osmosis",
    );
  });

  it("never lets a chunk run across a section heading, however small the sections", () => {
    const doc = md("# Ch 1\n\n## 1.1 A\n\nAlpha text.\n\n## 1.2 B\n\nBeta text.\n\n# Ch 2\n\nGamma text.");
    const chunks = chunkDocument(doc);
    expect(chunks.map((c) => c.content)).toEqual([
      "# Ch 1\n\n## 1.1 A\n\nAlpha text.",
      "## 1.2 B\n\nBeta text.",
      "# Ch 2\n\nGamma text.",
    ]);
    expect(chunks.map((c) => c.sectionPath)).toEqual(["Ch 1 > 1.1 A", "Ch 1 > 1.2 B", "Ch 2"]);
  });

  it("packs whole paragraphs up to the target and starts a new chunk at a sub-heading", () => {
    const para = sentences(5); // 40 words ≈ 54 tokens
    const doc = md(`## S\n\n${para}\n\n${para}\n\n${para}\n\n### Sub\n\n${para}`);
    const chunks = chunkDocument(doc, { targetTokens: 300, maxTokens: 380, overlapTokens: 0 });
    expect(chunks).toHaveLength(2);
    expect(chunks[0]!.content.endsWith("in it.")).toBe(true);
    expect(chunks[1]!.content.startsWith("### Sub")).toBe(true);
    expect(chunks[1]!.sectionPath).toBe("S > Sub");
  });

  it("splits an over-long paragraph at sentence ends and overlaps by trailing sentences", () => {
    const doc = md(`## Long\n\n${sentences(60)}`);
    const chunks = chunkDocument(doc, { targetTokens: 100, maxTokens: 130, overlapTokens: 25 });
    expect(chunks.length).toBeGreaterThan(4);
    for (const c of chunks) expect(c.content).toMatch(/in it\.$/);
    for (let i = 1; i < chunks.length; i++) {
      const prev = chunks[i - 1]!;
      const cur = chunks[i]!;
      expect(cur.charStart).toBeLessThan(prev.charEnd);
      const shared = prev.content.slice(cur.charStart - prev.charStart);
      expect(cur.content.startsWith(shared)).toBe(true);
      expect(estimateTokens(shared)).toBeLessThanOrEqual(38);
      expect(shared).toMatch(/^Sentence \d+ /);
    }
  });

  it("does not overlap across a section boundary", () => {
    const doc = md(`## A\n\n${sentences(40)}\n\n## B\n\n${sentences(3, "Other")}`);
    const chunks = chunkDocument(doc, { targetTokens: 100, maxTokens: 130, overlapTokens: 25 });
    const firstB = chunks.find((c) => c.sectionPath === "B")!;
    expect(firstB.content.startsWith("## B")).toBe(true);
  });

  it("cuts a run-on sentence at word ends and caps text without spaces by characters", () => {
    const runOn = Array.from({ length: 2000 }, (_, i) => `w${i}`).join(" ");
    const cjk = "细胞膜".repeat(5000);
    for (const text of [runOn, cjk]) {
      const chunks = chunkDocument(md(text));
      checkInvariants(md(text), chunks);
      for (const c of chunks) expect(c.content.length).toBeLessThanOrEqual(3800);
    }
    const pieces = chunkDocument(md(runOn));
    for (const c of pieces) expect(c.content).toMatch(/^w\d+( w\d+)*$/);
  });

  it("reports the pages each chunk spans", () => {
    const doc = pdf(sentences(20, "Page one"), sentences(20, "Page two"), sentences(20, "Page three"));
    const chunks = chunkDocument(doc, { targetTokens: 150, maxTokens: 200, overlapTokens: 0 });
    expect(chunks[0]!.pageStart).toBe(1);
    expect(chunks.at(-1)!.pageEnd).toBe(3);
    for (const c of chunks) {
      const pagesInText = [1, 2, 3].filter((p) =>
        c.content.includes(["Page one", "Page two", "Page three"][p - 1]!),
      );
      expect(c.pageStart).toBe(pagesInText[0]);
      expect(c.pageEnd).toBe(pagesInText.at(-1));
    }
  });

  it("reads Setext headings (=== and --- underlines)", () => {
    const doc = md("Photosynthesis\n==============\n\nIntro text.\n\nLight Reactions\n---\n\nMore text.");
    const chunks = chunkDocument(doc);
    expect(chunks.map((c) => [c.sectionPath, c.content])).toEqual([
      ["Photosynthesis", "Photosynthesis\n==============\n\nIntro text."],
      ["Photosynthesis > Light Reactions", "Light Reactions\n---\n\nMore text."],
    ]);
  });

  it("ignores # lines inside fenced code", () => {
    const doc = md("## Code\n\n```\n# not a heading\n```\n\nText after.");
    expect(chunkDocument(doc).map((c) => c.sectionPath)).toEqual(["Code"]);
  });
});

describe("layout (PDF) headings", () => {
  it("finds numbered, chapter and Title-Case headings", () => {
    const body = "Plasma membranes must allow certain substances to enter and leave a cell.";
    expect(layoutHeadingLevel("Chapter 5: Structure and Function", body, "")).toBe(1);
    expect(layoutHeadingLevel("CHAPTER 5 CELLS", body, "")).toBe(1);
    expect(layoutHeadingLevel("Unit IV", body, "")).toBe(1);
    expect(layoutHeadingLevel("5.2 Passive Transport", body, "")).toBe(2);
    expect(layoutHeadingLevel("5.2.1 Osmosis and Tonicity", body, "Last sentence.")).toBe(3);
    expect(layoutHeadingLevel("Selective Permeability", body, "")).toBe(3);
    expect(layoutHeadingLevel("FLUID MOSAIC MODEL", body, "Previous paragraph ends.")).toBe(3);
  });

  it("is conservative with lines that only look like headings", () => {
    const body = "Plasma membranes must allow certain substances to enter and leave a cell.";
    expect(layoutHeadingLevel("Chapter 5 describes how cells move water.", body, "")).toBe(0);
    expect(layoutHeadingLevel("3.5 m of rope was used", body, "")).toBe(0);
    expect(layoutHeadingLevel("5.2 Passive Transport ........ 123", body, "")).toBe(0);
    expect(layoutHeadingLevel("5.2 Passive Transport", body, "a sentence that runs on")).toBe(0);
    expect(layoutHeadingLevel("Figure 5.3 The Membrane", body, "")).toBe(0);
    expect(layoutHeadingLevel("Selective Permeability", "and continues in lower case here and on", "")).toBe(
      0,
    );
    expect(layoutHeadingLevel("Selective permeability of the cell membrane is what", body, "")).toBe(0);
  });

  it("chunks a PDF page by its detected sections", () => {
    const page = [
      "Chapter 5 Membranes",
      "",
      "5.1 Components",
      "",
      sentences(3, "Lipids"),
      "",
      "5.2 Passive Transport",
      "",
      sentences(3, "Water"),
    ].join("\n");
    const chunks = chunkDocument(pdf(page));
    expect(chunks.map((c) => c.sectionPath)).toEqual([
      "Chapter 5 Membranes > 5.1 Components",
      "Chapter 5 Membranes > 5.2 Passive Transport",
    ]);
  });
});

describe("sentenceSpans", () => {
  it("splits at sentence ends but not at abbreviations, initials or decimals", () => {
    const t =
      "Dr. Smith saw e.g. cells. J. Watson wrote 3.5 pages! Then? yes. 细胞。Next\nline (Fig. 3) ends.";
    const spans = sentenceSpans(t, 0, t.length).map(([s, e]) => t.slice(s, e));
    expect(spans).toEqual([
      "Dr. Smith saw e.g. cells.",
      "J. Watson wrote 3.5 pages!",
      "Then? yes.",
      "细胞。",
      "Next",
      "line (Fig. 3) ends.",
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// The real corpus fixture (OpenStax Biology 2e, chapter 31; CC BY 4.0, see ATTRIBUTION.md)

/** Section ranges for this file from the corpus manifest (chars, end-exclusive). */
const CH31_SECTIONS = [
  { number: "31.0", start: 0, end: 1416 },
  { number: "31.1", start: 1416, end: 9974 },
  { number: "31.2", start: 9974, end: 20787 },
  { number: "31.3", start: 20787, end: 32217 },
];

describe("OpenStax chapter fixture", () => {
  // The manifest's offsets index the file as published, so chunk it as is (the chunker needs no
  // normalised input); normalising only collapses spaces in empty table cells.
  const raw = readFileSync(FIXTURE, "utf8");
  const doc = md(raw);

  it("differs from its normalised form only in whitespace", () => {
    const normal = normalizeText(raw);
    expect(normal).not.toBe(raw);
    expect(normal.replace(/\s+/g, "")).toBe(raw.replace(/\s+/g, ""));
  });

  it("labels every chunk with the section that holds its midpoint", () => {
    const chunks = chunkDocument(doc);
    checkInvariants(doc, chunks);
    expect(chunks.length).toBeGreaterThan(20);
    for (const c of chunks) {
      const mid = Math.floor((c.charStart + c.charEnd) / 2);
      const section = CH31_SECTIONS.find((s) => mid >= s.start && mid < s.end)!;
      const [chapter, sectionTitle] = c.sectionPath.split(" > ");
      expect(chapter).toBe("Chapter 31: Soil and Plant Nutrition");
      expect(sectionTitle?.startsWith(`${section.number} `), `${c.sectionPath} vs ${section.number}`).toBe(
        true,
      );
      // Whole chunk inside one section, not only its midpoint.
      const bodyStart = c.content.search(/^(?!#)\S/m);
      expect(c.charStart + Math.max(0, bodyStart)).toBeGreaterThanOrEqual(section.start);
      expect(c.charEnd).toBeLessThanOrEqual(section.end);
    }
  });

  it("makes chunks of a useful size", () => {
    const tokens = chunkDocument(doc)
      .map((c) => c.tokens)
      .sort((a, b) => a - b);
    expect(tokens.at(-1)).toBeLessThanOrEqual(380);
    expect(tokens[Math.floor(tokens.length / 2)]).toBeGreaterThanOrEqual(150);
  });
});
