import { stemmer } from "stemmer";
import { STOPWORDS } from "./stopwords";

/**
 * Shared text primitives: the embedder, keyword features, classifier, reranker and question
 * generator all tokenise the same way, so a term means the same thing everywhere.
 */

const WORD_RE = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

/** Lower-cased word tokens (letters/digits, inner apostrophes and hyphens kept), NFKC-normalised. */
export function words(text: string): string[] {
  const normalised = text.normalize("NFKC").toLowerCase();
  return normalised.match(WORD_RE) ?? [];
}

const stemCache = new Map<string, string>();

/** Porter stem, cached (the same few thousand words recur across a book). */
export function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    s = stemmer(word);
    if (stemCache.size > 200_000) stemCache.clear();
    stemCache.set(word, s);
  }
  return s;
}

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/** Content words: no stop words, no 1-letter tokens (digits of 2+ kept). */
export function contentWords(text: string): string[] {
  return words(text).filter((w) => w.length > 1 && !STOPWORDS.has(w));
}

/** Stemmed content terms, in order. */
export function terms(text: string): string[] {
  return contentWords(text).map(stem);
}

/** Rough token count for OpenAI-style BPE: ≈ 0.75 words per token on English prose. */
export function estimateTokens(text: string): number {
  const n = (text.match(/\S+/g) ?? []).length;
  return Math.max(1, Math.ceil(n * 1.33));
}
