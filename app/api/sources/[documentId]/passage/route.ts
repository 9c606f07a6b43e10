import { sourcePassageContract } from "@/contracts/resources.contract";
import { getReadDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http/route";
import { getVisibleDocument, listChunkPreviews } from "@/lib/ingestion/store";

/**
 * "View source" for text sources (Markdown, text, DOCX): the cited chunk and its neighbours, so the
 * source view can open scrolled to the passage and highlight it. Visibility as for the file itself.
 */
export const GET = handle(sourcePassageContract, async ({ principal, params, query }) => {
  const db = await getReadDb();
  const doc = await getVisibleDocument(db, principal.userId, params.documentId);
  if (!doc) throw new AppError("not_found", "Source not found");
  const from = Math.max(0, query.chunk - query.around);
  const items = await listChunkPreviews(db, params.documentId, from, query.chunk - from + query.around + 1);
  if (!items.some((c) => c.chunkIndex === query.chunk))
    throw new AppError("not_found", `Chunk ${query.chunk} not found in this source`);
  return { ok: true as const, title: doc.title, mimeType: doc.mime_type, chunkIndex: query.chunk, items };
});
