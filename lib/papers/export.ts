import "server-only";
import { AppError } from "@/lib/errors";
import { type EExportFormat, type EExportPart, EXPORT_CONTENT_TYPES, type IPaper } from "@/types/paper.types";
import { answerKeyToDocx, paperToDocx } from "./export-docx";
import { paperToGift, paperToQti } from "./export-lms";
import { answerKeyToMarkdown, paperToMarkdown } from "./export-markdown";
import { answerKeyToPdf, paperToPdf } from "./export-pdf";

export interface IExportFile {
  body: Uint8Array | string;
  contentType: string;
  filename: string;
}

const EXTENSIONS: Record<EExportFormat, string> = {
  pdf: ".pdf",
  docx: ".docx",
  md: ".md",
  gift: ".gift.txt",
  qti: ".qti.xml",
};

/** An ASCII slug of a title, safe in a Content-Disposition filename ("paper" when nothing is left). */
export function slugify(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return slug || "paper";
}

/** The body of an export; GIFT and QTI exist only for the paper. */
async function render(paper: IPaper, format: EExportFormat, part: EExportPart): Promise<Uint8Array | string> {
  const key = part === "answer-key";
  switch (format) {
    case "pdf":
      return key ? answerKeyToPdf(paper) : paperToPdf(paper);
    case "docx":
      return key ? answerKeyToDocx(paper) : paperToDocx(paper);
    case "md":
      return key ? answerKeyToMarkdown(paper) : paperToMarkdown(paper);
    case "gift":
    case "qti":
      if (key)
        throw new AppError(
          "bad_request",
          `The answer key cannot be exported as ${format.toUpperCase()}; use pdf, docx or md`,
        );
      return format === "gift" ? paperToGift(paper) : paperToQti(paper);
  }
}

/** Exports a paper or its answer key in a format, with its content type and download filename. */
export async function exportPaper(
  paper: IPaper,
  format: EExportFormat,
  part: EExportPart,
): Promise<IExportFile> {
  const body = await render(paper, format, part);
  const filename = `${slugify(paper.title)}${part === "answer-key" ? "-answer-key" : ""}${EXTENSIONS[format]}`;
  return { body, contentType: EXPORT_CONTENT_TYPES[format], filename };
}
