/** A page of extracted text. Markdown and plain text are one "page" per file. */
export interface IExtractedPage {
  pageNumber: number;
  text: string;
}

export interface IExtractedDocument {
  mimeType: string;
  pages: IExtractedPage[];
  /** Title found in the document (first heading, PDF metadata), if any. */
  title?: string;
}

/** A chunk ready to embed: text plus where it came from. */
export interface IChunkDraft {
  chunkIndex: number;
  content: string;
  tokens: number;
  /** Pages of a paged source (PDF); null for Markdown, text, HTML and DOCX, which have none. */
  pageStart: number | null;
  pageEnd: number | null;
  /** Heading trail, e.g. "8.2 The Light-Dependent Reactions of Photosynthesis". */
  sectionPath: string;
  /** Offsets into the concatenated extracted text (pages joined with "\n\n"), end-exclusive. */
  charStart: number;
  charEnd: number;
  /** The chunk's dominant zone (zones.ts). */
  zone?: EZone;
  /** Runs of the chunk's text by zone, offsets into `content`. */
  zoneSpans?: TZoneSpan[];
}

export interface IEmbedder {
  /** Stored with every chunk; a query must be embedded by the same model as the index. */
  readonly modelId: string;
  readonly dimensions: number;
  embedDocuments(texts: string[]): Promise<Float32Array[]>;
  embedQuery(text: string): Promise<Float32Array>;
}

/**
 * What a stretch of a textbook is (lib/ingestion/zones.ts): the lesson itself (exposition, a
 * definition, a worked example) or material around it (an activity, a video or simulation, a
 * caption or credit, a feature box, the book's own questions, a summary, a glossary).
 */
export const ZONES = [
  "exposition",
  "definition",
  "worked_example",
  "activity",
  "media",
  "caption",
  "feature_box",
  "book_question",
  "summary",
  "glossary",
] as const;
export type EZone = (typeof ZONES)[number];

/** A run of a chunk's text with one zone: [start, end) offsets into the chunk's content. */
export type TZoneSpan = [start: number, end: number, zone: EZone];
