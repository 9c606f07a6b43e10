import "server-only";
import type { IDatabase, ISqlExecutor } from "@/lib/db";
import { runInBackground } from "@/lib/db/background";
import { AppError } from "@/lib/errors";
import type { IChunkDraft } from "@/types/chunk.types";

/**
 * A document is written as a *staged version* in short batches and published in one short step
 * (`document_versions.state`; the `documents` view shows published versions only, so every reader
 * ignores a staged one). Nothing holds the database for the whole document: on the embedded
 * PGlite, which runs one statement at a time for every request, other requests run between
 * batches; and a failure or a killed process leaves only an unpublished version, which is removed
 * in batches too.
 */

/** Processing states: an ingestion in one of them belongs to a worker (or to a dead one). */
export const PROCESSING_STATUSES = ["extracting", "chunking", "embedding", "storing"] as const;

/**
 * Chunks per staging transaction. PGlite runs every request's statements one after another, so
 * while the app is serving requests a batch is the longest a request waits behind ingestion: the
 * size then starts here and adapts to take about PGLITE_BATCH_MS (a chunk costs a few ms in WASM:
 * tsvector, postings, indexes); with no requests about, batches are large. A server database runs
 * statements side by side and prefers fewer, larger COPYs.
 */
export function stageBatchSize(db: Pick<IDatabase, "kind">): number {
  return db.kind === "pglite" ? 16 : 1000;
}

const PGLITE_BATCH_MS = 30;
const PGLITE_MAX_BATCH = 256;

function nextBatchSize(size: number, elapsedMs: number): number {
  const scaled = Math.round((size * PGLITE_BATCH_MS) / Math.max(1, elapsedMs));
  // At most double per step: one fast batch (a short chunk) must not make the next one huge.
  return Math.max(4, Math.min(PGLITE_MAX_BATCH, size * 2, scaled));
}

export interface IVersionFacts {
  pageCount: number;
  charCount: number;
  chunkCount: number;
  tokenCount: number;
  embeddingModel: string;
}

/** Creates the staged version of an ingestion's document (scope copied from the ingestion). */
export async function createStagedVersion(
  db: ISqlExecutor,
  ingestionId: string,
  facts: IVersionFacts,
): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `insert into document_versions (ingestion_id, owner_id, board, grade, subject, resource_type, chapter_number,
       chapter_name, visibility, title, bucket, path, mime_type, page_count, char_count, chunk_count,
       token_count, embedding_model, state)
     select id, user_id, board, grade, subject, resource_type, chapter_number, chapter_name, visibility,
       title, bucket, path, mime_type, $2, $3, $4, $5, $6, 'staging' from ingestions where id = $1
     returning id`,
    [ingestionId, facts.pageCount, facts.charCount, facts.chunkCount, facts.tokenCount, facts.embeddingModel],
  );
  if (!row) throw new AppError("not_found", "The resource was deleted while it was being processed");
  return row.id;
}

const CHUNK_COLUMNS = [
  { name: "document_id", type: "uuid" },
  { name: "chunk_index", type: "int4" },
  { name: "content", type: "text" },
  { name: "tokens", type: "int4" },
  { name: "page_start", type: "int4" },
  { name: "page_end", type: "int4" },
  { name: "section_path", type: "text" },
  { name: "char_start", type: "int4" },
  { name: "char_end", type: "int4" },
  { name: "embedding", type: "vector" },
  { name: "embedding_model", type: "text" },
  { name: "zone", type: "text" },
  { name: "zone_spans", type: "jsonb" },
] as const;

export interface IStager {
  /** Writes the next chunks (consecutive chunk indexes) with their vectors. */
  stage(chunks: readonly IChunkDraft[], vectors: readonly Float32Array[]): Promise<void>;
}

/**
 * Writes a staged version's chunks with their postings and companion vectors in transactions,
 * letting the app's requests go first between them (`yieldToForeground`). A given `batchSize` is
 * used as is; otherwise, on PGlite, batches are short while requests are about (adapting, across
 * calls, to the time a batch takes) and large when none are.
 */
export function createStager(db: IDatabase, versionId: string, modelId: string, batchSize?: number): IStager {
  let busySize = batchSize ?? stageBatchSize(db);
  return {
    async stage(chunks, vectors) {
      for (let i = 0; i < chunks.length; ) {
        const busy = await db.yieldToForeground();
        const adaptive = batchSize === undefined && db.kind === "pglite";
        const size = adaptive && !busy ? PGLITE_MAX_BATCH : busySize;
        const slice = chunks.slice(i, i + size);
        const rows = slice.map((c, j) => [
          versionId,
          c.chunkIndex,
          c.content,
          c.tokens,
          c.pageStart,
          c.pageEnd,
          c.sectionPath,
          c.charStart,
          c.charEnd,
          vectors[i + j]!,
          modelId,
          c.zone ?? null,
          c.zoneSpans ?? null,
        ]);
        const first = slice[0]!.chunkIndex;
        const last = slice[slice.length - 1]!.chunkIndex;
        const started = performance.now();
        await db.transaction(async (tx) => {
          await tx.copyRows("document_chunks", CHUNK_COLUMNS, rows);
          await tx.query("select paperwise_index_chunk_range($1, $2, $3)", [versionId, first, last]);
        });
        i += slice.length;
        if (adaptive && busy) busySize = nextBatchSize(busySize, performance.now() - started);
      }
    },
  };
}

/** Stages chunks in one go (see createStager). */
export function stageChunks(
  db: IDatabase,
  versionId: string,
  chunks: readonly IChunkDraft[],
  vectors: readonly Float32Array[],
  modelId: string,
  batchSize?: number,
): Promise<void> {
  return createStager(db, versionId, modelId, batchSize).stage(chunks, vectors);
}

/**
 * The one short step that makes a staged version the resource's document: the previous version
 * (a re-ingest) is retired and the ingestion marked ready, atomically. Readers see the old
 * document or the new one, never neither, never half.
 */
export async function publishVersion(
  db: IDatabase,
  ingestionId: string,
  versionId: string,
  metadata: unknown,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      "update document_versions set state = 'retired' where ingestion_id = $1 and state = 'published'",
      [ingestionId],
    );
    const published = await tx.query(
      `update document_versions set state = 'published', metadata = $2
       where id = $1 and state = 'staging' returning chunk_count`,
      [versionId, JSON.stringify(metadata)],
    );
    const [row] = published as { chunk_count: number }[];
    if (!row) throw new AppError("conflict", "The staged document was removed before it was published");
    const updated = await tx.query(
      `update ingestions set status = 'ready', progress_done = $2, progress_total = $2, error = null,
         updated_at = now()
       where id = $1 returning id`,
      [ingestionId, row.chunk_count],
    );
    if (updated.length === 0) {
      throw new AppError("not_found", "The resource was deleted while it was being processed");
    }
  });
}

/**
 * Removes an unpublished version in batches of chunks (each a short statement), then its row. A
 * published version is retired first by the caller; this never touches one.
 */
export async function purgeVersion(db: IDatabase, versionId: string, batchSize = stageBatchSize(db) * 4) {
  return runInBackground(() => purgeBatches(db, versionId, batchSize));
}

async function purgeBatches(db: IDatabase, versionId: string, batchSize: number): Promise<void> {
  const [range] = await db.query<{ hi: number | null }>(
    "select max(chunk_index) as hi from document_chunks where document_id = $1",
    [versionId],
  );
  const hi = range?.hi ?? -1;
  for (let lo = 0; lo <= hi; lo += batchSize) {
    await db.transaction(async (tx) => {
      for (const table of ["chunk_terms", "chunk_lite", "document_chunks"]) {
        await tx.query(`delete from ${table} where document_id = $1 and chunk_index between $2 and $3`, [
          versionId,
          lo,
          lo + batchSize - 1,
        ]);
      }
    });
    await db.yieldToForeground();
  }
  await db.query("delete from document_versions where id = $1 and state <> 'published'", [versionId]);
}

/**
 * Unpublished versions nobody will publish: retired ones, and staged ones whose ingestion no worker
 * is processing (it failed, was requeued after a crash, or was published from another version).
 * `ingestionId` limits the sweep to one ingestion (its worker, before and after processing it).
 */
export async function purgeUnpublishedVersions(db: IDatabase, ingestionId?: string): Promise<number> {
  const garbage = await db.query<{ id: string }>(
    `select v.id from document_versions v join ingestions i on i.id = v.ingestion_id
     where v.state <> 'published'
       and ($1::uuid is null or v.ingestion_id = $1::uuid)
       and (v.state = 'retired' or $1::uuid is not null or not (i.status = any ($2::text[])))
     order by v.created_at`,
    [ingestionId ?? null, PROCESSING_STATUSES],
  );
  for (const { id } of garbage) await purgeVersion(db, id);
  return garbage.length;
}

/**
 * Deletes a resource: its versions are first taken out of sight and emptied in batches, so even a
 * very large document never needs one long statement; the ingestion row goes last.
 */
export async function deleteIngestionRows(db: IDatabase, ingestionId: string): Promise<void> {
  await db.query("update document_versions set state = 'retired' where ingestion_id = $1", [ingestionId]);
  await purgeUnpublishedVersions(db, ingestionId);
  await db.query("delete from ingestions where id = $1", [ingestionId]);
}
