import "server-only";
import type { ISqlExecutor } from "@/lib/db";
import { toVectorLiteral } from "@/lib/db/types";
import type { EZone, TZoneSpan } from "@/types/chunk.types";
import type { EResourceType } from "@/types/curriculum.types";

export interface IHybridSearchParams {
  userId: string;
  board: string;
  grade: string;
  subject: string;
  resourceTypes: EResourceType[] | null;
  chapterNumber: number | null;
  chapterName: string | null;
  /** The resource subset: only these documents (null = every document of the subject). */
  documentIds?: readonly string[] | null;
  query: string;
  embedding: Float32Array | null;
  embeddingModel: string;
  alpha: number;
  limit: number;
  bm25?: { k1: number; b: number; headingWeight: number };
}

export interface IHybridRow {
  document_id: string;
  chunk_index: number;
  vector_score: number | null;
  keyword_score: number | null;
  fused_score: number;
  content: string;
  tokens: number;
  page_start: number | null;
  page_end: number | null;
  section_path: string;
  title: string;
  bucket: string;
  path: string;
  resource_type: EResourceType;
  chapter_number: number | null;
  chapter_name: string | null;
  scope_chunks: number;
  vector_ms: number;
  keyword_ms: number;
}

/** Default BM25 parameters (tuned on the open eval set, see README "Retrieval quality"). */
export const DEFAULT_BM25 = { k1: 1.2, b: 0.75, headingWeight: 2 };

/**
 * The function matches `chapter_name ilike p_chapter_name`, meant as a case-insensitive exact match:
 * LIKE's wildcards in a requested name are escaped so "%" names no chapter instead of all of them.
 */
export function exactIlike(value: string | null): string | null {
  return value === null ? null : value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** One call to `paperwise_hybrid_search` (a SQL function, so Supabase clients can RPC it too). */
export function hybridSearch(db: ISqlExecutor, p: IHybridSearchParams): Promise<IHybridRow[]> {
  const bm25 = p.bm25 ?? DEFAULT_BM25;
  return db.query<IHybridRow>(
    `select * from paperwise_hybrid_search($1, $2, $3, $4, $5::text[], $6, $7, $8, $9::vector, $10, $11, $12, $13, $14, $15, $16::uuid[])`,
    [
      p.userId,
      p.board,
      p.grade,
      p.subject,
      p.resourceTypes,
      p.chapterNumber,
      exactIlike(p.chapterName),
      p.query,
      p.embedding ? toVectorLiteral(p.embedding) : null,
      p.embeddingModel,
      p.alpha,
      p.limit,
      bm25.k1,
      bm25.b,
      bm25.headingWeight,
      p.documentIds?.length ? [...p.documentIds] : null,
    ],
  );
}

export interface INeighbourRow {
  document_id: string;
  chunk_index: number;
  content: string;
  tokens: number;
  page_start: number | null;
  page_end: number | null;
  section_path: string;
}

/** Chunks within `window` of the given ones, in the same document and section. */
export function fetchNeighbours(
  db: ISqlExecutor,
  anchors: { documentId: string; chunkIndex: number; sectionPath: string }[],
  window: number,
): Promise<(INeighbourRow & { anchor_index: number })[]> {
  if (anchors.length === 0 || window <= 0) return Promise.resolve([]);
  return db.query(
    `select c.document_id, c.chunk_index, c.content, c.tokens, c.page_start, c.page_end, c.section_path,
            a.ord - 1 as anchor_index
     from unnest($1::uuid[], $2::int[], $3::text[]) with ordinality as a(d, i, s, ord)
     join document_chunks c on c.document_id = a.d and c.section_path = a.s
       and c.chunk_index between a.i - $4 and a.i + $4 and c.chunk_index <> a.i`,
    [
      anchors.map((a) => a.documentId),
      anchors.map((a) => a.chunkIndex),
      anchors.map((a) => a.sectionPath),
      window,
    ],
  );
}

export interface IScopeChapter {
  number: number;
  name: string;
}

/** Chapters in a scope (for the classifier's chapter detection and the facets). */
export async function scopeChapters(
  db: ISqlExecutor,
  userId: string,
  scope: { board: string; grade: string; subject: string; documentIds?: readonly string[] | undefined },
): Promise<IScopeChapter[]> {
  const rows = await db.query<{ number: number; name: string }>(
    `select distinct chapter_number as number, chapter_name as name from documents
     where board = $1 and grade = $2 and subject = $3 and (visibility = 'shared' or owner_id = $4)
       and chapter_number is not null and chapter_name is not null
       and ($5::uuid[] is null or id = any ($5::uuid[]))
     order by 1`,
    [
      scope.board,
      scope.grade,
      scope.subject,
      userId,
      scope.documentIds?.length ? [...scope.documentIds] : null,
    ],
  );
  return rows;
}

export interface IStoredZoneRow {
  document_id: string;
  chunk_index: number;
  zone: EZone | null;
  zone_spans: TZoneSpan[] | null;
}

/** The zones stored at ingestion for these chunks (parallel arrays of document ids and chunk indexes). */
export function storedZones(
  db: ISqlExecutor,
  documentIds: readonly string[],
  chunkIndexes: readonly number[],
): Promise<IStoredZoneRow[]> {
  return db.query<IStoredZoneRow>(
    `select c.document_id, c.chunk_index, c.zone, c.zone_spans
     from unnest($1::uuid[], $2::int[]) as k(d, i)
     join document_chunks c on c.document_id = k.d and c.chunk_index = k.i`,
    [documentIds, chunkIndexes],
  );
}

/** A document's section paths in chunk order (for "the next section"). */
export async function sectionPathsInOrder(db: ISqlExecutor, documentId: string): Promise<string[]> {
  const rows = await db.query<{ section_path: string }>(
    "select section_path from document_chunks where document_id = $1 order by chunk_index",
    [documentId],
  );
  return rows.map((r) => r.section_path);
}

export interface IFacetRow {
  board: string;
  grade: string;
  subject: string;
  resource_type: EResourceType;
  chapter_number: number | null;
  chapter_name: string | null;
  chunks: number;
}

/** Passages per board, grade, subject, resource type and chapter the user can search. */
export function facetRows(db: ISqlExecutor, userId: string): Promise<IFacetRow[]> {
  return db.query<IFacetRow>(
    `select board, grade, subject, resource_type, chapter_number, chapter_name, sum(chunk_count)::int as chunks
     from documents where visibility = 'shared' or owner_id = $1
     group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 5 nulls last, 6`,
    [userId],
  );
}

export interface IVisibleResourceRow {
  id: string;
  board: string;
  grade: string;
  subject: string;
  title: string;
  resource_type: EResourceType;
  chapter_number: number | null;
  chapter_name: string | null;
}

/** Every document the user can search (shared or their own). */
export function visibleResources(db: ISqlExecutor, userId: string): Promise<IVisibleResourceRow[]> {
  return db.query<IVisibleResourceRow>(
    `select id, board, grade, subject, title, resource_type, chapter_number, chapter_name
     from documents where visibility = 'shared' or owner_id = $1`,
    [userId],
  );
}

export interface IScopeWordRow {
  /** Null on the one row that only carries the scope's passage counts. */
  word: string | null;
  df: number;
  passages: number;
  /** The same count over the background: the visible documents of other subjects and classes. */
  bg_df: number;
  bg_passages: number;
}

/**
 * Per query word: the passages of the scope whose full-text index holds its lexeme, and the same
 * over the background (every visible document outside the scope's board, grade and subject: other
 * subjects, and the same subject's other classes). The chapter filter is not applied.
 */
export function scopeWordCounts(
  db: ISqlExecutor,
  userId: string,
  scope: { board: string; grade: string; subject: string; resourceTypes: string[] | null },
  words: readonly string[],
): Promise<IScopeWordRow[]> {
  return db.query<IScopeWordRow>(
    `with visible as (
       select d.id, d.chunk_count,
              (d.board = $1 and d.grade = $2 and d.subject = $3
                and ($5::text[] is null or d.resource_type = any ($5::text[]))) as in_scope,
              (d.board = $1 and d.grade = $2 and d.subject = $3) as same_class
       from documents d
       where d.visibility = 'shared' or d.owner_id = $4
     ),
     scope as (select id, chunk_count from visible where in_scope),
     background as (select id, chunk_count from visible where not same_class),
     lex as (
       select w.word, (select u.lexeme from unnest(to_tsvector('english', w.word)) u limit 1) as lexeme
       from unnest($6::text[]) as w(word)
     )
     select lex.word,
            (select count(*) from chunk_terms t
              where t.lexeme = lex.lexeme and t.document_id in (select id from scope))::int as df,
            (select coalesce(sum(chunk_count), 0) from scope)::int as passages,
            (select count(*) from chunk_terms t
              where t.lexeme = lex.lexeme and t.document_id in (select id from background))::int as bg_df,
            (select coalesce(sum(chunk_count), 0) from background)::int as bg_passages
     from lex where lex.lexeme is not null
     union all
     select null, 0, (select coalesce(sum(chunk_count), 0) from scope)::int, 0,
            (select coalesce(sum(chunk_count), 0) from background)::int`,
    [scope.board, scope.grade, scope.subject, userId, scope.resourceTypes, words],
  );
}

/**
 * The text of every passage of the scope and of its background (the other visible documents of
 * another board, class or subject), for the scope's phrase index (scope-vocabulary.ts
 * `scopePhraseIndex`, built once per scope and cached).
 */
export function scopeAndBackgroundTexts(
  db: ISqlExecutor,
  userId: string,
  scope: { board: string; grade: string; subject: string; resourceTypes: string[] | null },
): Promise<{ content: string; in_scope: boolean }[]> {
  return db.query<{ content: string; in_scope: boolean }>(
    `with visible as (
       select d.id,
              (d.board = $1 and d.grade = $2 and d.subject = $3
                and ($5::text[] is null or d.resource_type = any ($5::text[]))) as in_scope,
              (d.board = $1 and d.grade = $2 and d.subject = $3) as same_class
       from documents d
       where d.visibility = 'shared' or d.owner_id = $4
     )
     select c.content, v.in_scope
     from document_chunks c join visible v on v.id = c.document_id
     where v.in_scope or not v.same_class`,
    [scope.board, scope.grade, scope.subject, userId, scope.resourceTypes],
  );
}

/**
 * Every index term of the scope with the number of its passages holding it (the BM25 postings,
 * `chunk_terms`): the scope's whole vocabulary, for its WordNet meaning profile (scope-vocabulary.ts
 * caches the result per scope).
 */
export function scopeTermCounts(
  db: ISqlExecutor,
  userId: string,
  scope: { board: string; grade: string; subject: string; resourceTypes: string[] | null },
): Promise<{ lexeme: string; df: number }[]> {
  return db.query<{ lexeme: string; df: number }>(
    `select t.lexeme, count(*)::int as df
     from chunk_terms t
     where t.document_id in (
       select d.id from documents d
       where (d.visibility = 'shared' or d.owner_id = $4)
         and d.board = $1 and d.grade = $2 and d.subject = $3
         and ($5::text[] is null or d.resource_type = any ($5::text[])))
     group by t.lexeme`,
    [scope.board, scope.grade, scope.subject, userId, scope.resourceTypes],
  );
}

export interface IRetrievalLogRow {
  userId: string;
  queryType: string;
  queryChars: number;
  topK: number;
  alpha: number;
  reranker: string;
  confidence: number;
  retried: boolean;
  resultCount: number;
  topFused: number | null;
  topRerank: number | null;
  /** JSON text. */
  timings: string;
  /** JSON text. */
  plan: string;
}

/** One row of `retrieval_logs` (shapes and timings only; never the query text). */
export async function insertRetrievalLog(db: ISqlExecutor, r: IRetrievalLogRow): Promise<void> {
  await db.query(
    `insert into retrieval_logs (user_id, query_type, query_chars, top_k, alpha, reranker, confidence, retried,
       enhanced, result_count, top_fused, top_rerank, timings, plan)
     values ($1,$2,$3,$4,$5,$6,$7,$8,false,$9,$10,$11,$12,$13)`,
    [
      r.userId,
      r.queryType,
      r.queryChars,
      r.topK,
      r.alpha,
      r.reranker,
      r.confidence,
      r.retried,
      r.resultCount,
      r.topFused,
      r.topRerank,
      r.timings,
      r.plan,
    ],
  );
}
