import { resourceChunksContract } from "@/contracts/resources.contract";
import { getReadDb } from "@/lib/db";
import { handle } from "@/lib/http/route";
import { getVisibleIngestion } from "@/lib/ingestion/access";
import { listChunkPreviews } from "@/lib/ingestion/store";

/** Chunk preview for the library: text, pages and section of each chunk. */
export const GET = handle(resourceChunksContract, async ({ principal, params, query }) => {
  const db = await getReadDb();
  const row = await getVisibleIngestion(db, principal, params.id);
  if (!row.document_id) return { ok: true as const, items: [], total: 0 };
  const items = await listChunkPreviews(db, row.document_id, query.offset, query.limit);
  return { ok: true as const, items, total: row.chunk_count ?? 0 };
});
