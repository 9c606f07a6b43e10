import "server-only";
import type { ISqlExecutor } from "@/lib/db";
import { inCaseOf, spellingVariants } from "@/lib/text/spelling-variants";
import type { TRetrievalQueryRequest } from "@/schema/retrieval.schema";
import { scopeOf } from "./scope-vocabulary";
import { scopeWordCounts } from "./store";

/** Query words looked at (a pasted exam question's first ones), and words plus variants looked up. */
const MAX_QUERY_WORDS = 24;
const MAX_LOOKUPS = 96;

export interface ISpellingChange {
  from: string;
  to: string;
}

/**
 * Chooses, for each word the scope does not use, the spelling variant it does use, from the scope's
 * passage counts (`df`: word → passages holding its lexeme; a word absent from `df` has no lexeme,
 * a stopword, and is left alone). The variant the most passages hold wins; a word whose variants
 * the scope does not hold either stays as typed (an unknown word stays unknown).
 */
export function chooseSpellings(
  words: readonly string[],
  variants: ReadonlyMap<string, readonly string[]>,
  df: ReadonlyMap<string, number>,
): Map<string, string> {
  const chosen = new Map<string, string>();
  for (const w of words) {
    if (df.get(w) !== 0) continue;
    let best: string | null = null;
    let bestDf = 0;
    for (const v of variants.get(w) ?? []) {
      const n = df.get(v) ?? 0;
      if (n > bestDf) {
        best = v;
        bestDf = n;
      }
    }
    if (best) chosen.set(w, best);
  }
  return chosen;
}

/** The query with each chosen word replaced, in the case it was typed. */
export function respell(query: string, chosen: ReadonlyMap<string, string>): string {
  if (chosen.size === 0) return query;
  return query.replace(/[A-Za-z]+/g, (typed) => {
    const to = chosen.get(typed.toLowerCase());
    return to === undefined ? typed : inCaseOf(typed, to);
  });
}

/**
 * The query in the scope's own spelling: British words searched in an American book as American
 * ("colour" → "color", "haemoglobin" → "hemoglobin") and the other way round, so that the lexical
 * search, the embedding, the phrase evidence and the refusal's scope counts all see the words the
 * scope's passages use. One indexed lookup of the query's words and their variants
 * (`scopeWordCounts`), and none when no word has a variant. A failed lookup leaves the query as typed.
 */
export async function scopeSpelling(
  db: ISqlExecutor,
  userId: string,
  filters: TRetrievalQueryRequest["filters"],
  query: string,
): Promise<{ query: string; changes: ISpellingChange[] }> {
  const words = [...new Set((query.match(/[A-Za-z]+/g) ?? []).map((w) => w.toLowerCase()))];
  const variants = new Map<string, string[]>();
  const lookups = new Set<string>();
  for (const w of words.slice(0, MAX_QUERY_WORDS)) {
    const vs = spellingVariants(w);
    if (vs.length === 0 || lookups.size + 1 + vs.length > MAX_LOOKUPS) continue;
    variants.set(w, vs);
    lookups.add(w);
    for (const v of vs) lookups.add(v);
  }
  if (variants.size === 0) return { query, changes: [] };
  const rows = await scopeWordCounts(db, userId, scopeOf(filters), [...lookups]).catch(() => []);
  const df = new Map<string, number>();
  for (const r of rows) if (r.word !== null) df.set(r.word, Number(r.df));
  const chosen = chooseSpellings([...variants.keys()], variants, df);
  return {
    query: respell(query, chosen),
    changes: [...chosen].map(([from, to]) => ({ from, to })),
  };
}
