import "server-only";
import type { ISqlExecutor } from "@/lib/db";
import type { TRetrievalQueryRequest } from "@/schema/retrieval.schema";
import type { ISectionRankVote } from "./pipeline/focus";
import { toResourceTypes } from "./pipeline/search";
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
 * section-rank.ts. No table of its own: the postings already hold every passage's term counts. A
 * scope's sections are summed once into an in-memory index (cached, keyed with the scope's passage
 * count, so an upload rebuilds it); a very large scope reads each question's postings instead.
 * Plain SQL, the same on PGlite and PostgreSQL.
 */

type TFilters = TRetrievalQueryRequest["filters"];

interface IScopeParams {
  userId: string;
  filters: TFilters;
}

function scopeArgs({ userId, filters }: IScopeParams): unknown[] {
  return [
    filters.board,
    filters.grade,
    filters.subject,
    userId,
    toResourceTypes(filters.resourceType),
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

/**
 * The scope's section texts as an inverted index: lexeme → its summed term frequency in each
 * book section (`sectionPath` holds the book section key, bookSectionOf). Built with one grouped scan of the scope's postings, then every question
 * needs only its own lexemes (`to_tsvector`, no table read).
 */
export interface ISectionIndex {
  lengths: ISectionLength[];
  postings: Map<string, { documentId: string; sectionPath: string; tf: number }[]>;
}

/** The whole scope's postings summed per stored section path and lexeme. */
export async function scopeSectionIndex(
  db: ISqlExecutor,
  scope: IScopeParams,
  headingWeight: number,
): Promise<ISectionIndex> {
  const [lengths, rows] = await Promise.all([
    scopeSectionLengths(db, scope),
    db.query<{ document_id: string; section_path: string; lexeme: string; tf: number }>(
      `with scope as (${SCOPE_SQL})
       select t.document_id, c.section_path, t.lexeme,
              sum(t.tf_body + $9::float8 * t.tf_head)::float8 as tf
       from chunk_terms t
       join document_chunks c on c.document_id = t.document_id and c.chunk_index = t.chunk_index
       where t.document_id in (select id from scope)
       group by t.document_id, c.section_path, t.lexeme`,
      [...scopeArgs(scope), headingWeight],
    ),
  ]);
  // Folded to book sections once here (sub-section paths summed), so a question only adds up its
  // lexemes' lists: each entry's `sectionPath` is the book section key (bookSectionOf).
  const keyOf = (documentId: string, sectionPath: string) =>
    bookSectionOf({ document_id: documentId, section_path: sectionPath });
  const folded = new Map<string, ISectionLength>();
  for (const l of lengths) {
    const key = keyOf(l.documentId, l.sectionPath);
    const f = folded.get(key);
    if (f) f.length += l.length;
    else folded.set(key, { ...l, sectionPath: key });
  }
  const sums = new Map<string, Map<string, { documentId: string; sectionPath: string; tf: number }>>();
  for (const r of rows) {
    const key = keyOf(r.document_id, r.section_path);
    const bySection = sums.get(r.lexeme) ?? new Map();
    const e = bySection.get(key);
    if (e) e.tf += Number(r.tf);
    else bySection.set(key, { documentId: r.document_id, sectionPath: key, tf: Number(r.tf) });
    sums.set(r.lexeme, bySection);
  }
  const postings: ISectionIndex["postings"] = new Map();
  for (const [lexeme, bySection] of sums) postings.set(lexeme, [...bySection.values()]);
  return { lengths: [...folded.values()], postings };
}

/** The question's lexemes (as the full-text index stems them); `option`: only the options use it. */
export async function questionLexemes(
  db: ISqlExecutor,
  stem: string,
  options: string,
): Promise<{ lexeme: string; option: boolean }[]> {
  return db.query<{ lexeme: string; option: boolean }>(
    `select x.lexeme, min(x.src) = 1 as option
     from (select u.lexeme, 0 as src from unnest(to_tsvector('english', left($1, 4000))) u
           union all
           select u.lexeme, 1 as src from unnest(to_tsvector('english', left($2, 4000))) u) x
     group by x.lexeme`,
    [stem, options],
  );
}

/**
 * Scopes up to this many passages keep their section index in memory (a few MB for a book of
 * 3,000 passages); a larger scope reads the question's postings from the database each time.
 */
export const SECTION_INDEX_MAX_PASSAGES = 30_000;
const indexCache = new Map<string, Promise<ISectionIndex>>();
const MAX_SCOPES = 8;

/** The scope's section index, built once per scope, heading weight and passage count. */
function cachedIndex(
  db: ISqlExecutor,
  scope: IScopeParams,
  passages: number,
  headingWeight: number,
): Promise<ISectionIndex> {
  const key = JSON.stringify([scope.userId, ...scopeArgs(scope), passages, headingWeight]);
  let p = indexCache.get(key);
  if (!p) {
    p = scopeSectionIndex(db, scope, headingWeight);
    // A failed build is not cached: the next query tries again.
    p.catch(() => indexCache.delete(key));
    if (indexCache.size >= MAX_SCOPES) indexCache.delete(indexCache.keys().next().value as string);
    indexCache.set(key, p);
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
  if (scope.passages > SECTION_INDEX_MAX_PASSAGES) {
    const [lengths, hits] = await Promise.all([
      scopeSectionLengths(db, scope),
      sectionTermHits(db, scope, text.stem, text.options, opts.headingWeight),
    ]);
    return rankSections(hits, lengths, bookSectionOf, opts);
  }
  const [index, lexemes] = await Promise.all([
    cachedIndex(db, scope, scope.passages, opts.headingWeight),
    questionLexemes(db, text.stem, text.options),
  ]);
  const hits: ISectionTermHit[] = lexemes.flatMap(({ lexeme, option }) =>
    (index.postings.get(lexeme) ?? []).map((p) => ({ ...p, lexeme, option })),
  );
  return rankSections(hits, index.lengths, (r) => r.section_path, opts);
}

/**
 * Stage 6 input for a pasted exam question (focus.ts): the scope's sections ranked by
 * section-level BM25 against the stem (and, weaker, the options), as a chapter vote and a section
 * order. Null when switched off (every `examSectionBm25*` use at 0), for a question without options
 * at `examSectionBm25WithoutOptions` 0 (at 2 its ranking only guards the exam head's cut, focus.ts),
 * when the query names a chapter; a database error is
 * logged by the caller, and the focus then votes as before.
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
  if (question.options.length === 0 && tuning.examSectionBm25WithoutOptions <= 0) return null;
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
  // Without options at `examSectionBm25WithoutOptions` 2, the ranking only guards the head cut.
  const guardOnly = question.options.length === 0 && tuning.examSectionBm25WithoutOptions >= 2;
  return {
    shares: sectionRankShares(ranked, tuning.examSectionBm25Depth),
    weight: guardOnly ? tuning.examSectionBm25VoteWithoutOptions : tuning.examSectionBm25Weight,
    chapters,
    order: ranked.map((s) => s.key),
    fill: !guardOnly && tuning.examSectionBm25Fill > 0,
    lead: !guardOnly && tuning.examSectionBm25Lead > 0,
    leadAcrossOnly: tuning.examSectionBm25Lead >= 2,
  };
}
