import "server-only";
import { createHash } from "node:crypto";
import type { IDatabase } from "@/lib/db";
import { runInBackground } from "@/lib/db/background";
import { AppError } from "@/lib/errors";
import { describeError, log } from "@/lib/log";
import { type IObjectStorage, RESOURCES_BUCKET } from "@/lib/storage";
import { safeFileName } from "@/lib/storage/keys";
import { flagInstructionLikeChunks, type IInstructionFlag, MAX_RECORDED_FLAGS } from "@/lib/text/injection";
import { embedPassages, embedsInPool } from "@/lib/workers/embed";
import { runInPool } from "@/lib/workers/pool";
import type { TResourceMetadata } from "@/schema/resources.schema";
import type { IChunkDraft, IEmbedder } from "@/types/chunk.types";
import { splitChapters } from "./chapters";
import { CHAPTER_PAGES_MIME } from "./extract";
import { sniffDocumentType } from "./sniff";
import {
  createStagedVersion,
  createStager,
  deleteIngestionRows,
  publishVersion,
  purgeUnpublishedVersions,
  purgeVersion,
} from "./stage";
import {
  findLiveIngestionByDedupeKey,
  getIngestionRow,
  type IIngestionRow,
  setIngestionStatus,
} from "./store";

export interface IUploadParams {
  userId: string;
  filename: string;
  bytes: Uint8Array;
  declaredMime?: string;
  metadata: TResourceMetadata;
  maxBytes: number;
  /** Server-made content (split chapters) skips sniffing; never set from user input. */
  internal?: { mime: string; ext: string };
  /**
   * Process it here rather than through the queue (the CLI): the ingestion is claimed for this
   * worker id in the same statement that makes it claimable, so no queue worker can take it.
   */
  claimFor?: string;
}

export interface IRegisteredUpload {
  ingestion: IIngestionRow;
  duplicate: boolean;
}

function sha256(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Same bytes + same metadata (+ same owner for private files) ⇒ same key ⇒ no second copy. */
export function dedupeKey(contentSha: string, m: TResourceMetadata, userId: string): string {
  return sha256(
    JSON.stringify([
      contentSha,
      m.board.toLowerCase(),
      m.grade.toLowerCase(),
      m.subject.toLowerCase(),
      m.resourceType,
      m.chapterNumber ?? null,
      m.chapterName ?? null,
      m.visibility,
      m.visibility === "private" ? userId : null,
    ]),
  );
}

/**
 * Validates the file (size, type from its bytes), records a `queued` ingestion and stores the
 * original; from then on any queue worker may claim it (unless `claimFor`). Identical uploads
 * return the live ingestion with `duplicate: true`.
 */
export async function registerUpload(
  db: IDatabase,
  storage: IObjectStorage,
  p: IUploadParams,
): Promise<IRegisteredUpload> {
  if (p.bytes.byteLength > p.maxBytes) {
    throw new AppError("payload_too_large", `File is over the ${Math.round(p.maxBytes / 1048576)} MB limit`);
  }
  const { mime, ext } = p.internal ?? sniffDocumentType(p.bytes, p.filename, p.declaredMime);
  const contentSha = sha256(p.bytes);
  const key = dedupeKey(contentSha, p.metadata, p.userId);
  const existing = await findLiveIngestionByDedupeKey(db, key);
  if (existing) return { ingestion: existing, duplicate: true };

  const m = p.metadata;
  const title =
    m.title ??
    (m.chapterName ? m.chapterName : p.filename.replace(/\.[^.]+$/, "").slice(0, 200) || "Untitled");
  const filename = p.filename.split(/[\\/]/).pop()?.slice(0, 255) || `document.${ext}`;
  let id: string;
  try {
    const [row] = await db.query<{ id: string }>(
      `insert into ingestions (user_id, board, grade, subject, resource_type, chapter_number, chapter_name,
         visibility, title, original_filename, mime_type, byte_size, content_sha256, dedupe_key, bucket, path)
       values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15, 'pending') returning id`,
      [
        p.userId,
        m.board,
        m.grade,
        m.subject,
        m.resourceType,
        m.chapterNumber ?? null,
        m.chapterName ?? null,
        m.visibility,
        title,
        filename,
        mime,
        p.bytes.byteLength,
        contentSha,
        key,
        RESOURCES_BUCKET,
      ],
    );
    id = row!.id;
  } catch (err) {
    // Two identical uploads raced: the unique index on live dedupe keys let one through.
    const raced = await findLiveIngestionByDedupeKey(db, key);
    if (raced) return { ingestion: raced, duplicate: true };
    throw err;
  }
  const objectPath = `${id}/${safeFileName(filename, ext)}`;
  try {
    await storage.put(RESOURCES_BUCKET, objectPath, p.bytes, mime);
  } catch (err) {
    await setIngestionStatus(db, id, "failed", undefined, "Could not store the original file");
    throw err;
  }
  await db.query(
    `update ingestions set path = $2,
       status = case when $3::text is null then status else 'extracting' end,
       claimed_by = $3::text, attempts = attempts + case when $3::text is null then 0 else 1 end
     where id = $1`,
    [id, objectPath, p.claimFor ?? null],
  );
  return { ingestion: (await getIngestionRow(db, id))!, duplicate: false };
}

export interface IProgressEvent {
  ingestionId: string;
  status: IIngestionRow["status"];
  done: number;
  total: number;
}

export interface IProcessOptions {
  onProgress?: (e: IProgressEvent) => void;
  embedBatchSize?: number;
  /** Chunks per staging transaction (default: adaptive on PGlite, `stageBatchSize` on PostgreSQL). */
  stageBatchSize?: number;
}

const ANALYZE_TARGETS = [
  "document_chunks (document_id, chunk_index)",
  "chunk_terms (lexeme, document_id)",
  "chunk_lite (document_id)",
];

/** A document this large refreshes the statistics itself; smaller ones are counted by batch loads. */
export const ANALYZE_MIN_CHUNKS = 200;

/**
 * Fresh statistics keep the planner on the scope indexes after a large insert: one table per
 * statement, and only the columns retrieval filters and joins on (sampling the 6 KB vectors and
 * the passages held the embedded database 4.2 s after a 25 MB file; these take a fraction).
 */
export async function analyzeChunkTables(db: IDatabase): Promise<void> {
  for (const target of ANALYZE_TARGETS) {
    await db.yieldToForeground();
    await db.query(`analyze ${target}`);
  }
}

/** Progress is written at most this often (a large document has thousands of batches). */
const PROGRESS_EVERY_MS = 250;

/**
 * Texts per embedding call: 96 for OpenAI. The process's offline embedder runs in the worker pool
 * (`embedPassages`): 256 per task. Another offline embedder (a test's) runs in this thread, so
 * while the embedded database is serving requests (`busy`) a call is kept to about 30 ms of CPU.
 */
function embedBatchSize(embedder: IEmbedder, busy: boolean, pooled: boolean): number {
  if (!embedder.modelId.startsWith("paperwise-offline")) return 96;
  return busy && !pooled ? 32 : 256;
}

/** The text the embedder sees: the nearest headings give a passage its topic. */
export function embeddingText(chunk: IChunkDraft): string {
  const trail = chunk.sectionPath.split(" > ").slice(-2).join(" > ");
  return trail ? `${trail}\n\n${chunk.content}` : chunk.content;
}

/**
 * Extract → chunk → embed → store for one claimed ingestion. Chunks are staged in batches as they
 * are embedded (the database writes one batch while the next is embedded) under an unpublished
 * version, which one short final step publishes (`stage.ts`): readers never see a partial
 * document, and a failure (or a killed process) leaves nothing visible; the ingestion is marked
 * `failed` with a readable reason and can be retried.
 */
export function processIngestion(
  db: IDatabase,
  storage: IObjectStorage,
  embedder: IEmbedder,
  ingestionId: string,
  opts: IProcessOptions = {},
): Promise<IIngestionRow> {
  // Background work: on the embedded database the app's requests go first between its steps.
  return runInBackground(() => processClaimed(db, storage, embedder, ingestionId, opts));
}

async function processClaimed(
  db: IDatabase,
  storage: IObjectStorage,
  embedder: IEmbedder,
  ingestionId: string,
  opts: IProcessOptions,
): Promise<IIngestionRow> {
  const row = await getIngestionRow(db, ingestionId);
  if (!row) throw new AppError("not_found", "No such ingestion");
  const report = async (status: IIngestionRow["status"], done: number, total: number) => {
    await setIngestionStatus(db, ingestionId, status, { done, total });
    opts.onProgress?.({ ingestionId, status, done, total });
  };
  let versionId: string | null = null;
  // On PostgreSQL one batch is stored while the next is embedded; a failed store surfaces at the
  // next await.
  let storing: Promise<void> = Promise.resolve();
  try {
    // What an earlier, interrupted attempt staged is of no use now.
    await purgeUnpublishedVersions(db, ingestionId);
    // Wall time per stage, logged with the result: where a slow ingestion spent it.
    const ms: Record<string, number> = {};
    let mark = performance.now();
    const lap = (stage: string) => {
      const now = performance.now();
      ms[stage] = Math.round(now - mark);
      mark = now;
    };
    await report("extracting", 0, 1);
    const bytes = await storage.get(row.bucket, row.path);
    // Both CPU-heavy steps run in the worker pool, off the thread that serves requests.
    const extracted = await runInPool("extract", { bytes, mime: row.mime_type });
    lap("extract");
    await report("chunking", 0, 1);
    // Chunks with their zones (exposition, activity, caption…: zones.ts), in the worker pool.
    const chunks = await runInPool("chunk", extracted);
    lap("chunk");
    if (chunks.length === 0) throw new AppError("unprocessable", "The document has no text to index");

    versionId = await createStagedVersion(db, ingestionId, {
      pageCount: extracted.pages.length,
      charCount: extracted.pages.reduce((n, p) => n + p.text.length, 0),
      chunkCount: chunks.length,
      tokenCount: chunks.reduce((n, c) => n + c.tokens, 0),
      embeddingModel: embedder.modelId,
    });
    const stager = createStager(db, versionId, embedder.modelId, opts.stageBatchSize);
    const flags: IInstructionFlag[] = [];
    await report("embedding", 0, chunks.length);
    let reported = performance.now();
    // The offline embedder's batches run in the worker pool: while one is embedded there, the
    // previous one is stored here, on PGlite too.
    const pooled = embedsInPool(embedder);
    for (let i = 0; i < chunks.length; ) {
      // While requests are about they go first; an offline model in this thread keeps each call short.
      const busy = await db.yieldToForeground();
      const slice = chunks.slice(i, i + (opts.embedBatchSize ?? embedBatchSize(embedder, busy, pooled)));
      i += slice.length;
      const vectors = await embedPassages(embedder, slice.map(embeddingText));
      flags.push(...flagInstructionLikeChunks(slice));
      await storing;
      storing = stager.stage(slice, vectors);
      storing.catch(() => undefined);
      // PGlite writes in this thread: with the embedder in this thread too, nothing overlaps.
      if (db.kind === "pglite" && !pooled) await storing;
      if (i === chunks.length || performance.now() - reported >= PROGRESS_EVERY_MS) {
        await report("embedding", i, chunks.length);
        reported = performance.now();
      }
    }
    await storing;

    flags.splice(MAX_RECORDED_FLAGS);
    if (flags.length > 0) {
      log.warn("ingestion.instruction_like", { ingestionId, chunks: flags.map((f) => f.chunkIndex) });
    }
    lap("embedAndStage");
    await report("storing", chunks.length, chunks.length);
    await publishVersion(db, ingestionId, versionId, {
      extractedTitle: extracted.title ?? null,
      instructionLike: flags,
    });
    versionId = null;
    lap("publish");
    if (chunks.length >= ANALYZE_MIN_CHUNKS) await analyzeChunkTables(db);
    // A re-ingest retired the previous version: remove it now, in batches.
    await purgeUnpublishedVersions(db, ingestionId);
    lap("analyzeAndPurge");
    log.info("ingestion.ready", { ingestionId, chunks: chunks.length, ms });
    opts.onProgress?.({ ingestionId, status: "ready", done: chunks.length, total: chunks.length });
  } catch (err) {
    const reason = err instanceof AppError ? err.message : "Ingestion failed because of an internal error";
    if (!(err instanceof AppError)) log.error("ingestion.failed", { ingestionId, error: describeError(err) });
    await setIngestionStatus(db, ingestionId, "failed", undefined, reason).catch(() => undefined);
    if (versionId) {
      await storing.catch(() => undefined);
      await purgeVersion(db, versionId).catch((cleanup: unknown) =>
        // Left for the next sweep (a worker's start), still unpublished and so invisible.
        log.warn("ingestion.cleanup_failed", { ingestionId, error: describeError(cleanup) }),
      );
    }
    opts.onProgress?.({ ingestionId, status: "failed", done: 0, total: 0 });
  }
  return (await getIngestionRow(db, ingestionId))!;
}

/** Removes a resource: its document versions (in batches), the ingestion, then the original. */
export async function deleteIngestion(
  db: IDatabase,
  storage: IObjectStorage,
  row: IIngestionRow,
): Promise<void> {
  await deleteIngestionRows(db, row.id);
  if (row.path && row.path !== "pending") {
    await storage
      .remove(row.bucket, row.path)
      .catch((err) => log.warn("storage.remove_failed", { error: describeError(err) }));
  }
}

/**
 * "Detect chapters from headings": extracts the book once, splits it at its chapter headings and
 * registers one resource per chapter (pages kept), each with its chapter number and name. A book
 * without detectable chapters is registered as one resource.
 */
export async function registerSplitUpload(
  db: IDatabase,
  storage: IObjectStorage,
  p: IUploadParams,
): Promise<IRegisteredUpload[]> {
  if (p.bytes.byteLength > p.maxBytes) {
    throw new AppError("payload_too_large", `File is over the ${Math.round(p.maxBytes / 1048576)} MB limit`);
  }
  const { mime } = sniffDocumentType(p.bytes, p.filename, p.declaredMime);
  const chapters = splitChapters(await runInPool("extract", { bytes: p.bytes, mime }));
  if (chapters.length <= 1) return [await registerUpload(db, storage, p)];
  const stem = p.filename.replace(/\.[^.]+$/, "");
  const out: IRegisteredUpload[] = [];
  for (const [i, ch] of chapters.entries()) {
    const bytes = new TextEncoder().encode(JSON.stringify(ch.doc));
    out.push(
      await registerUpload(db, storage, {
        ...p,
        bytes,
        filename: `${stem} - ${ch.chapterNumber !== undefined ? `ch${ch.chapterNumber}` : `part${i + 1}`}.json`,
        internal: { mime: CHAPTER_PAGES_MIME, ext: "json" },
        metadata: {
          ...p.metadata,
          chapterNumber: ch.chapterNumber ?? p.metadata.chapterNumber,
          chapterName: ch.chapterName.slice(0, 200),
          title: `${p.metadata.title ?? stem} — ${ch.chapterName}`.slice(0, 200),
        },
      }),
    );
  }
  return out;
}
