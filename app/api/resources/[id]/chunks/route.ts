import { z } from "zod";
import { authorize } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { handle, parseQuery } from "@/lib/http/handler";
import { getVisibleIngestion } from "@/lib/ingestion/access";

const QuerySchema = z.strictObject({
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** Chunk preview for the library: text, pages and section of each chunk. */
export const GET = handle<{ params: Promise<{ id: string }> }>(
  "resources.chunks",
  async (request, { params }) => {
    const principal = await authorize(request, { scope: "resources:read" });
    const { offset, limit } = parseQuery(request, QuerySchema);
    const db = await getDb();
    const row = await getVisibleIngestion(db, principal, (await params).id);
    if (!row.document_id) return Response.json({ ok: true, items: [], total: 0 });
    const items = await db.query(
      `select chunk_index as "chunkIndex", content, tokens, page_start as "pageStart", page_end as "pageEnd",
       section_path as "sectionPath"
     from document_chunks where document_id = $1 and chunk_index >= $2 order by chunk_index limit $3`,
      [row.document_id, offset, limit],
    );
    return Response.json({ ok: true, items, total: row.chunk_count ?? 0 });
  },
);
