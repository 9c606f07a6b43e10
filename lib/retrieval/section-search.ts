import "server-only";
import type { ISqlExecutor } from "@/lib/db";
import type { TRetrievalQueryRequest } from "@/schema/retrieval.schema";
import type { ISectionRankVote } from "./pipeline/focus";
import {
  type IRankedSection,
  type ISectionLength,
  type ISectionRankOptions,
  type ISectionTermHit,
  rankSections,
  sectionRankShares,
} from "./pipeline/section-rank";
import { bookSectionOf, type IRetrievalRun } from "./pipeline/types";
import { DEFAULT_BM25, exactIlike } from "./store";

/**
 * Section-level retrieval for pasted exam questions: the scope's BM25 postings (`chunk_terms`) of
 * the question's lexemes summed per stored section path, ranked as whole sections by
 * section-rank.ts. No table of its own: the postings already hold every passage's term counts, and
 * the sections' lengths are read once per scope and cached (keyed with the scope's passage count,
 * so an upload rebuilds them). Plain SQL, the same on PGlite and PostgreSQL.
 */

type TFilters = TRetrievalQueryRequest["filters"];

interface IScopeParams {
  userId: string;
  filters: TFilters;
}

function scopeArgs({ userId, filters }: IScopeParams): unknown[] {
  const rt = filters.resourceType;
  const resourceTypes = rt ? (Array.isArray(rt) ? [...new Set(rt)] : [rt]) : null;
  return [
    filters.board,
    filters.grade,
    filters.subject,
    userId,
    resourceTypes,
    filters.chapterNumber ?? null,
    exactIlike(filters.chapterName ?? null),
    filters.documentIds?.length ? [...filters.documentIds] : null,
  ];
}

/** The scope's documents ($1–$8), as the hybrid search filters them. */
const SCOPE_SQL = `select d.id, d.chapter_number from documents d
  where d.board = $1 and d.grade = $2 and d.subject = $3
    and (d.visibility = 'shared' or d.owner_id = $4)
    and ($5::text[] is null or d.resource_type = any ($5::text[]))
    and ($6::int is null or d.chapter_number = $6::int)
    and ($7::text is null or d.chapter_name ilike $7::text)
    and ($8::uuid[] is null or d.id = any ($8::uuid[]))`;

/** Every stored section path of the scope with its passages' tokens. */
export async function scopeSectionLengths(db: ISqlExecutor, scope: IScopeParams): Promise<ISectionLength[]> {
  const rows = await db.query<{
    document_id: string;
    section_path: string;
    chapter_number: number | null;
    length: number;
  }>(
    `with scope as (${SCOPE_SQL})
     select c.document_id, c.section_path, s.chapter_number, sum(c.tokens)::int as length
     from document_chunks c join scope s on s.id = c.document_id
     group by c.document_id, c.section_path, s.chapter_number
     order by c.document_id, min(c.chunk_index)`,
    scopeArgs(scope),
  );
  return rows.map((r) => ({
    documentId: r.document_id,
    sectionPath: r.section_path,
    chapterNumber: r.chapter_number,
    length: Number(r.length),
  }));
}

/**
 * The postings of the stem's and the options' lexemes (from `to_tsvector`, never parsed as query
 * syntax) summed per stored section path of the scope.
 */
export async function sectionTermHits(
  db: ISqlExecutor,
  scope: IScopeParams,
  stem: string,
  options: string,
  headingWeight: number,
): Promise<ISectionTermHit[]> {
  const rows = await db.query<{
    document_id: string;
    section_path: string;
    lexeme: string;
    tf: number;
    option: boolean;
  }>(
    `with scope as (${SCOPE_SQL}),
     lex as (
       select x.lexeme, min(x.src) = 1 as option
       from (select u.lexeme, 0 as src from unnest(to_tsvector('english', left($9, 4000))) u
             union all
             select u.lexeme, 1 as src from unnest(to_tsvector('english', left($10, 4000))) u) x
       group by x.lexeme
     )
     select t.document_id, c.section_path, t.lexeme, lex.option,
            sum(t.tf_body + $11::float8 * t.tf_head)::float8 as tf
     from chunk_terms t
     join lex on lex.lexeme = t.lexeme
     join document_chunks c on c.document_id = t.document_id and c.chunk_index = t.chunk_index
     where t.document_id in (select id from scope)
     group by t.document_id, c.section_path, t.lexeme, lex.option`,
    [...scopeArgs(scope), stem, options, headingWeight],
  );
  return rows.map((r) => ({
    documentId: r.document_id,
    sectionPath: r.section_path,
    lexeme: r.lexeme,
    tf: Number(r.tf),
    option: r.option,
  }));
}

const lengthsCache = new Map<string, Promise<ISectionLength[]>>();
const MAX_SCOPES = 32;

/** The scope's section lengths, read once per scope and passage count. */
function cachedLengths(db: ISqlExecutor, scope: IScopeParams, passages: number): Promise<ISectionLength[]> {
  const key = JSON.stringify([scope.userId, ...scopeArgs(scope), passages]);
  let p = lengthsCache.get(key);
  if (!p) {
    p = scopeSectionLengths(db, scope);
    // A failed read is not cached: the next query tries again.
    p.catch(() => lengthsCache.delete(key));
    if (lengthsCache.size >= MAX_SCOPES) lengthsCache.delete(lengthsCache.keys().next().value as string);
    lengthsCache.set(key, p);
  }
  return p;
}

/** The scope's book sections ranked by section-level BM25 against the question (best first). */
export async function searchSections(
  db: ISqlExecutor,
  scope: IScopeParams & { passages: number },
  text: { stem: string; options: string },
  opts: ISectionRankOptions & { headingWeight: number },
): Promise<IRankedSection[]> {
  const [lengths, hits] = await Promise.all([
    cachedLengths(db, scope, scope.passages),
    sectionTermHits(db, scope, text.stem, text.options, opts.headingWeight),
  ]);
  return rankSections(hits, lengths, bookSectionOf, opts);
}

/**
 * Stage 6 input for a pasted exam question (focus.ts): the scope's sections ranked by
 * section-level BM25 against the stem (and, weaker, the options), as a chapter vote and a section
 * order. Null when switched off (`examSectionBm25Weight` 0), when the query names a chapter, or on
 * a database error (logged by the caller's fallback: the focus then votes as before).
 */
export async function examSectionRank(
  run: IRetrievalRun,
  question: { stem: string; options: readonly string[] },
  passages: number,
): Promise<ISectionRankVote | null> {
  const tuning = run.settings.plan;
  const on =
    tuning.examSectionBm25Weight > 0 || tuning.examSectionBm25Fill > 0 || tuning.examSectionBm25Lead > 0;
  if (!on || run.understanding.chapterNumber !== null) return null;
  const bm25 = run.settings.bm25 ?? DEFAULT_BM25;
  const ranked = await searchSections(
    run.deps.db,
    { userId: run.userId, filters: run.req.filters, passages },
    { stem: question.stem, options: question.options.join(" ") },
    {
      k1: bm25.k1,
      b: bm25.b,
      headingWeight: bm25.headingWeight,
      optionWeight: tuning.examSectionBm25OptionWeight,
    },
  );
  const chapters = new Map<string, number | null>();
  for (const s of ranked.slice(0, tuning.examSectionBm25Depth)) chapters.set(s.documentId, s.chapterNumber);
  return {
    shares: sectionRankShares(ranked, tuning.examSectionBm25Depth),
    weight: tuning.examSectionBm25Weight,
    chapters,
    order: ranked.map((s) => s.key),
    fill: tuning.examSectionBm25Fill > 0,
    lead: tuning.examSectionBm25Lead > 0,
  };
}
