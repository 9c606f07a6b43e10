import { AppError } from "@/lib/errors";

/**
 * Decides what an upload really is from its bytes. The filename and the declared MIME type are
 * only hints (Markdown vs plain text); a PNG renamed to .pdf is still a PNG.
 */

export const DOCUMENT_MIMES = [
  "application/pdf",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "text/markdown",
  "text/plain",
] as const;
export type TDocumentMime = (typeof DOCUMENT_MIMES)[number];
export type TDocumentExt = "pdf" | "docx" | "md" | "txt";

export interface ISniffResult {
  mime: TDocumentMime;
  ext: TDocumentExt;
}

export const DOCX_MIME: TDocumentMime =
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** Zip-bomb limits on what the archive declares it will expand to. */
const MAX_ZIP_UNCOMPRESSED = 200 * 1024 * 1024;
const MAX_ZIP_RATIO = 200;
/** Below this total the ratio is harmless whatever it is (a tiny, very repetitive part). */
const RATIO_FLOOR_BYTES = 1024 * 1024;
const MAX_ZIP_ENTRIES = 10_000;

const SUPPORTED_HINT = "upload PDF, DOCX, Markdown or text";

export function sniffDocumentType(bytes: Uint8Array, filename: string, declaredMime?: string): ISniffResult {
  if (bytes.byteLength === 0) throw new AppError("bad_request", "The file is empty");
  if (isPdf(bytes)) return { mime: "application/pdf", ext: "pdf" };
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) {
    return sniffZip(bytes);
  }
  const text = decodeText(bytes);
  if (text === null) {
    throw new AppError(
      "unsupported_media_type",
      `Unsupported file type: detected ${describeBinary(bytes)}; ${SUPPORTED_HINT}`,
    );
  }
  return isMarkdown(text, filename, declaredMime)
    ? { mime: "text/markdown", ext: "md" }
    : { mime: "text/plain", ext: "txt" };
}

function startsWith(bytes: Uint8Array, sig: readonly number[], offset = 0): boolean {
  if (bytes.byteLength < offset + sig.length) return false;
  return sig.every((b, i) => bytes[offset + i] === b);
}

/** Readers accept the `%PDF-` header anywhere in the first KiB (some generators prepend junk). */
function isPdf(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.byteLength - 5, 1024);
  for (let i = 0; i <= end; i++) {
    if (bytes[i] === 0x25 && startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d], i)) return true;
  }
  return false;
}

function sniffZip(bytes: Uint8Array): ISniffResult {
  const entries = readZipDirectory(bytes);
  if (!entries.some((e) => e.name === "word/document.xml")) {
    const what = entries.some((e) => e.name.startsWith("xl/"))
      ? "an Excel workbook"
      : entries.some((e) => e.name.startsWith("ppt/"))
        ? "a PowerPoint presentation"
        : "a ZIP archive";
    throw new AppError(
      "unsupported_media_type",
      `Unsupported file type: detected ${what}; ${SUPPORTED_HINT}`,
    );
  }
  return { mime: DOCX_MIME, ext: "docx" };
}

export interface IZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

/**
 * Reads a ZIP's central directory (the index at its end), checking the sizes it declares before
 * anything inflates a byte. Throws `unprocessable` for a broken archive or a likely zip bomb.
 */
export function readZipDirectory(bytes: Uint8Array): IZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEndOfCentralDirectory(bytes, view);
  if (eocd < 0)
    throw new AppError("unprocessable", "The file is a damaged ZIP/DOCX archive (no central directory)");
  let count = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || offset === 0xffffffff) ({ count, offset } = readZip64Directory(view, eocd));
  if (count > MAX_ZIP_ENTRIES) throw new AppError("unprocessable", "The archive has too many entries");

  const entries: IZipEntry[] = [];
  let pos = offset;
  for (let i = 0; i < count; i++) {
    if (pos + 46 > bytes.byteLength || view.getUint32(pos, true) !== 0x02014b50) {
      throw new AppError("unprocessable", "The file is a damaged ZIP/DOCX archive (bad central directory)");
    }
    const nameLen = view.getUint16(pos + 28, true);
    const extraLen = view.getUint16(pos + 30, true);
    const commentLen = view.getUint16(pos + 32, true);
    if (pos + 46 + nameLen + extraLen > bytes.byteLength) {
      throw new AppError("unprocessable", "The file is a damaged ZIP/DOCX archive (truncated)");
    }
    const entry: IZipEntry = {
      name: new TextDecoder().decode(bytes.subarray(pos + 46, pos + 46 + nameLen)),
      method: view.getUint16(pos + 10, true),
      compressedSize: view.getUint32(pos + 20, true),
      uncompressedSize: view.getUint32(pos + 24, true),
      localHeaderOffset: view.getUint32(pos + 42, true),
    };
    applyZip64Extra(entry, view, pos + 46 + nameLen, extraLen);
    entries.push(entry);
    pos += 46 + nameLen + extraLen + commentLen;
  }
  assertNotZipBomb(entries);
  return entries;
}

function findEndOfCentralDirectory(bytes: Uint8Array, view: DataView): number {
  // The record is 22 bytes plus a comment of at most 65,535 bytes, so it sits near the end.
  const stop = Math.max(0, bytes.byteLength - 22 - 0xffff);
  for (let i = bytes.byteLength - 22; i >= stop; i--) {
    if (bytes[i] === 0x50 && view.getUint32(i, true) === 0x06054b50) return i;
  }
  return -1;
}

function readZip64Directory(view: DataView, eocd: number): { count: number; offset: number } {
  const locator = eocd - 20;
  if (locator < 0 || view.getUint32(locator, true) !== 0x07064b50) {
    throw new AppError("unprocessable", "The file is a damaged ZIP64 archive");
  }
  const record = Number(view.getBigUint64(locator + 8, true));
  if (record + 56 > view.byteLength || view.getUint32(record, true) !== 0x06064b50) {
    throw new AppError("unprocessable", "The file is a damaged ZIP64 archive");
  }
  return {
    count: Number(view.getBigUint64(record + 32, true)),
    offset: Number(view.getBigUint64(record + 48, true)),
  };
}

/** ZIP64 moves sizes that overflow 32 bits into extra field 0x0001, in a fixed order. */
function applyZip64Extra(entry: IZipEntry, view: DataView, start: number, length: number): void {
  let p = start;
  while (p + 4 <= start + length) {
    const id = view.getUint16(p, true);
    const size = view.getUint16(p + 2, true);
    if (id === 0x0001) {
      let q = p + 4;
      const read = (): number => {
        if (q + 8 > p + 4 + size) return 0;
        const v = Number(view.getBigUint64(q, true));
        q += 8;
        return v;
      };
      if (entry.uncompressedSize === 0xffffffff) entry.uncompressedSize = read();
      if (entry.compressedSize === 0xffffffff) entry.compressedSize = read();
      if (entry.localHeaderOffset === 0xffffffff) entry.localHeaderOffset = read();
      return;
    }
    p += 4 + size;
  }
}

function assertNotZipBomb(entries: readonly IZipEntry[]): void {
  let uncompressed = 0;
  let compressed = 0;
  for (const e of entries) {
    uncompressed += e.uncompressedSize;
    compressed += e.compressedSize;
  }
  if (uncompressed > MAX_ZIP_UNCOMPRESSED) {
    throw new AppError(
      "unprocessable",
      `The archive would expand to ${Math.round(uncompressed / 1048576)} MB (limit ${MAX_ZIP_UNCOMPRESSED / 1048576} MB)`,
    );
  }
  if (uncompressed > RATIO_FLOOR_BYTES && uncompressed / Math.max(1, compressed) > MAX_ZIP_RATIO) {
    throw new AppError(
      "unprocessable",
      "The archive's compression ratio is suspiciously high (possible zip bomb)",
    );
  }
}

/**
 * Decodes bytes that are text: UTF-8 (BOM optional) or UTF-16 with a BOM. Returns null for
 * anything that is not (invalid UTF-8, NUL bytes, or mostly control characters).
 */
export function decodeText(bytes: Uint8Array): string | null {
  let text: string;
  try {
    if (startsWith(bytes, [0xff, 0xfe]))
      text = new TextDecoder("utf-16le", { fatal: true }).decode(bytes.subarray(2));
    else if (startsWith(bytes, [0xfe, 0xff])) {
      text = new TextDecoder("utf-16be", { fatal: true }).decode(bytes.subarray(2));
    } else {
      if (bytes.includes(0)) return null;
      // ignoreBOM keeps a leading BOM in the output, so strip it explicitly below.
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    }
  } catch {
    return null;
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.includes("\u0000")) return null;
  let controls = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c) || c === 0x7f) controls++;
  }
  return controls > text.length * 0.05 ? null : text;
}

const MARKDOWN_HEADING = /^#{1,6} \S/m;

function isMarkdown(text: string, filename: string, declaredMime?: string): boolean {
  const ext = filename.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  if (ext === "md" || ext === "markdown") return true;
  if (ext === "txt" && declaredMime !== "text/markdown") return false;
  return declaredMime === "text/markdown" || MARKDOWN_HEADING.test(text.slice(0, 200_000));
}

const BINARY_SIGNATURES: readonly { sig: readonly number[]; offset?: number; name: string }[] = [
  { sig: [0x89, 0x50, 0x4e, 0x47], name: "a PNG image (image/png)" },
  { sig: [0xff, 0xd8, 0xff], name: "a JPEG image (image/jpeg)" },
  { sig: [0x47, 0x49, 0x46, 0x38], name: "a GIF image (image/gif)" },
  { sig: [0x57, 0x45, 0x42, 0x50], offset: 8, name: "a WebP image (image/webp)" },
  { sig: [0x49, 0x49, 0x2a, 0x00], name: "a TIFF image (image/tiff)" },
  { sig: [0x4d, 0x4d, 0x00, 0x2a], name: "a TIFF image (image/tiff)" },
  { sig: [0x42, 0x4d], name: "a BMP image (image/bmp)" },
  {
    sig: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
    name: "a legacy Office file (.doc/.xls/.ppt; save it as .docx)",
  },
  { sig: [0x66, 0x74, 0x79, 0x70], offset: 4, name: "an MP4/MOV video or HEIC image" },
  { sig: [0x1f, 0x8b], name: "a gzip archive (application/gzip)" },
  { sig: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], name: "a 7-Zip archive" },
  { sig: [0x52, 0x61, 0x72, 0x21], name: "a RAR archive" },
  { sig: [0x4d, 0x5a], name: "a Windows executable" },
  { sig: [0x7f, 0x45, 0x4c, 0x46], name: "an ELF executable" },
  { sig: [0x49, 0x44, 0x33], name: "an MP3 audio file" },
  { sig: [0x4f, 0x67, 0x67, 0x53], name: "an Ogg media file" },
];

function describeBinary(bytes: Uint8Array): string {
  for (const s of BINARY_SIGNATURES) if (startsWith(bytes, s.sig, s.offset ?? 0)) return s.name;
  return "binary data (application/octet-stream)";
}
