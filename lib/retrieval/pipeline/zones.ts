import "server-only";
import { zonePassage } from "@/lib/ingestion/zones";
import { storedZones } from "../store";
import { duplicateKey, zoneFactor, zoneIntent } from "../zones";
import { type ICandidate, type IRetrievalRun, keyOf } from "./types";

/**
 * Stage 3b, zones: each candidate gets its zone (stored at ingestion; a chunk stored before zones
 * is read with the same classifier), then the lesson's zones are favoured over activities, media,
 * captions and the book's own questions unless the query asks for those, and the same text held by
 * two documents is kept once (the better-ranked copy).
 */
export async function attachZones(run: IRetrievalRun, candidates: ICandidate[]): Promise<ICandidate[]> {
  if (candidates.length === 0) return candidates;
  const rows = await storedZones(
    run.deps.db,
    candidates.map((c) => c.row.document_id),
    candidates.map((c) => c.row.chunk_index),
  );
  const stored = new Map(rows.map((r) => [keyOf(r.document_id, r.chunk_index), r]));
  return candidates.map((c) => {
    const r = stored.get(keyOf(c.row.document_id, c.row.chunk_index));
    if (r?.zone && Array.isArray(r.zone_spans)) return { ...c, zone: r.zone, zoneSpans: r.zone_spans };
    const computed = zonePassage(c.row.content, c.row.section_path);
    return { ...c, zone: r?.zone ?? computed.zone, zoneSpans: computed.spans };
  });
}

/**
 * Scores scaled by zone (the reranked head and the fused tail each re-sorted, so the head stays
 * ahead of the tail), duplicates of earlier text dropped.
 */
export function favourZones(run: IRetrievalRun, candidates: ICandidate[]): ICandidate[] {
  const seen = new Set<string>();
  const unique = candidates.filter((c) => {
    const key = duplicateKey(c.row.content);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (!run.settings.zones) return unique;
  const intent = zoneIntent(run.req.query);
  const scaled = unique.map((c) => {
    const f = zoneFactor(c.zone, intent);
    if (f === 1) return c;
    return { ...c, fused: c.fused * f, ...(c.rerank !== undefined ? { rerank: c.rerank * f } : {}) };
  });
  const head = scaled
    .filter((c) => c.rerank !== undefined)
    .sort((a, b) => b.rerank! - a.rerank! || b.fused - a.fused);
  const tail = scaled.filter((c) => c.rerank === undefined).sort((a, b) => b.fused - a.fused);
  return [...head, ...tail];
}
