import { isStopword } from "@/lib/text/tokenize";

/**
 * User text → a `to_tsquery('english', …)` argument that Postgres can always parse.
 *
 * `plainto_tsquery` is safe but ANDs every word, so one stray word empties the result;
 * `to_tsquery` allows OR but errors on stray syntax (`&`, `|`, `!`, `:`, `*`, `<->`, parentheses,
 * quotes, backslashes). So: reduce the text to runs of letters, combining marks and digits (nothing
 * the tsquery lexer treats as syntax), quote each run, and join with `|`.
 */

export const MAX_TERM_CHARS = 48;
export const MAX_TERMS = 24;

/** Format characters (zero-width space/joiners, bidi marks, soft hyphen) hide inside pasted words: remove. */
const FORMAT_RE = /\p{Cf}/gu;
/** Control, lone-surrogate, private-use and unassigned characters separate words. */
const SEPARATOR_RE = /[\p{Cc}\p{Cs}\p{Co}\p{Cn}]/gu;
/** Runs of letters/marks/digits; a mark may only continue a run, never start one. */
const LEXEME_RE = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;
const ALLOWED_TERM_RE = /^[\p{L}\p{N}][\p{L}\p{M}\p{N}]*$/u;

function truncate(term: string): string {
  const cps = Array.from(term);
  return cps.length > MAX_TERM_CHARS ? cps.slice(0, MAX_TERM_CHARS).join("") : term;
}

function lexemesOf(text: string): string[] {
  const cleaned = text.normalize("NFKC").replace(FORMAT_RE, "").replace(SEPARATOR_RE, " ").toLowerCase();
  return (cleaned.match(LEXEME_RE) ?? []).map(truncate).filter((t) => ALLOWED_TERM_RE.test(t));
}

export interface ITsQueryTermOptions {
  maxTerms?: number;
  /** Keep English stop words (Postgres drops them anyway; dropping early keeps the OR short). */
  keepStopwords?: boolean;
}

/** Distinct lexeme candidates, in order of first appearance, safe to quote in a tsquery. */
export function toTsQueryTerms(text: string, options: ITsQueryTermOptions = {}): string[] {
  const max = Math.max(0, options.maxTerms ?? MAX_TERMS);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const t of lexemesOf(text)) {
    if (out.length >= max) break;
    const isShortWord = Array.from(t).length < 2 && !/^\p{N}$/u.test(t);
    if (isShortWord || seen.has(t) || (!options.keepStopwords && isStopword(t))) continue;
    seen.add(t);
    out.push(t);
  }
  return out;
}

/**
 * `'a' | 'b' | …` for `to_tsquery('english', $1)`, or '' when nothing usable remains (callers then
 * skip the keyword search). Terms are re-sanitised, so raw words are safe here too.
 */
export function buildOrTsQuery(terms: readonly string[]): string {
  const seen = new Set<string>();
  const quoted: string[] = [];
  for (const term of terms) {
    for (const t of lexemesOf(term)) {
      if (seen.has(t) || quoted.length >= MAX_TERMS) continue;
      seen.add(t);
      quoted.push(`'${t}'`);
    }
  }
  return quoted.join(" | ");
}

/** Convenience: raw text → OR tsquery string ('' when nothing remains). */
export function textToOrTsQuery(text: string): string {
  return buildOrTsQuery(toTsQueryTerms(text));
}
