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
}

const TOKEN = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*|[^\s\p{L}\p{N}]+/gu;
const OPTION = /(?:^|\s)(?:\(?[A-Da-d1-9][).]|\([A-Da-d1-9ivx]+\))(?=\s)/g;

const isContent = (w: string) => /^\p{L}/u.test(w) && w.length >= 3 && !isStopword(w);

export function queryPhrases(query: string, max = 16): IQueryPhrase[] {
  const text = query.normalize("NFKC").toLowerCase().replace(OPTION, " | ");
  const out: IQueryPhrase[] = [];
  const seen = new Set<string>();
  let prev: string | null = null;
  let between: string[] = [];
  for (const token of text.match(TOKEN) ?? []) {
    if (!/^[\p{L}\p{N}]/u.test(token)) {
      // Punctuation other than an inner hyphen or apostrophe ends the clause.
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
        out.push({ text: phrase, words: [prev, token] });
        if (out.length >= max) break;
      }
    }
    prev = token;
    between = [];
  }
  return out;
}
