import "server-only";
import { AppError } from "@/lib/errors";
import { type EExportFormat, type EExportPart, EXPORT_CONTENT_TYPES, type IPaper } from "@/types/paper.types";
import { answerKeyToDocx, paperToDocx } from "./export-docx";
import { paperToGift } from "./export-gift";
import { answerKeyToMarkdown, paperToMarkdown } from "./export-markdown";
import { paperToMoodleXml } from "./export-moodle";
import { answerKeyToPdf, paperToPdf } from "./export-pdf";
import { paperToQti } from "./export-qti";

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
  moodle: ".moodle.xml",
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

/** The body of an export; the LMS formats (GIFT, QTI, Moodle XML) exist only for the paper. */
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
    case "moodle":
      if (key)
        throw new AppError(
          "bad_request",
          `The answer key cannot be exported as ${format === "moodle" ? "Moodle XML" : format.toUpperCase()}; use pdf, docx or md (the LMS formats carry the answers themselves)`,
        );
      return format === "gift"
        ? paperToGift(paper)
        : format === "qti"
          ? paperToQti(paper)
          : paperToMoodleXml(paper);
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
