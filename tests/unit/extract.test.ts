import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AppError } from "@/lib/errors";
import { chunkDocument } from "@/lib/ingestion/chunk";
import { assertZipInflatesAsDeclared, extractDocument, htmlToMarkdown } from "@/lib/ingestion/extract";
import { dehyphenatePdf, normalizeText, stripRunningHeaders } from "@/lib/ingestion/normalize";
import { DOCX_MIME, sniffDocumentType } from "@/lib/ingestion/sniff";
import {
  makeBookPdf,
  makeDocx,
  makeImageOnlyPdf,
  makeLyingDocx,
  makePdf,
  makeZip,
  randomBytes,
} from "../support/make-fixtures";

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/openstax/ch31-soil-and-plant-nutrition.md");

const utf8 = (s: string) => new TextEncoder().encode(s);

// Library failures are logged as warnings; keep the test output readable.
beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function rejection(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error("expected an AppError");
}

describe("extractDocument: PDF", () => {
  it("gives one page per PDF page with that page's text", async () => {
    const pdf = await makePdf(
      [
        ["Chapter 1 Cells", "Cells are the basic unit of life."],
        ["1.1 Cell Membranes", "The membrane controls what enters and leaves."],
        ["1.2 Organelles", "Mitochondria make ATP for the cell."],
      ],
      { title: "Cell Biology" },
    );
    const doc = await extractDocument(pdf, "application/pdf");
    expect(doc.mimeType).toBe("application/pdf");
    expect(doc.title).toBe("Cell Biology");
    expect(doc.pages.map((p) => p.pageNumber)).toEqual([1, 2, 3]);
    expect(doc.pages[0]!.text).toContain("Cells are the basic unit of life.");
    expect(doc.pages[1]!.text).toContain("The membrane controls what enters and leaves.");
    expect(doc.pages[2]!.text).toContain("Mitochondria make ATP for the cell.");
    expect(doc.pages[2]!.text).not.toContain("membrane");
    // Headings keep their own lines, so the chunker can find them.
    expect(doc.pages[1]!.text.split("\n")[0]).toBe("1.1 Cell Membranes");
  });

  it("joins words hyphenated across lines and hard-wrapped paragraph lines", async () => {
    const pdf = await makePdf([
      ["Osmosis moves water across a mem-", "brane from low to high solute", "concentration."],
    ]);
    const doc = await extractDocument(pdf, "application/pdf");
    expect(doc.pages[0]!.text).toBe(
      "Osmosis moves water across a membrane from low to high solute concentration.",
    );
  });

  it("leaves the caller's bytes intact (pdf.js empties the array it is given)", async () => {
    const pdf = await makePdf([["Some text here"]]);
    const before = pdf.byteLength;
    await extractDocument(pdf, "application/pdf");
    expect(pdf.byteLength).toBe(before);
    await expect(extractDocument(pdf, "application/pdf")).resolves.toMatchObject({
      pages: [{ pageNumber: 1 }],
    });
  });

  it("keeps a typeset chapter's structure: headings found, running heads and page numbers dropped", async () => {
    const markdown = readFileSync(FIXTURE, "utf8");
    const bytes = await makeBookPdf(markdown, "Chapter 31 | Soil and Plant Nutrition");
    const doc = await extractDocument(bytes, "application/pdf");
    expect(doc.pages.length).toBeGreaterThan(5);
    expect(doc.title).toBe("Chapter 31: Soil and Plant Nutrition");
    const chunks = chunkDocument(doc);
    const sections = [...new Set(chunks.map((c) => c.sectionPath.split(" > ").slice(0, 2).join(" > ")))];
    expect(sections).toEqual([
      "Chapter 31: Soil and Plant Nutrition > 31.0 Introduction",
      "Chapter 31: Soil and Plant Nutrition > 31.1 Nutritional Requirements of Plants",
      "Chapter 31: Soil and Plant Nutrition > 31.2 The Soil",
      "Chapter 31: Soil and Plant Nutrition > 31.3 Nutritional Adaptations of Plants",
    ]);
    expect(chunks.some((c) => c.sectionPath.endsWith("> Soil Composition"))).toBe(true);
    for (const c of chunks) {
      expect(c.content).not.toContain("Chapter 31 | Soil");
      expect(c.pageStart!).toBeLessThanOrEqual(c.pageEnd!);
    }
    // The words survive layout: every word of the chapter is in the extracted text.
    const extracted = new Set(doc.pages.flatMap((p) => p.text.split(/[\s|]+/)));
    const words = markdown.split(/[\s|]+/).filter((w) => /^[A-Za-z][a-z]+[.,]?$/.test(w));
    const missing = words.filter((w) => !extracted.has(w));
    expect(missing.length / words.length).toBeLessThan(0.01);
  });

  it("rejects a PDF without a text layer with 422", async () => {
    const err = await rejection(extractDocument(await makeImageOnlyPdf(2), "application/pdf"));
    expect(err.status).toBe(422);
    expect(err.message).toMatch(/no text layer \(scanned PDF\?\)/);
  });

  it("rejects a corrupt PDF with 422 and a plain message", async () => {
    const err = await rejection(
      extractDocument(utf8("%PDF-1.7\nthis is not really a pdf"), "application/pdf"),
    );
    expect(err.status).toBe(422);
    expect(err.message).toBe("The PDF is damaged or not a valid PDF and could not be read");
    expect(err.message).not.toMatch(/Exception|at /);
  });
});

describe("extractDocument: DOCX", () => {
  it("renders headings as # lines, lists as - lines and tables as | rows", async () => {
    const docx = await makeDocx([
      { heading: 1, text: "Chapter 5: Membranes" },
      { paragraph: "Membranes surround cells." },
      { heading: 2, text: "5.2 Passive Transport" },
      { heading: 3, text: "Osmosis" },
      { paragraph: "Water moves across membranes & more." },
      { bullets: ["diffusion", "osmosis"] },
      {
        table: [
          ["Solute", "Effect"],
          ["salt", "shrinks"],
        ],
      },
    ]);
    const doc = await extractDocument(docx, DOCX_MIME);
    expect(doc.title).toBe("Chapter 5: Membranes");
    expect(doc.pages).toHaveLength(1);
    expect(doc.pages[0]!.text).toBe(
      [
        "# Chapter 5: Membranes",
        "Membranes surround cells.",
        "## 5.2 Passive Transport",
        "### Osmosis",
        "Water moves across membranes & more.",
        "- diffusion\n- osmosis",
        "| Solute | Effect |\n| salt | shrinks |",
      ].join("\n\n"),
    );
    const chunks = chunkDocument(doc);
    expect(chunks.at(-1)!.sectionPath).toBe("Chapter 5: Membranes > 5.2 Passive Transport > Osmosis");
  });

  it("rejects a DOCX whose XML is broken with 422", async () => {
    const zip = makeZip([
      { name: "[Content_Types].xml", data: utf8("<Types") },
      { name: "word/document.xml", data: utf8("<w:document><w:body") },
    ]);
    const err = await rejection(extractDocument(zip, DOCX_MIME));
    expect(err.status).toBe(422);
  });

  it("rejects an archive that inflates past its declared size (a lying zip bomb)", async () => {
    const zip = makeZip([
      { name: "word/document.xml", data: new Uint8Array(5 * 1024 * 1024), deflate: true, declaredSize: 1000 },
    ]);
    const err = await rejection(extractDocument(zip, DOCX_MIME));
    expect(err.status).toBe(422);
    expect(err.message).toMatch(/expands beyond its declared size/);
  });
});

describe("extractDocument: DOCX parts bounded by their real size", () => {
  it("the probe's DOCX: main document renamed, declared 5,000 bytes, inflating to 256 MB, is refused before mammoth reads it", async () => {
    const docx = await makeLyingDocx(256 * 1024 * 1024);
    // It looks like any DOCX from the outside: small, valid document.xml, honest-looking directory.
    expect(docx.byteLength).toBeLessThan(1024 * 1024);
    expect(sniffDocumentType(docx, "probe.docx").mime).toBe(DOCX_MIME);
    const before = process.memoryUsage().rss;
    const err = await rejection(extractDocument(docx, DOCX_MIME));
    expect(err.status).toBe(422);
    expect(err.message).toMatch(/expands beyond its declared size/);
    // Inflation stops at the declared 5,000 bytes: nothing near the part's real size was allocated.
    expect(process.memoryUsage().rss - before).toBeLessThan(128 * 1024 * 1024);
  }, 60_000);

  it("checks parts of any name, not only XML", async () => {
    for (const name of ["word/media/image1.png", "customXml/item1.bin", "word/main.bin"]) {
      const docx = makeZip([
        { name: "word/document.xml", data: utf8("<w:document/>"), deflate: true },
        { name, data: new Uint8Array(3 * 1024 * 1024), deflate: true, declaredSize: 4096 },
      ]);
      const err = await rejection(assertZipInflatesAsDeclared(docx));
      expect(err.message, name).toMatch(/declared size/);
    }
  });

  it("accepts an honest DOCX and keeps extracting it", async () => {
    const docx = await makeDocx([
      { heading: 1, text: "Cells" },
      { paragraph: "A cell is the unit of life." },
    ]);
    await expect(assertZipInflatesAsDeclared(docx)).resolves.toBeUndefined();
    const doc = await extractDocument(docx, DOCX_MIME);
    expect(doc.pages[0]!.text).toContain("A cell is the unit of life.");
  });
});

describe("htmlToMarkdown", () => {
  it("handles nested lists, line breaks, entities and nested tables", () => {
    const html =
      "<p>a<br />b &amp; &lt;c&gt; &#233;&#x41;</p><ul><li>one<ul><li>two</li></ul></li><li>three</li></ul>" +
      "<table><tr><td><p>x|y</p></td><td><table><tr><td>in</td><td>ner</td></tr></table></td></tr></table>" +
      "<h4>Deep <strong>heading</strong></h4>";
    expect(htmlToMarkdown(html)).toBe(
      ["a\nb & <c> éA", "- one\n  - two\n- three", "| x\\|y | in ner |", "#### Deep heading"].join("\n\n"),
    );
  });
});

describe("extractDocument: Markdown and text", () => {
  it("decodes, normalises and takes the first # heading as the title", async () => {
    const md = utf8(
      "\ufeff# Chapter 2: Atoms  \r\n\r\nAtoms\u00a0are  small.\u200b\r\n\r\n\r\n\r\n\r\nThe end.\u0007",
    );
    const doc = await extractDocument(md, "text/markdown");
    expect(doc.title).toBe("Chapter 2: Atoms");
    expect(doc.pages).toEqual([
      { pageNumber: 1, text: "# Chapter 2: Atoms\n\nAtoms are small.\n\n\nThe end." },
    ]);
  });

  it("rejects text with nothing in it", async () => {
    expect((await rejection(extractDocument(utf8(" \n\t\n"), "text/plain"))).status).toBe(422);
  });

  it("refuses a type it cannot extract", async () => {
    expect((await rejection(extractDocument(utf8("x"), "image/png"))).status).toBe(415);
  });
});

describe("extractDocument never throws anything but AppError", () => {
  it("on arbitrary bytes of every type", async () => {
    const mimes = ["application/pdf", DOCX_MIME, "text/markdown", "text/plain"] as const;
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 1024 }), fc.constantFrom(...mimes), async (bytes, mime) => {
        try {
          const doc = await extractDocument(bytes, mime);
          expect(doc.pages.length).toBeGreaterThan(0);
        } catch (err) {
          expect(err).toBeInstanceOf(AppError);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("on PDF-looking and ZIP-looking garbage", async () => {
    for (const [head, mime] of [
      ["%PDF-1.4\n", "application/pdf"],
      ["PK\u0003\u0004", DOCX_MIME],
    ] as const) {
      const err = await rejection(
        extractDocument(new Uint8Array([...utf8(head), ...randomBytes(3000)]), mime),
      );
      expect(err.status).toBe(422);
    }
  });
});

describe("normalizeText", () => {
  it("applies NFC, LF line ends, drops controls and zero-width chars, collapses spaces", () => {
    expect(normalizeText("e\u0301\r\nx\ry")).toBe("é\nx\ny");
    expect(normalizeText("a\u0000b\u0008c\td")).toBe("abc d");
    expect(normalizeText("zero\u200bwidth\ufeff soft\u00adhyphen")).toBe("zerowidth softhyphen");
    expect(normalizeText("many    spaces\t\there   \nnext")).toBe("many spaces here\nnext");
    expect(normalizeText("a\n\n\n\n\n\nb")).toBe("a\n\n\nb");
    expect(normalizeText("  indented\n    code")).toBe("  indented\n    code");
    // Joiners shape Indic scripts, so they stay.
    expect(normalizeText("क्\u200dष")).toBe("क्\u200dष");
  });

  it("is idempotent", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), (s) => {
        const once = normalizeText(s);
        expect(normalizeText(once)).toBe(once);
        expect(once).not.toMatch(/(?![\n\t])\p{Cc}|\n{4}|[ \t]$/mu);
      }),
      { numRuns: 200 },
    );
  });
});

describe("dehyphenatePdf", () => {
  it("joins hyphenation and wrapped lines, keeps paragraphs, headings and list items apart", () => {
    const page = [
      "5.2 Passive Transport",
      "Plasma membranes must allow certain substances to enter and leave a cell, and prevent",
      "some harmful materials from entering and some essential materials from leav-",
      "ing. In other words, plasma membranes are selectively permeable.",
      "A short last line.",
      "Osmosis",
      "Osmosis is the movement of water through a semipermeable membrane according to the",
      "concentration gradient of water across the membrane:",
      "- first item",
      "- second item",
    ].join("\n");
    expect(dehyphenatePdf(page).split("\n\n")).toEqual([
      "5.2 Passive Transport",
      "Plasma membranes must allow certain substances to enter and leave a cell, and prevent some harmful materials from entering and some essential materials from leaving. In other words, plasma membranes are selectively permeable.",
      // Ends a sentence well short of a full line: taken as a paragraph of its own.
      "A short last line.",
      "Osmosis",
      "Osmosis is the movement of water through a semipermeable membrane according to the concentration gradient of water across the membrane:",
      "- first item",
      "- second item",
    ]);
  });
});

describe("stripRunningHeaders", () => {
  it("drops lines repeated at the top or bottom of most pages and bare page numbers", () => {
    const bodies = [
      "Cells divide.\nThey grow.",
      "Membranes.\nLipids.",
      "Osmosis.\nWater moves.",
      "Diffusion.\nPassive.",
    ];
    const pages = bodies.map((b, i) => [`Biology 2e | Chapter 5`, b, `${i + 10}`].join("\n"));
    const out = stripRunningHeaders(pages);
    expect(out[0]).toBe("Cells divide.\nThey grow.");
    expect(out[3]).toBe("Diffusion.\nPassive.");
    expect(stripRunningHeaders(pages.slice(0, 2))).toEqual(pages.slice(0, 2));
  });
});
