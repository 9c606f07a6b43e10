import { deflateRawSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { DOCX_MIME, decodeText, readZipDirectory, sniffDocumentType } from "@/lib/ingestion/sniff";
import { concat, makeDocx, makePdf, makeZip, PNG_BYTES, randomBytes } from "../support/make-fixtures";

const utf8 = (s: string) => new TextEncoder().encode(s);

function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error("expected an AppError");
}

describe("sniffDocumentType: accepted types come from the bytes", () => {
  it("detects a PDF whatever its name", async () => {
    const pdf = await makePdf([["Hello"]]);
    expect(sniffDocumentType(pdf, "notes.txt")).toEqual({ mime: "application/pdf", ext: "pdf" });
    // Some generators put junk before the header; readers accept it within the first KiB.
    expect(sniffDocumentType(concat([utf8("\n\n  "), pdf]), "x.pdf").mime).toBe("application/pdf");
  });

  it("detects a DOCX by its word/document.xml part", async () => {
    const docx = await makeDocx([{ paragraph: "Hello" }]);
    expect(sniffDocumentType(docx, "scan.pdf")).toEqual({ mime: DOCX_MIME, ext: "docx" });
  });

  it("tells Markdown from plain text by extension, declared type or headings", () => {
    expect(sniffDocumentType(utf8("just text"), "a.md")).toEqual({ mime: "text/markdown", ext: "md" });
    expect(sniffDocumentType(utf8("just text"), "a.markdown").mime).toBe("text/markdown");
    expect(sniffDocumentType(utf8("just text"), "upload", "text/markdown").mime).toBe("text/markdown");
    expect(sniffDocumentType(utf8("intro\n\n## 5.2 Passive Transport\n\nbody"), "upload").mime).toBe(
      "text/markdown",
    );
    expect(sniffDocumentType(utf8("#hashtag is not a heading"), "upload")).toEqual({
      mime: "text/plain",
      ext: "txt",
    });
    expect(sniffDocumentType(utf8("# Heading\n\nbut named .txt"), "notes.txt").mime).toBe("text/plain");
  });

  it("accepts UTF-8 with a BOM and UTF-16 with a BOM", () => {
    expect(sniffDocumentType(concat([new Uint8Array([0xef, 0xbb, 0xbf]), utf8("héllo")]), "a.txt").mime).toBe(
      "text/plain",
    );
    const le = new Uint8Array([0xff, 0xfe, ...[..."# Hi"].flatMap((c) => [c.charCodeAt(0), 0])]);
    expect(sniffDocumentType(le, "a.txt").mime).toBe("text/plain");
    expect(decodeText(le)).toBe("# Hi");
    const be = new Uint8Array([0xfe, 0xff, ...[..."ok"].flatMap((c) => [0, c.charCodeAt(0)])]);
    expect(decodeText(be)).toBe("ok");
    expect(decodeText(concat([new Uint8Array([0xef, 0xbb, 0xbf]), utf8("x")]))).toBe("x");
  });
});

describe("sniffDocumentType: rejections", () => {
  it("rejects an empty file with 400", () => {
    const err = errorOf(() => sniffDocumentType(new Uint8Array(), "a.pdf"));
    expect(err.code).toBe("bad_request");
    expect(err.status).toBe(400);
    expect(err.message).toBe("The file is empty");
  });

  it("rejects PNG bytes named .pdf with 415 and names what it found", () => {
    const err = errorOf(() => sniffDocumentType(PNG_BYTES, "chapter.pdf", "application/pdf"));
    expect(err.status).toBe(415);
    expect(err.message).toMatch(/detected a PNG image/);
    expect(err.message).toMatch(/upload PDF, DOCX, Markdown or text/);
  });

  it("rejects a ZIP without word/document.xml named .docx", () => {
    const zip = makeZip([{ name: "readme.txt", data: utf8("hello") }]);
    const err = errorOf(() => sniffDocumentType(zip, "book.docx"));
    expect([415, 422]).toContain(err.status);
    expect(err.message).toMatch(/ZIP archive/);
    const xlsx = makeZip([{ name: "xl/workbook.xml", data: utf8("<x/>") }]);
    expect(errorOf(() => sniffDocumentType(xlsx, "book.docx")).message).toMatch(/Excel/);
  });

  it("rejects a zip bomb by its compression ratio (422)", () => {
    const bomb = makeZip([
      { name: "word/document.xml", data: new Uint8Array(20 * 1024 * 1024), deflate: true },
    ]);
    expect(bomb.byteLength).toBeLessThan(100_000);
    const err = errorOf(() => sniffDocumentType(bomb, "bomb.docx"));
    expect(err.status).toBe(422);
    expect(err.message).toMatch(/zip bomb/);
  });

  it("rejects an archive that declares more than 200 MB (422)", () => {
    const zip = makeZip([
      { name: "word/document.xml", data: utf8("<w:document/>"), declaredSize: 150 * 1024 * 1024 },
      { name: "word/media/big.bin", data: utf8("x"), declaredSize: 100 * 1024 * 1024 },
    ]);
    const err = errorOf(() => sniffDocumentType(zip, "big.docx"));
    expect(err.status).toBe(422);
    expect(err.message).toMatch(/expand to 250 MB/);
  });

  it("rejects a damaged archive with 422", () => {
    const docxLike = makeZip([{ name: "word/document.xml", data: utf8("<w:document/>") }]);
    const cut = docxLike.subarray(0, docxLike.byteLength - 30);
    expect(errorOf(() => sniffDocumentType(cut, "a.docx")).status).toBe(422);
  });

  it("rejects random binary, legacy Office files and text with NULs with 415", () => {
    expect(errorOf(() => sniffDocumentType(randomBytes(4096), "a.txt")).status).toBe(415);
    const ole = concat([new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), randomBytes(512)]);
    expect(errorOf(() => sniffDocumentType(ole, "old.doc")).message).toMatch(/save it as \.docx/);
    expect(errorOf(() => sniffDocumentType(utf8("abc\u0000def"), "a.txt")).status).toBe(415);
    // Valid UTF-8 but mostly control characters is not a document either.
    expect(errorOf(() => sniffDocumentType(new Uint8Array(64).fill(1), "a.txt")).status).toBe(415);
  });
});

describe("readZipDirectory", () => {
  it("lists entries with their declared sizes", () => {
    const zip = makeZip([
      { name: "a.txt", data: utf8("hello") },
      { name: "word/document.xml", data: utf8("<w:document/>".repeat(10)), deflate: true },
    ]);
    const entries = readZipDirectory(zip);
    expect(entries.map((e) => [e.name, e.method, e.uncompressedSize])).toEqual([
      ["a.txt", 0, 5],
      ["word/document.xml", 8, 130],
    ]);
    expect(entries[1]!.compressedSize).toBe(deflateRawSync(utf8("<w:document/>".repeat(10))).byteLength);
  });
});

describe("sniffDocumentType never throws anything but AppError", () => {
  const check = (bytes: Uint8Array, name: string) => {
    try {
      const r = sniffDocumentType(bytes, name);
      expect(["pdf", "docx", "md", "txt"]).toContain(r.ext);
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
    }
  };

  it("on arbitrary bytes", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 2048 }),
        fc.constantFrom("a.pdf", "a.docx", "a.md", "a"),
        (b, n) => check(b, n),
      ),
      { numRuns: 500 },
    );
  });

  it("on arbitrary bytes behind a ZIP signature or in front of an end record", () => {
    const sig = new Uint8Array([0x50, 0x4b, 0x03, 0x04]);
    const eocd = new Uint8Array([0x50, 0x4b, 0x05, 0x06]);
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 512 }),
        fc.uint8Array({ minLength: 18, maxLength: 40 }),
        (body, tail) => check(concat([sig, body, eocd, tail]), "a.docx"),
      ),
      { numRuns: 500 },
    );
  });

  it("on a real DOCX with random bytes overwritten", async () => {
    const docx = await makeDocx([{ heading: 1, text: "Title" }, { paragraph: "Body text." }]);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: docx.byteLength - 1 }), fc.integer({ min: 0, max: 255 })), {
          maxLength: 8,
        }),
        (edits) => {
          const copy = new Uint8Array(docx);
          for (const [at, value] of edits) copy[at] = value;
          check(copy, "a.docx");
        },
      ),
      { numRuns: 300 },
    );
  });
});
