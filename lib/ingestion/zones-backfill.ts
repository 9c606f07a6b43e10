import "server-only";
import type { ISqlExecutor } from "@/lib/db";
import { zonePassage } from "./zones";

/**
 * Stores the zones of chunks stored before zones existed (`zone is null`), batch by batch, reading
 * each chunk's text with its section path as the heading trail. Returns how many it zoned.
 */
export async function backfillZones(
  db: ISqlExecutor,
  batch = 500,
  onBatch?: (done: number) => void,
): Promise<number> {
  let done = 0;
  for (;;) {
    const rows = await db.query<{
      document_id: string;
      chunk_index: number;
      content: string;
      section_path: string;
    }>(
      `select document_id, chunk_index, content, section_path from document_chunks
       where zone is null order by document_id, chunk_index limit $1`,
      [batch],
    );
    if (rows.length === 0) return done;
    const zoned = rows.map((r) => ({ ...r, ...zonePassage(r.content, r.section_path) }));
    await db.query(
      `update document_chunks c set zone = z.zone, zone_spans = z.spans::jsonb
       from unnest($1::uuid[], $2::int[], $3::text[], $4::text[]) as z(d, i, zone, spans)
       where c.document_id = z.d and c.chunk_index = z.i`,
      [
        zoned.map((z) => z.document_id),
        zoned.map((z) => z.chunk_index),
        zoned.map((z) => z.zone),
        zoned.map((z) => JSON.stringify(z.spans)),
      ],
    );
    done += rows.length;
    onBatch?.(done);
  }
}
