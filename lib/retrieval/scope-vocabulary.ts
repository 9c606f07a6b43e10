import "server-only";
import type { ISqlExecutor } from "@/lib/db";
import type { TRetrievalQueryRequest } from "@/schema/retrieval.schema";

/**
 * How often each of the query's words occurs in the whole scope (board, grade, subject, resource
 * types, the documents the user may see): the number of passages whose full-text index holds the
 * word's lexeme, read from the BM25 postings (`chunk_terms`). The refusal's scope evidence: a
 * query about the scope's subject uses words the scope uses again and again ("mitochondria" in a
 * Biology book: hundreds of passages), while a query from elsewhere finds its specific words
 * nowhere or in one stray passage ("python" once in Biology). The chapter filter is ignored on
 * purpose: whether a word belongs to the subject does not depend on the chapter searched.
 */
export interface IScopeVocabulary {
  /** Passages in the scope. */
  passages: number;
  /** Word (as given) → passages containing its lexeme. Words with no lexeme (stopwords) are absent. */
  df: Map<string, number>;
}

const MAX_WORDS = 64;

export async function scopeVocabulary(
  db: ISqlExecutor,
  userId: string,
  filters: TRetrievalQueryRequest["filters"],
  words: readonly string[],
): Promise<IScopeVocabulary> {
  const unique = [...new Set(words.map((w) => w.toLowerCase()))].slice(0, MAX_WORDS);
  const rt = filters.resourceType;
  const resourceTypes = rt ? (Array.isArray(rt) ? [...new Set(rt)] : [rt]) : null;
  const rows = await db.query<{ word: string | null; df: number; passages: number }>(
    `with scope as (
       select d.id, d.chunk_count from documents d
       where d.board = $1 and d.grade = $2 and d.subject = $3
         and (d.visibility = 'shared' or d.owner_id = $4)
         and ($5::text[] is null or d.resource_type = any ($5::text[]))
     ),
     lex as (
       select w.word, (select u.lexeme from unnest(to_tsvector('english', w.word)) u limit 1) as lexeme
       from unnest($6::text[]) as w(word)
     )
     select lex.word,
            (select count(*) from chunk_terms t
              where t.lexeme = lex.lexeme and t.document_id in (select id from scope))::int as df,
            (select coalesce(sum(chunk_count), 0) from scope)::int as passages
     from lex where lex.lexeme is not null
     union all
     select null, 0, (select coalesce(sum(chunk_count), 0) from scope)::int`,
    [filters.board, filters.grade, filters.subject, userId, resourceTypes, unique],
  );
  const df = new Map<string, number>();
  let passages = 0;
  for (const r of rows) {
    passages = Number(r.passages);
    if (r.word !== null) df.set(r.word, Number(r.df));
  }
  return { passages, df };
}
