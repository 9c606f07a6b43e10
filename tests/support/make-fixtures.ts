import { crc32, createDeflateRaw, deflateRawSync } from "node:zlib";
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from "docx";
import JSZip from "jszip";
import { PDFDocument, StandardFonts } from "pdf-lib";

/**
 * Builds binary fixtures at test time (PDF with pdf-lib, DOCX with `docx`, raw ZIPs by hand),
 * so the repository holds no binary files.
 */

/** One PDF page per entry; each page is a list of text lines drawn top to bottom. */
export async function makePdf(
  pages: readonly (readonly string[])[],
  opts: { title?: string } = {},
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  if (opts.title) pdf.setTitle(opts.title);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([612, 792]);
    lines.forEach((line, i) => {
      if (line) page.drawText(line, { x: 56, y: 740 - i * 16, size: 11, font });
    });
  }
  return pdf.save();
}

/**
 * Typesets Markdown as a book-like PDF: headings in bold on their own lines, paragraphs wrapped
 * at the margin, a running head and a page-number footer on every page. Characters the standard
 * font cannot encode become "?".
 */
export async function makeBookPdf(markdown: string, runningHead: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.TimesRoman);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const encodable = (s: string) =>
    [...s]
      .map((c) => {
        try {
          font.encodeText(c);
          return c;
        } catch {
          return "?";
        }
      })
      .join("");
  const lines: { text: string; heading: boolean; gap: boolean }[] = [];
  for (const block of markdown.split(/\n\n+/)) {
    const heading = /^#+ (.*)$/.exec(block);
    if (heading) {
      lines.push({ text: encodable(heading[1]!), heading: true, gap: true });
      continue;
    }
    for (const source of block.split("\n")) {
      let line = "";
      let first = true;
      for (const word of encodable(source).split(" ")) {
        if (line && font.widthOfTextAtSize(`${line} ${word}`, 11) > 480) {
          lines.push({ text: line, heading: false, gap: first });
          first = false;
          line = word;
        } else line = line ? `${line} ${word}` : word;
      }
      if (line) lines.push({ text: line, heading: false, gap: first });
    }
  }
  let pageNumber = 1;
  let page = pdf.addPage([612, 792]);
  let y = 740;
  for (const l of lines) {
    const height = (l.gap ? 8 : 0) + (l.heading ? 18 : 14);
    if (y - height < 60) {
      page.drawText(String(pageNumber++), { x: 300, y: 30, size: 9, font });
      page = pdf.addPage([612, 792]);
      page.drawText(runningHead, { x: 56, y: 760, size: 9, font });
      y = 740;
    }
    y -= height;
    page.drawText(l.text, { x: 56, y, size: l.heading ? 13 : 11, font: l.heading ? bold : font });
  }
  page.drawText(String(pageNumber), { x: 300, y: 30, size: 9, font });
  return pdf.save();
}

/** A PDF whose pages carry drawings but no text layer, like a scan. */
export async function makeImageOnlyPdf(pageCount: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (let i = 0; i < pageCount; i++)
    pdf.addPage([612, 792]).drawRectangle({ x: 50, y: 50, width: 400, height: 600 });
  return pdf.save();
}

export type TDocxBlock =
  | { heading: 1 | 2 | 3; text: string }
  | { paragraph: string }
  | { bullets: string[] }
  | { table: string[][] };

const HEADINGS = { 1: HeadingLevel.HEADING_1, 2: HeadingLevel.HEADING_2, 3: HeadingLevel.HEADING_3 } as const;

export async function makeDocx(blocks: readonly TDocxBlock[]): Promise<Uint8Array> {
  const children = blocks.flatMap((b): (Paragraph | Table)[] => {
    if ("heading" in b) return [new Paragraph({ text: b.text, heading: HEADINGS[b.heading] })];
    if ("paragraph" in b) return [new Paragraph({ children: [new TextRun(b.paragraph)] })];
    if ("bullets" in b) return b.bullets.map((t) => new Paragraph({ text: t, bullet: { level: 0 } }));
    return [
      new Table({
        rows: b.table.map(
          (cells) =>
            new TableRow({ children: cells.map((c) => new TableCell({ children: [new Paragraph(c)] })) }),
        ),
      }),
    ];
  });
  const buffer = await Packer.toBuffer(new Document({ sections: [{ children }] }));
  return new Uint8Array(buffer);
}

export interface IZipFixtureEntry {
  name: string;
  data: Uint8Array;
  /** Deflate the data (method 8) instead of storing it. */
  deflate?: boolean;
  /** Lie about the uncompressed size in the headers. */
  declaredSize?: number;
  /** Already raw-deflated bytes to store as the entry's data (method 8); `data` is then ignored. */
  deflated?: Uint8Array;
}

/** A minimal ZIP writer: local headers, data, central directory, end record. */
export function makeZip(entries: readonly IZipFixtureEntry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = new TextEncoder().encode(e.name);
    const method = e.deflate || e.deflated ? 8 : 0;
    const body = e.deflated ?? (e.deflate ? new Uint8Array(deflateRawSync(e.data)) : e.data);
    const size = e.declaredSize ?? e.data.byteLength;
    const crc = crc32(e.data);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(8, method, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, body.byteLength, true);
    local.setUint32(22, size, true);
    local.setUint16(26, name.byteLength, true);
    parts.push(new Uint8Array(local.buffer), name, body);

    const dir = new DataView(new ArrayBuffer(46));
    dir.setUint32(0, 0x02014b50, true);
    dir.setUint16(4, 20, true);
    dir.setUint16(6, 20, true);
    dir.setUint16(10, method, true);
    dir.setUint32(16, crc, true);
    dir.setUint32(20, body.byteLength, true);
    dir.setUint32(24, size, true);
    dir.setUint16(28, name.byteLength, true);
    dir.setUint32(42, offset, true);
    central.push(new Uint8Array(dir.buffer), name);
    offset += 30 + name.byteLength + body.byteLength;
  }
  const dirSize = central.reduce((n, p) => n + p.byteLength, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, dirSize, true);
  end.setUint32(16, offset, true);
  return concat([...parts, ...central, new Uint8Array(end.buffer)]);
}

/**
 * `bytes` zero bytes, raw-deflated as a stream (a 1 MiB buffer written again and again), so a
 * gigabyte-scale bomb is made without ever holding its inflated size in memory.
 */
export async function deflatedZeros(bytes: number): Promise<Uint8Array> {
  const deflater = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflater.on("data", (c: Buffer) => out.push(c));
  const done = new Promise((resolve, reject) => deflater.on("end", resolve).on("error", reject));
  const block = Buffer.alloc(1024 * 1024);
  for (let left = bytes; left > 0; left -= block.byteLength) {
    const part = left >= block.byteLength ? block : block.subarray(0, left);
    if (!deflater.write(part)) await new Promise((r) => deflater.once("drain", r));
  }
  deflater.end();
  await done;
  return new Uint8Array(Buffer.concat(out));
}

/**
 * The outside probe's DOCX: a small valid `word/document.xml` (so it passes the type check) while
 * `_rels/.rels` points the main document at `word/main.bin`, declared 5,000 bytes and inflating to
 * `inflatedBytes`.
 */
export async function makeLyingDocx(inflatedBytes: number): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(await makeDocx([{ paragraph: "A harmless paragraph." }]));
  const entries: IZipFixtureEntry[] = [];
  for (const [name, file] of Object.entries(zip.files)) {
    if (file.dir) continue;
    let data = await file.async("uint8array");
    if (name === "_rels/.rels") {
      data = new TextEncoder().encode(
        new TextDecoder().decode(data).replace("word/document.xml", "word/main.bin"),
      );
    }
    entries.push({ name, data, deflate: true });
  }
  entries.push({
    name: "word/main.bin",
    data: new Uint8Array(0),
    deflated: await deflatedZeros(inflatedBytes),
    declaredSize: 5000,
  });
  return makeZip(entries);
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

export const PNG_BYTES = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
  0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89,
]);

/** Deterministic pseudo-random bytes (a linear congruential generator), full of NULs and invalid UTF-8. */
export function randomBytes(length: number, seed = 42): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0;
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}
