import "server-only";
import { createInflateRaw } from "node:zlib";
import mammoth from "mammoth";
import { extractText, getDocumentProxy, getMeta } from "unpdf";
import { AppError } from "@/lib/errors";
import { describeError, log } from "@/lib/log";
import type { IExtractedDocument, IExtractedPage } from "@/types/chunk.types";
import { layoutHeadingLevel } from "./chunk";
import { htmlToMarkdown } from "./html-to-markdown";
import { dehyphenatePdf, normalizeText, stripRunningHeaders } from "./normalize";
import { DOCX_MIME, decodeText, readZipDirectory } from "./sniff";

/**
 * Bytes of a sniffed upload → text per page. Every failure a file can cause is an
 * `unprocessable` AppError with a message a person can act on; library errors stay in the log.
 */

export const MAX_PDF_PAGES = 3000;

type TPdf = Awaited<ReturnType<typeof getDocumentProxy>>;

/**
 * One chapter split out of an uploaded book: its already-extracted pages as JSON, so page numbers
 * survive the split. Only written by the server itself (never accepted from uploads).
 */
export const CHAPTER_PAGES_MIME = "application/vnd.paperwise.pages+json";

export async function extractDocument(bytes: Uint8Array, mime: string): Promise<IExtractedDocument> {
  try {
    switch (mime) {
      case "application/pdf":
        return await extractPdf(bytes);
      case DOCX_MIME:
        return await extractDocx(bytes);
      case "text/markdown":
      case "text/plain":
        return extractPlain(bytes, mime);
      case CHAPTER_PAGES_MIME:
        return JSON.parse(new TextDecoder().decode(bytes)) as IExtractedDocument;
      default:
        throw new AppError("unsupported_media_type", `Cannot extract text from ${mime}`);
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    log.warn("extract.failed", { mime, error: describeError(err) });
    throw new AppError("unprocessable", "The file could not be read", { cause: err });
  }
}

// ---------------------------------------------------------------------------------------------
// PDF

async function extractPdf(bytes: Uint8Array): Promise<IExtractedDocument> {
  let pdf: TPdf;
  try {
    // pdf.js takes ownership of (and empties) the array it is given: hand it a copy.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  } catch (err) {
    throw pdfError(err);
  }
  try {
    if (pdf.numPages > MAX_PDF_PAGES) {
      throw new AppError("unprocessable", `The PDF has ${pdf.numPages} pages; the limit is ${MAX_PDF_PAGES}`);
    }
    const { text } = await extractText(pdf, { mergePages: false });
    const cleaned = stripRunningHeaders(text.map(normalizeText)).map((t) => normalizeText(dehyphenatePdf(t)));
    const pages: IExtractedPage[] = cleaned.map((t, i) => ({ pageNumber: i + 1, text: t }));
    const chars = cleaned.reduce((n, t) => n + t.replace(/\s/g, "").length, 0);
    // A scan carries at most page numbers or a stamp in its text layer.
    if (chars < Math.max(1, pages.length * 5)) {
      throw new AppError(
        "unprocessable",
        "The PDF has no text layer (scanned PDF?). Run OCR on it, or upload the text as DOCX or Markdown",
      );
    }
    const title = (await pdfTitle(pdf)) ?? firstHeadingLike(cleaned);
    return { mimeType: "application/pdf", pages, ...(title ? { title } : {}) };
  } catch (err) {
    throw err instanceof AppError ? err : pdfError(err);
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}

function pdfError(err: unknown): AppError {
  const name = err instanceof Error ? err.name : "";
  if (name === "PasswordException") {
    return new AppError(
      "unprocessable",
      "The PDF is password-protected; remove the password and upload it again",
      {
        cause: err,
      },
    );
  }
  log.warn("extract.pdf_failed", { error: describeError(err) });
  return new AppError("unprocessable", "The PDF is damaged or not a valid PDF and could not be read", {
    cause: err,
  });
}

async function pdfTitle(pdf: TPdf): Promise<string | undefined> {
  try {
    const { info } = await getMeta(pdf);
    const raw: unknown = info.Title;
    if (typeof raw !== "string") return undefined;
    // Word's PDF export titles documents "Microsoft Word - file.docx".
    const title = normalizeText(raw)
      .replace(/^Microsoft Word - /i, "")
      .replace(/\.(docx?|pdf)$/i, "")
      .trim();
    return title && !/^untitled/i.test(title) ? title.slice(0, 300) : undefined;
  } catch {
    return undefined;
  }
}

/** Without metadata, a first line that reads as a heading ("Chapter 3: Motion") names the PDF. */
function firstHeadingLike(pages: readonly string[]): string | undefined {
  const lines = (pages.find((p) => /\S/.test(p)) ?? "").split("\n").filter((l) => l.trim());
  const first = lines[0]?.trim();
  return first && layoutHeadingLevel(first, lines[1] ?? "", "") > 0 ? first.slice(0, 300) : undefined;
}

// ---------------------------------------------------------------------------------------------
// DOCX

/**
 * A part may be large (an embedded image), but a single part of this size is no document: mammoth
 * would hold it as a string and parse it whole.
 */
export const MAX_DOCX_PART_BYTES = 64 * 1024 * 1024;

async function extractDocx(bytes: Uint8Array): Promise<IExtractedDocument> {
  await assertZipInflatesAsDeclared(bytes);
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      {
        styleMap: ["p[style-name='Title'] => h1:fresh"],
        externalFileAccess: false,
        convertImage: mammoth.images.imgElement(async () => ({ src: "" })),
      },
    );
    html = result.value;
  } catch (err) {
    log.warn("extract.docx_failed", { error: describeError(err) });
    throw new AppError("unprocessable", "The DOCX file is damaged and could not be read", { cause: err });
  }
  const text = normalizeText(htmlToMarkdown(html));
  if (!/\S/.test(text)) throw new AppError("unprocessable", "The document has no text");
  return withTitle({ mimeType: DOCX_MIME, pages: [{ pageNumber: 1, text }] });
}

/**
 * The central directory's sizes were checked when the upload was sniffed, but they are only
 * claims, and mammoth follows the package's relationships to any part, whatever its name. So
 * every part is inflated here first, as a stream whose output is counted and dropped, and stopped
 * the moment it passes its declared size (or the per-part cap): a lying archive costs at most
 * what it declared, which the sniffer already bounded, before the ZIP library sees it.
 */
export async function assertZipInflatesAsDeclared(bytes: Uint8Array): Promise<void> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const entry of readZipDirectory(bytes)) {
    const at = entry.localHeaderOffset;
    if (at + 30 > bytes.byteLength || view.getUint32(at, true) !== 0x04034b50) {
      throw new AppError("unprocessable", "The DOCX file is damaged (bad ZIP entry)");
    }
    const dataStart = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
    const data = bytes.subarray(dataStart, dataStart + entry.compressedSize);
    if (data.byteLength !== entry.compressedSize)
      throw new AppError("unprocessable", "The DOCX file is truncated");
    if (entry.uncompressedSize > MAX_DOCX_PART_BYTES) {
      throw new AppError(
        "unprocessable",
        `A part of the DOCX file expands to ${Math.round(entry.uncompressedSize / 1048576)} MB (limit ${MAX_DOCX_PART_BYTES / 1048576} MB)`,
      );
    }
    if (entry.method === 0) {
      if (entry.compressedSize !== entry.uncompressedSize) {
        throw new AppError("unprocessable", "The DOCX file is damaged (bad ZIP entry)");
      }
      continue;
    }
    if (entry.method !== 8)
      throw new AppError("unprocessable", "The DOCX file uses an unsupported compression");
    const size = await inflatedSize(data, entry.uncompressedSize);
    if (size === null || size !== entry.uncompressedSize) {
      throw new AppError("unprocessable", "The DOCX file is damaged or expands beyond its declared size");
    }
  }
}

/**
 * Inflates a raw-deflate stream without keeping its output; null when it is corrupt or would
 * produce more than `cap` bytes (inflation stops there).
 */
function inflatedSize(data: Uint8Array, cap: number): Promise<number | null> {
  return new Promise((resolve) => {
    const inflater = createInflateRaw();
    let size = 0;
    inflater.on("data", (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > cap) {
        inflater.destroy();
        resolve(null);
      }
    });
    inflater.on("end", () => resolve(size));
    inflater.on("error", () => resolve(null));
    inflater.end(data);
  });
}

export { htmlToMarkdown };

// ---------------------------------------------------------------------------------------------
// Markdown and plain text

function extractPlain(bytes: Uint8Array, mime: "text/markdown" | "text/plain"): IExtractedDocument {
  const decoded = decodeText(bytes);
  if (decoded === null) throw new AppError("unprocessable", "The file is not valid UTF-8 or UTF-16 text");
  const text = normalizeText(decoded);
  if (!/\S/.test(text)) throw new AppError("unprocessable", "The document has no text");
  return withTitle({ mimeType: mime, pages: [{ pageNumber: 1, text }] });
}

/** The first `# ` heading names a Markdown-shaped document. */
function withTitle(doc: IExtractedDocument): IExtractedDocument {
  const m = /^ {0,3}# +(.+?)[ #]*$/m.exec(doc.pages[0]?.text.slice(0, 100_000) ?? "");
  return m?.[1] ? { ...doc, title: m[1].trim().slice(0, 300) } : doc;
}
