import type { z } from "zod";
import type { BLOOM_BANDS, EXPORT_FORMATS, EXPORT_PARTS, PAPER_TEMPLATES } from "@/schema/enums.schema";
import type {
  CheckRowSchema,
  PaperBlueprintOutSchema,
  PaperCheckSchema,
  PaperItemOutSchema,
  PaperProblemSchema,
  PaperQuestionOutSchema,
  PaperSchema,
  PaperSectionOutSchema,
  PaperSummarySchema,
  PyqMatchSchema,
} from "@/schema/paper.schema";
import type { EBloomLevel } from "./bloom.types";

export type EPaperTemplate = (typeof PAPER_TEMPLATES)[number];

export type EExportFormat = (typeof EXPORT_FORMATS)[number];

/** What each export is sent as (the OpenAPI document lists these for the export endpoint). */
export const EXPORT_CONTENT_TYPES: Record<EExportFormat, string> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  md: "text/markdown; charset=utf-8",
  gift: "text/plain; charset=utf-8",
  qti: "application/xml; charset=utf-8",
  moodle: "application/xml; charset=utf-8",
};

export type EExportPart = (typeof EXPORT_PARTS)[number];

/** The three-band cognitive mix used by board blueprints (e.g. CBSE 2024+ papers). */
export type EBloomBand = (typeof BLOOM_BANDS)[number];

export const BLOOM_BAND_OF: Record<EBloomLevel, EBloomBand> = {
  Remember: "Remember+Understand",
  Understand: "Remember+Understand",
  Apply: "Apply",
  Analyze: "Analyze+Evaluate+Create",
  Evaluate: "Analyze+Evaluate+Create",
  Create: "Analyze+Evaluate+Create",
};

// The shapes below are inferred from the response schemas in schema/paper.schema.ts, so the API
// contract, the OpenAPI document and these types cannot drift apart.
export type IPaperCitation = z.infer<typeof PaperQuestionOutSchema>["citations"][number];
export type IPaperQuestion = z.infer<typeof PaperQuestionOutSchema>;
export type IPyqMatch = z.infer<typeof PyqMatchSchema>;
export type IPaperItem = z.infer<typeof PaperItemOutSchema>;
export type IPaperSection = z.infer<typeof PaperSectionOutSchema>;
export type IPaperBlueprint = z.infer<typeof PaperBlueprintOutSchema>;
export type IPaper = z.infer<typeof PaperSchema>;
export type IPaperSummary = z.infer<typeof PaperSummarySchema>;
export type ICheckRow = z.infer<typeof CheckRowSchema>;
export type ECheckStatus = ICheckRow["status"];
export type IPaperProblem = z.infer<typeof PaperProblemSchema>;
export type IPaperCheck = z.infer<typeof PaperCheckSchema>;
