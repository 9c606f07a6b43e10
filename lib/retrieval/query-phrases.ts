import { isStopword, stem } from "@/lib/text/tokenize";

/**
 * The query's two-word phrases: each pair of neighbouring content words inside one clause, with
 * at most one stop word between them ("opportunity cost", "supply and demand", "rivers of South
 * America" → "rivers of south", "south america"). A query in the scope's own words uses phrases
 * the scope's passages also use ("kinetic energy", "plasma membrane"); a query from another
 * subject that only borrows the scope's words ("central banks", "titration curve", "light
 * dependent reactions" asked of Physics) joins them in ways no passage does. The refusal's phrase
 * evidence (`calibrate.ts phraseAbsent`) counts how many of these the scope never holds.
 *
 * Clauses end at punctuation and at lettered or numbered options ("A)", "(b)", "1.") so that an
 * exam question's options never join into one phrase. Digits, one-letter words and words of
 * fewer than three letters are no content words here. At most `max` phrases, in query order.
 */
export interface IQueryPhrase {
  /** The phrase as the query has it, lower-cased ("supply and demand"). */
  text: string;
  /** Its two content words. */
  words: [string, string];
  /** The two words' stems, the key the scope's phrase index uses ("suppli demand"). */
  key: string;
}

const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*|[^\s\p{L}\p{N}]+/gu;
const OPTION = /(?:^|\s)(?:\(?[A-Da-d1-9][).]|\([A-Da-d1-9ivx]+\))(?=\s)/g;

const isContent = (w: string) => /^\p{L}/u.test(w) && w.length >= 3 && !isStopword(w);

export function queryPhrases(query: string, max = 16): IQueryPhrase[] {
  const text = query.normalize("NFKC").toLowerCase().replace(OPTION, " | ");
  const out: IQueryPhrase[] = [];
  const seen = new Set<string>();
  let prev: string | null = null;
  let between: string[] = [];
  for (const token of text.match(TOKEN) ?? []) {
    // A hyphen joins its words into the phrase ("light-dependent" is "light dependent").
    if (token === "-") continue;
    if (!/^[\p{L}\p{N}]/u.test(token)) {
      // Other punctuation ends the clause.
      prev = null;
      between = [];
      continue;
    }
    if (!isContent(token)) {
      if (prev !== null) between.push(token);
      if (between.length > 1 || /^\p{N}/u.test(token)) {
        prev = null;
        between = [];
      }
      continue;
    }
    if (prev !== null && stem(prev) !== stem(token)) {
      const phrase = [prev, ...between, token].join(" ");
      if (!seen.has(phrase)) {
        seen.add(phrase);
        out.push({ text: phrase, words: [prev, token], key: `${stem(prev)} ${stem(token)}` });
        if (out.length >= max) break;
      }
    }
    prev = token;
    between = [];
  }
  return out;
}

/**
 * Every phrase key of a passage (the same pairing as `queryPhrases`, without its cap): what the
 * scope's phrase index (scope-vocabulary.ts `scopePhraseIndex`) holds per passage.
 */
export function passagePhraseKeys(text: string): Set<string> {
  const keys = new Set<string>();
  // Paragraph by paragraph, so the cap never cuts a long passage short.
  for (const part of text.split(/\n+/))
    for (const p of queryPhrases(part, Number.POSITIVE_INFINITY)) keys.add(p.key);
  return keys;
}
