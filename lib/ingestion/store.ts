import "server-only";
import type { ISqlExecutor } from "@/lib/db";
import type { TNarrowRow } from "@/lib/db/rows.generated";
import type { IInstructionFlag } from "@/lib/text/injection";
import type { TIngestion } from "@/schema/resources.schema";
import type { EZone, TZoneSpan } from "@/types/chunk.types";
import type { EIngestionStatus, EResourceType, EVisibility } from "@/types/curriculum.types";
import { zonePassage } from "./zones";

/**
 * Columns of an ingestion joined with its document, shaped for the API. Shared resources are seen
 * by every teacher, so the uploader appears by display name (or role), never by email.
 */
const SELECT_INGESTION = `
  select i.id, i.title, i.original_filename, i.board, i.grade, i.subject, i.resource_type,
         i.chapter_number, i.chapter_name, i.visibility, i.mime_type, i.byte_size, i.status,
         i.progress_done, i.progress_total, i.error, i.bucket, i.path, i.user_id, i.content_sha256,
         d.id as document_id, d.chunk_count, d.page_count, d.embedding_model,
         coalesce(nullif(trim(p.display_name), ''),
           case p.role when 'admin' then 'Curriculum admin' else 'Teacher' end) as uploaded_by,
         d.metadata -> 'instructionLike' as instruction_like, i.created_at, i.updated_at
  from ingestions i
  left join documents d on d.ingestion_id = i.id
  left join profiles p on p.id = i.user_id`;

/**
 * An `ingestions` row (columns from the migrations, enums narrowed) with what the list query
 * joins from its document and uploader.
 */
export type IIngestionRow = TNarrowRow<
  "ingestions",
  {
    resource_type: EResourceType;
    visibility: EVisibility;
    status: EIngestionStatus;
    byte_size: number;
  }
> & {
  document_id: string | null;
  chunk_count: number | null;
  page_count: number | null;
  embedding_model: string | null;
  uploaded_by: string | null;
  instruction_like: IInstructionFlag[] | null;
};

const iso = (v: string | Date): string => (v instanceof Date ? v.toISOString() : new Date(v).toISOString());

export function toIngestion(row: IIngestionRow): TIngestion {
  return {
    id: row.id,
    title: row.title,
    originalFilename: row.original_filename,
    board: row.board,
    grade: row.grade,
    subject: row.subject,
    resourceType: row.resource_type,
    chapterNumber: row.chapter_number,
    chapterName: row.chapter_name,
    visibility: row.visibility,
    mimeType: row.mime_type,
    byteSize: row.byte_size,
    status: row.status,
    progressDone: row.progress_done,
    progressTotal: row.progress_total,
    error: row.error,
    documentId: row.document_id,
    chunkCount: row.chunk_count,
    pageCount: row.page_count,
    embeddingModel: row.embedding_model,
    uploadedBy: row.uploaded_by,
    instructionLike: row.instruction_like ?? [],
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export async function getIngestionRow(db: ISqlExecutor, id: string): Promise<IIngestionRow | null> {
  const [row] = await db.query<IIngestionRow>(`${SELECT_INGESTION} where i.id = $1`, [id]);
  return row ?? null;
}

export async function findLiveIngestionByDedupeKey(
  db: ISqlExecutor,
  key: string,
): Promise<IIngestionRow | null> {
  const [row] = await db.query<IIngestionRow>(
    `${SELECT_INGESTION} where i.dedupe_key = $1 and i.status <> 'failed'`,
    [key],
  );
  return row ?? null;
}

export interface IListIngestionsParams {
  userId: string;
  board?: string;
  grade?: string;
  subject?: string;
  resourceType?: EResourceType;
  status?: EIngestionStatus;
  q?: string;
  limit: number;
  offset: number;
}

/** Shared resources plus the caller's own private ones. */
export async function listIngestions(
  db: ISqlExecutor,
  p: IListIngestionsParams,
): Promise<{ items: IIngestionRow[]; total: number }> {
  const where: string[] = ["(i.visibility = 'shared' or i.user_id = $1)"];
  const params: unknown[] = [p.userId];
  // Each `?` in a clause stands for the same, newly bound value.
  const add = (clause: string, value: unknown) => {
    params.push(value);
    where.push(clause.replaceAll("?", `$${params.length}`));
  };
  if (p.board) add("i.board = ?", p.board);
  if (p.grade) add("i.grade = ?", p.grade);
  if (p.subject) add("i.subject = ?", p.subject);
  if (p.resourceType) add("i.resource_type = ?", p.resourceType);
  if (p.status) add("i.status = ?", p.status);
  if (p.q) add("(i.title ilike ? or i.original_filename ilike ?)", `%${p.q.replace(/[\\%_]/g, "\\$&")}%`);
  const whereSql = where.join(" and ");
  const [{ total } = { total: 0 }] = await db.query<{ total: number }>(
    `select count(*)::int as total from ingestions i where ${whereSql}`,
    params,
  );
  const items = await db.query<IIngestionRow>(
    `${SELECT_INGESTION} where ${whereSql} order by i.created_at desc, i.id limit ${p.limit} offset ${p.offset}`,
    params,
  );
  return { items, total };
}

export async function setIngestionStatus(
  db: ISqlExecutor,
  id: string,
  status: EIngestionStatus,
  progress?: { done: number; total: number },
  error?: string | null,
): Promise<void> {
  await db.query(
    `update ingestions set status = $2,
       progress_done = coalesce($3, progress_done), progress_total = coalesce($4, progress_total),
       error = $5, updated_at = now()
     where id = $1`,
    [id, status, progress?.done ?? null, progress?.total ?? null, error ?? null],
  );
}

/** Statuses in which an ingestion belongs to a worker (or to a worker that died). */
const PROCESSING = "('extracting', 'chunking', 'embedding', 'storing')";

/**
 * Takes the oldest queued ingestion for `workerId`, or null when none is waiting. `for update skip
 * locked` lets any number of workers (app instances, `npm run worker`) poll one database: each row
 * goes to exactly one of them. A row whose original is still being stored (`path = 'pending'`) is
 * not ready to claim.
 */
export async function claimNextIngestion(db: ISqlExecutor, workerId: string): Promise<string | null> {
  const [row] = await db.query<{ id: string }>(
    `update ingestions set status = 'extracting', claimed_by = $1, attempts = attempts + 1,
       progress_done = 0, progress_total = 0, error = null, updated_at = now()
     where id = (
       select id from ingestions where status = 'queued' and path <> 'pending'
       order by created_at, id limit 1 for update skip locked
     )
     returning id`,
    [workerId],
  );
  return row?.id ?? null;
}

/**
 * Claims one given ingestion that no worker is processing (queued, failed or ready: a re-ingest)
 * for a process that works on it itself (`npm run reembed`). False when a worker has it.
 */
export async function claimIngestion(db: ISqlExecutor, id: string, workerId: string): Promise<boolean> {
  const rows = await db.query(
    `update ingestions set status = 'extracting', claimed_by = $2, attempts = 1, progress_done = 0,
       progress_total = 0, error = null, updated_at = now()
     where id = $1 and status in ('queued', 'failed', 'ready') and path <> 'pending'
     returning id`,
    [id, workerId],
  );
  return rows.length > 0;
}

/** Puts an ingestion (failed or ready) back in the queue for any worker: the library's Retry. */
export async function requeueIngestion(db: ISqlExecutor, id: string): Promise<void> {
  await db.query(
    `update ingestions set status = 'queued', progress_done = 0, progress_total = 0, error = null,
       attempts = 0, claimed_by = null, updated_at = now()
     where id = $1 and status in ('failed', 'ready')`,
    [id],
  );
}

/** How often a worker may die on one ingestion before it is failed instead of queued again. */
export const MAX_INGESTION_ATTEMPTS = 3;

export interface IRecoveredIngestions {
  requeued: number;
  failed: number;
}

/**
 * Ingestions a dead process left behind. Those it was processing go back to the queue (another
 * worker, or this one after a restart, starts them again) until they have been tried
 * MAX_INGESTION_ATTEMPTS times, then fail with a reason; an upload whose original was never stored
 * fails at once. The embedded database has one process, so at its start every unfinished
 * ingestion is dead. A shared Postgres serves several instances, so there only ingestions idle for
 * `staleAfterMs` count (a working ingestion touches `updated_at` at every stage and batch).
 */
export async function recoverInterruptedIngestions(
  db: ISqlExecutor,
  opts: { staleAfterMs?: number } = {},
): Promise<IRecoveredIngestions> {
  const rows = await db.query<{ status: string }>(
    `update ingestions set
       status = case when status = 'queued' or attempts >= $2 then 'failed' else 'queued' end,
       error = case
         when status = 'queued' then 'The upload was interrupted before its file was stored; upload it again'
         when attempts >= $2 then 'Interrupted before it finished, ' || attempts || ' times; retry it'
         else null end,
       claimed_by = null, updated_at = now()
     where (status in ${PROCESSING} or (status = 'queued' and path = 'pending'))
       and ($1::float8 is null or updated_at < now() - make_interval(secs => $1::float8 / 1000))
     returning status`,
    [opts.staleAfterMs ?? null, MAX_INGESTION_ATTEMPTS],
  );
  return {
    requeued: rows.filter((r) => r.status === "queued").length,
    failed: rows.filter((r) => r.status === "failed").length,
  };
}

/** A page of a document's chunks for the library's preview, in order, each with its zones. */
export async function listChunkPreviews(db: ISqlExecutor, documentId: string, offset: number, limit: number) {
  const rows = await db.query<{
    chunkIndex: number;
    content: string;
    tokens: number;
    pageStart: number | null;
    pageEnd: number | null;
    sectionPath: string | null;
    zone: EZone | null;
    zoneSpans: TZoneSpan[] | null;
  }>(
    `select chunk_index as "chunkIndex", content, tokens, page_start as "pageStart", page_end as "pageEnd",
       section_path as "sectionPath", zone, zone_spans as "zoneSpans"
     from document_chunks where document_id = $1 and chunk_index >= $2 order by chunk_index limit $3`,
    [documentId, offset, limit],
  );
  return rows.map((r) => ({ ...r, ...storedOrComputedZones(r) }));
}

/** A chunk's stored zones, or (stored before zones) the same classifier's reading of its text. */
export function storedOrComputedZones(r: {
  content: string;
  sectionPath: string | null;
  zone: EZone | null;
  zoneSpans: TZoneSpan[] | null;
}): { zone: EZone; zoneSpans: TZoneSpan[] } {
  if (r.zone && Array.isArray(r.zoneSpans)) return { zone: r.zone, zoneSpans: r.zoneSpans };
  const computed = zonePassage(r.content, r.sectionPath);
  return { zone: r.zone ?? computed.zone, zoneSpans: computed.spans };
}

/** Where a document's original is stored, if the caller may see it (shared, or their own). */
export async function getVisibleDocument(db: ISqlExecutor, userId: string, documentId: string) {
  const [doc] = await db.query<{ bucket: string; path: string; mime_type: string; title: string }>(
    "select bucket, path, mime_type, title from documents where id = $1 and (visibility = 'shared' or owner_id = $2)",
    [documentId, userId],
  );
  return doc ?? null;
}
