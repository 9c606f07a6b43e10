import "server-only";
import type { ISqlExecutor } from "@/lib/db";
import { type IMeaningProfile, meaningProfile } from "@/lib/text/wordnet-domains";
import type { TRetrievalQueryRequest } from "@/schema/retrieval.schema";
import { type IScopePhrase, MODEL_USES_PHRASES } from "./calibrate";
import { toResourceTypes } from "./pipeline/search";
import { passagePhraseKeys, queryPhrases } from "./query-phrases";
import { scopeAndBackgroundTexts, scopeTermCounts, scopeWordCounts } from "./store";

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
  /**
   * The background: passages of the other visible documents (other subjects, the same subject's
   * other classes), and each word's count there. A word far more frequent there than in the scope
   * belongs to another subject ("potential energy" asked of Biology). 0 when nothing else is visible.
   */
  bgPassages: number;
  bgDf: Map<string, number>;
  /**
   * The scope's WordNet meaning profile (topic domains and supersenses of its whole vocabulary,
   * weighted by passages; wordnet-domains.ts), or null if it could not be built.
   */
  meaning: IMeaningProfile | null;
  /** The query's two-word phrases with their counts, when asked for (`opts.phrasesOf`). */
  phrases?: IScopePhrase[];
}

type TScope = Parameters<typeof scopeTermCounts>[2];
type TScopeFilters = Pick<TRetrievalQueryRequest["filters"], "board" | "grade" | "subject" | "resourceType">;

/** The scope a request's filters name (the chapter and document filters do not narrow it). */
export const scopeOf = (filters: TScopeFilters): TScope => ({
  board: filters.board,
  grade: filters.grade,
  subject: filters.subject,
  resourceTypes: toResourceTypes(filters.resourceType),
});

/** Profiles by user and scope, keyed with the scope's passage count so that new uploads rebuild it. */
const profiles = new Map<string, Promise<IMeaningProfile>>();
const MAX_PROFILES = 32;

/**
 * The scope's meaning profile, built once per scope (one grouped scan of its postings, then a
 * WordNet label per term) and cached while the scope's passage count stays the same.
 */
export function scopeMeaning(
  db: ISqlExecutor,
  userId: string,
  scope: TScope,
  passages: number,
): Promise<IMeaningProfile> {
  return cachedPerScope(profiles, MAX_PROFILES, [...scopeKey(userId, scope), passages], () =>
    scopeTermCounts(db, userId, scope).then((rows) =>
      meaningProfile(rows.map((r) => [r.lexeme, Number(r.df)])),
    ),
  );
}

/** The user and the scope's filters, the first part of a per-scope cache key. */
const scopeKey = (userId: string, scope: TScope) => [
  userId,
  scope.board,
  scope.grade,
  scope.subject,
  scope.resourceTypes,
];

/**
 * A per-scope value built once and cached under `key` (which carries the passage counts, so that an
 * upload rebuilds it). A failed build is not cached: the next query tries again. Past `max` entries
 * the least recently used goes (a hit moves its entry to the end), so that warming another scope
 * (`warmScopePhrases`) does not push out the one a teacher is searching.
 */
function cachedPerScope<T>(
  cache: Map<string, Promise<T>>,
  max: number,
  key: readonly unknown[],
  build: () => Promise<T>,
): Promise<T> {
  const k = JSON.stringify(key);
  let p = cache.get(k);
  if (p) {
    cache.delete(k);
    cache.set(k, p);
  } else {
    p = build();
    p.catch(() => cache.delete(k));
    if (cache.size >= max) cache.delete(cache.keys().next().value as string);
    cache.set(k, p);
  }
  return p;
}

const MAX_WORDS = 64;

/**
 * `opts.meaning` builds (or reuses) the scope's WordNet meaning profile: seconds and hundreds of MB
 * on a scope's first use, so only a caller that reads `meaning` asks for it (retrieval's refusal
 * when its model uses it); the key-phrase probe reads only `df`.
 */
export async function scopeVocabulary(
  db: ISqlExecutor,
  userId: string,
  filters: TRetrievalQueryRequest["filters"],
  words: readonly string[],
  opts: { meaning: boolean; phrasesOf?: string; phraseWaitMs?: number } = { meaning: false },
): Promise<IScopeVocabulary> {
  const unique = [...new Set(words.map((w) => w.toLowerCase()))].slice(0, MAX_WORDS);
  const scope = scopeOf(filters);
  const rows = await scopeWordCounts(db, userId, scope, unique);
  const df = new Map<string, number>();
  const bgDf = new Map<string, number>();
  let passages = 0;
  let bgPassages = 0;
  for (const r of rows) {
    passages = Number(r.passages);
    bgPassages = Number(r.bg_passages);
    if (r.word !== null) {
      df.set(r.word, Number(r.df));
      bgDf.set(r.word, Number(r.bg_df));
    }
  }
  const meaning =
    opts.meaning && passages > 0 ? await scopeMeaning(db, userId, scope, passages).catch(() => null) : null;
  const phrases =
    opts.phrasesOf !== undefined && passages > 0
      ? await scopePhraseLookup(
          db,
          userId,
          filters,
          opts.phrasesOf,
          { passages, bgPassages },
          opts.phraseWaitMs,
        ).catch(() => null)
      : null;
  return { passages, df, bgPassages, bgDf, meaning, ...(phrases ? { phrases } : {}) };
}

/** Phrase key → passages holding it, in the scope and in the background. */
export interface IPhraseIndex {
  scope: Map<string, number>;
  background: Map<string, number>;
}

const phraseIndexes = new Map<string, Promise<IPhraseIndex>>();
/** A Biology book's index holds about 300,000 keys (tens of MB): fewer scopes are kept than profiles. */
const MAX_PHRASE_INDEXES = 8;
/** Passages indexed between two yields to the event loop (a few ms of work each). */
const BUILD_SLICE = 200;

/**
 * The scope's phrase index: every two-word phrase key (query-phrases.ts `passagePhraseKeys`) of
 * every passage of the scope and of its background, with the number of passages holding it. One
 * read of the passages' text on a scope's first phrase lookup (3.5–3.8 s for a textbook with another
 * in the background, on the loaded 2-core machine),
 * then cached while the scope's and the background's passage counts stay the same.
 */
export function scopePhraseIndex(
  db: ISqlExecutor,
  userId: string,
  scope: TScope,
  counts: { passages: number; bgPassages: number },
): Promise<IPhraseIndex> {
  return cachedPerScope(phraseIndexes, MAX_PHRASE_INDEXES, phraseIndexKey(userId, scope, counts), () =>
    scopeAndBackgroundTexts(db, userId, scope).then(async (rows) => {
      const index: IPhraseIndex = { scope: new Map(), background: new Map() };
      for (const [i, r] of rows.entries()) {
        // Seconds of work on the server's one thread: other requests are served between slices.
        if (i > 0 && i % BUILD_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
        const into = r.in_scope ? index.scope : index.background;
        for (const k of passagePhraseKeys(r.content)) into.set(k, (into.get(k) ?? 0) + 1);
      }
      return index;
    }),
  );
}

const phraseIndexKey = (userId: string, scope: TScope, counts: { passages: number; bgPassages: number }) => [
  ...scopeKey(userId, scope),
  counts.passages,
  counts.bgPassages,
];

/**
 * How long a query waits for a scope's phrase index that is not built yet (3.5–3.8 s for a
 * textbook with another in the background, measured on the loaded 2-core machine). A query that
 * stops waiting is judged without the phrase evidence (phraseAbsent 0, the in-scope value); the
 * build goes on and the scope's next query has it.
 */
export const PHRASE_WAIT_MS = 1_000;

/**
 * The query's two-word phrases (query-phrases.ts) with their passages in the scope and the
 * background (`scopePhraseIndex`): the refusal's phrase evidence (`calibrate.ts phraseEvidence`).
 * Null when the scope's index was not ready within `waitMs`.
 */
export async function scopePhraseLookup(
  db: ISqlExecutor,
  userId: string,
  filters: TRetrievalQueryRequest["filters"],
  query: string,
  counts: { passages: number; bgPassages: number },
  waitMs = PHRASE_WAIT_MS,
): Promise<IScopePhrase[] | null> {
  const phrases = queryPhrases(query);
  if (phrases.length === 0) return [];
  const building = scopePhraseIndex(db, userId, scopeOf(filters), counts);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const index = await Promise.race([
    building,
    new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), waitMs);
    }),
  ]).finally(() => clearTimeout(timer));
  if (!index) return null;
  return phrases.map((p) => ({
    phrase: p.text,
    words: p.words,
    df: index.scope.get(p.key) ?? 0,
    bgDf: index.background.get(p.key) ?? 0,
  }));
}

/**
 * Starts building the scope's phrase index in the background (`scopePhraseIndex`) so that the
 * scope's first refusal-checked query finds it ready instead of waiting up to PHRASE_WAIT_MS and
 * perhaps going without the phrase evidence. Called where a teacher's scope becomes known before
 * that query: at the start of every retrieval (the index builds while the passages are ranked) and
 * when the questions builder's Board/Class/Subject choices load (`warmFacetScopes`). One small
 * count query, then the build unless the scope's index is cached already (same cache and limit as
 * the queries use). Resolves with whether the index is ready; never rejects (a failed build is not
 * cached, and the next query tries again). Nothing is built when the shipped model does not read
 * the phrase evidence.
 */
export async function warmScopePhrases(
  db: ISqlExecutor,
  userId: string,
  filters: TScopeFilters,
  opts: { evict: boolean } = { evict: true },
): Promise<boolean> {
  if (!MODEL_USES_PHRASES) return false;
  try {
    const scope = scopeOf(filters);
    const rows = await scopeWordCounts(db, userId, scope, []);
    const counts = {
      passages: Number(rows[0]?.passages ?? 0),
      bgPassages: Number(rows[0]?.bg_passages ?? 0),
    };
    if (counts.passages <= 0) return false;
    // A guess (the facets' scopes) never pushes out an index a query is using: only into free room.
    const key = JSON.stringify(phraseIndexKey(userId, scope, counts));
    if (!opts.evict && !phraseIndexes.has(key) && phraseIndexes.size >= MAX_PHRASE_INDEXES) return false;
    await scopePhraseIndex(db, userId, scope, counts);
    return true;
  } catch {
    return false;
  }
}

/** Scopes warmed per Board/Class/Subject listing: the largest, within the cache's limit. */
export const WARM_SCOPES = 2;

/**
 * Warms the phrase index of the user's largest scopes (by passages, at most WARM_SCOPES, one after
 * another so that the builds never take both cores) when their Board/Class/Subject choices load:
 * a teacher with one or two subjects finds them ready on the first query. Only into free room in
 * the cache (a page load is a guess; it never evicts another scope's index). Never rejects;
 * resolves with the number of scopes whose index is ready.
 */
export async function warmFacetScopes(
  db: ISqlExecutor,
  userId: string,
  boards: readonly {
    board: string;
    grades: readonly { grade: string; subjects: readonly { subject: string; chunkCount: number }[] }[];
  }[],
): Promise<number> {
  if (!MODEL_USES_PHRASES) return 0;
  const scopes = boards
    .flatMap((b) =>
      b.grades.flatMap((g) =>
        g.subjects.map((s) => ({ board: b.board, grade: g.grade, subject: s.subject, size: s.chunkCount })),
      ),
    )
    .filter((s) => s.size > 0)
    .sort((a, b) => b.size - a.size)
    .slice(0, WARM_SCOPES);
  let ready = 0;
  for (const s of scopes) if (await warmScopePhrases(db, userId, s, { evict: false })) ready++;
  return ready;
}

/** Forgets every cached phrase index (tests measure a scope's first query). */
export function forgetPhraseIndexes(): void {
  phraseIndexes.clear();
}
