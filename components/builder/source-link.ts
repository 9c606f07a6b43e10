/**
 * Where "View source" goes for a cited passage. PDFs carry pages: the original file opens at the
 * page (`#page=N`, the browser's viewer). Text sources (Markdown, text, DOCX) have no pages: the
 * source view opens scrolled to the cited chunk and highlights it.
 */
export function sourceHref(ref: {
  documentId: string;
  chunkIndex: number;
  pageStart?: number | null;
}): string {
  if (ref.pageStart) return `/api/sources/${ref.documentId}#page=${ref.pageStart}`;
  return `/sources/${ref.documentId}?chunk=${ref.chunkIndex}`;
}
