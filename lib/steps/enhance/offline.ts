import { specificity } from "@/lib/retrieval/calibrate";
import { nounPhrases } from "@/lib/text/phrases";
import { contentWords, isStopword, stem, terms, words } from "@/lib/text/tokenize";
import type { EBloomLevel } from "@/types/bloom.types";
import type {
  EAddedTermSource,
  IAddedTerm,
  IEnhanceOfflineInput,
  IEnhanceOfflineResult,
  ITermHighlight,
} from "@/types/retrieval.types";

/**
 * Extractive query enhancement (the offline counterpart of an LLM rewrite). It only ever appends:
 * the user's words stay first and unchanged, and every added term carries its source and reason.
 *
 * Sources, in order: WordNet synonyms of the key content words (through an injected lookup;
 * with passages, only those the passages use and no more general than the teacher's words), the
 * chapter / subject name, the topic's key terms in the curriculum itself (the sharpest noun
 * phrases and symbols the top passages share: "photosystem II", "ATP synthase", "NADPH", not
 * "cells" or "function"), and cue words for higher Bloom levels.
 */

export const ENHANCE_LIMITS = {
  /** Key words whose synonyms are looked up. */
  synonymWords: 3,
  /** Synonyms per key word (1 when nothing attests the sense, see below). */
  synonymsPerWord: 2,
  /**
   * Feedback terms per query; more drifted off topic. Term lookups get none: a named term is
   * already precise (README, "Retrieval tuning notes").
   */
  feedbackTerms: 2,
  /** The curriculum's key terms offered per query (the enhancer's feedback source). */
  keyTerms: 3,
  bloomTerms: 3,
  /** Added terms never exceed rawTerms + this (so the query stays ≤ 2× + 12 terms). */
  extraTerms: 12,
} as const;

/** Cue words that textbook passages written for each level actually contain. */
const BLOOM_CUE_TERMS: Partial<Record<EBloomLevel, string[]>> = {
  Apply: ["example", "calculate"],
  Analyze: ["compare", "relationship"],
  Evaluate: ["advantages", "evidence"],
  Create: ["design", "experiment"],
};

/** Words common in any expository passage; useless as feedback terms. */
const GENERIC_WORDS = new Set(
  words(`also use used using called figure example examples different many one two three can may however form forms
  found number part parts type types include includes including known well much often see shown show shows large small
  new first second important several various way ways result results make makes made called term terms thus therefore
  within without like unlike would could another certain every high low time times rather either neither whether
  section chapter link learning credit modification work`),
);

/** The tokenizer's word shape, matched on the raw text so highlight offsets are exact. */
const WORD_RE = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

interface IQueryBuilder {
  text: string;
  stems: Set<string>;
  highlights: ITermHighlight[];
  originals: ITermHighlight<"original">[];
  added: IAddedTerm[];
}

function attach(builder: IQueryBuilder, term: string, source: EAddedTermSource): void {
  const start = builder.text.length === 0 ? 0 : builder.text.length + 1;
  builder.text = builder.text.length === 0 ? term : `${builder.text} ${term}`;
  builder.highlights.push({ term, start, end: start + term.length, source });
  for (const s of terms(term)) builder.stems.add(s);
}

/** True when `term` brings at least one new content stem ("plasma membrane" after "cell membrane"). */
function isNew(builder: IQueryBuilder, term: string): boolean {
  return terms(term).some((s) => !builder.stems.has(s));
}

function add(
  builder: IQueryBuilder,
  term: string,
  source: EAddedTermSource,
  reason: string,
  budget: number,
): boolean {
  if (builder.added.length >= budget || !isNew(builder, term)) return false;
  attach(builder, term, source);
  builder.added.push({ term, source, reason });
  return true;
}

function cleanSynonym(raw: string): string | undefined {
  const s = raw.replace(/_/g, " ").trim().toLowerCase();
  if (!/^[\p{L}][\p{L}\p{M}' -]*$/u.test(s) || s.length < 3 || s.length > 40) return undefined;
  return s;
}

/** stem → occurrences in the feedback passages, to check that a synonym's sense is the one in use. */
function stemCounts(docs: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const d of docs) for (const s of terms(d)) counts.set(s, (counts.get(s) ?? 0) + 1);
  return counts;
}

interface IFeedbackTerm {
  term: string;
  score: number;
  docs: number;
}

/**
 * Terms that recur across the feedback passages: mean length-normalised tf × share of passages
 * containing the term, × idf against `background` passages when given (so terms every candidate
 * shares rank lower). Each stem is shown as its most frequent surface form.
 */
export function feedbackTerms(
  feedbackDocs: readonly string[],
  background?: readonly string[],
): IFeedbackTerm[] {
  const n = feedbackDocs.length;
  if (n === 0) return [];
  const tfNorm = new Map<string, number>();
  const df = new Map<string, number>();
  const surface = new Map<string, Map<string, number>>();
  for (const doc of feedbackDocs) {
    const ws = contentWords(doc).filter(
      (w) => /^\p{L}[\p{L}'-]*$/u.test(w) && w.length >= 3 && !GENERIC_WORDS.has(w),
    );
    if (ws.length === 0) continue;
    const local = new Map<string, number>();
    for (const w of ws) {
      const s = stem(w);
      local.set(s, (local.get(s) ?? 0) + 1);
      const forms = surface.get(s) ?? new Map<string, number>();
      forms.set(w, (forms.get(w) ?? 0) + 1);
      surface.set(s, forms);
    }
    for (const [s, c] of local) {
      tfNorm.set(s, (tfNorm.get(s) ?? 0) + c / ws.length);
      df.set(s, (df.get(s) ?? 0) + 1);
    }
  }
  const bgDocs = background?.map((d) => new Set(terms(d))) ?? [];
  const idf = (s: string) => {
    if (bgDocs.length === 0) return 1;
    const d = bgDocs.filter((set) => set.has(s)).length;
    return Math.log((bgDocs.length + 1) / (d + 0.5));
  };
  const minDocs = n >= 3 ? 2 : 1;
  const out: IFeedbackTerm[] = [];
  for (const [s, tf] of tfNorm) {
    const d = df.get(s) ?? 0;
    if (d < minDocs) continue;
    const forms = [...(surface.get(s) ?? new Map<string, number>()).entries()].sort((a, b) => b[1] - a[1]);
    const term = forms[0]?.[0];
    if (!term) continue;
    out.push({ term, score: (tf / n) * (d / n) * idf(s), docs: d });
  }
  return out.sort((a, b) => b.score - a.score || a.term.localeCompare(b.term));
}

/** Mean specificity of a term's words (1 = a word general English hardly uses: "thylakoid"). */
function termSpecificity(term: string): number {
  const ws = contentWords(term).filter((w) => !/^\d+$/.test(w));
  if (ws.length === 0) return 0;
  return ws.reduce((sum, w) => sum + specificity(w), 0) / ws.length;
}

/** A synonym's new words must be at least this specific (drops "visible light" for "light"). */
const SYNONYM_MIN_SPECIFICITY = 0.7;
/** A key term's words must be at least this specific on average ("cells", "function" are not). */
const KEY_TERM_MIN_SPECIFICITY = 0.6;

export interface IKeyTerm {
  term: string;
  score: number;
  /** Passages (of the feedback set) that use it. */
  docs: number;
}

/**
 * The topic's key terms as the curriculum writes them: noun phrases (compromise's tagger) and
 * symbols ("ATP", "NADPH", "photosystem II") that recur across the top passages, ranked by how
 * many passages share them × how specific their words are (squared, so "ATP synthase" beats
 * "energy") × a little for a second word. Terms whose every stem is in `known` are skipped.
 */
export function keyTerms(feedbackDocs: readonly string[], known: ReadonlySet<string>): IKeyTerm[] {
  const n = feedbackDocs.length;
  if (n === 0) return [];
  const byKey = new Map<string, { forms: Map<string, number>; docs: Set<number>; count: number }>();
  feedbackDocs.forEach((doc, d) => {
    const candidates = [
      ...nounPhrases(doc),
      // Symbols and numbered names the tagger splits: "ATP", "NADPH", "photosystem II".
      ...[...doc.matchAll(/\b(?:[a-z]+ (?:I{1,3}|IV|V)\b|[A-Z][A-Z0-9+]{1,7}\b(?: [a-z]{4,})?)/g)].map(
        (m) => m[0],
      ),
    ];
    for (const raw of candidates) {
      const term = raw.replace(/\s+/g, " ").trim();
      const key = terms(term).join(" ");
      if (!key || term.length > 40 || term.split(" ").length > 3) continue;
      const entry = byKey.get(key) ?? { forms: new Map<string, number>(), docs: new Set<number>(), count: 0 };
      entry.forms.set(term, (entry.forms.get(term) ?? 0) + 1);
      entry.docs.add(d);
      entry.count++;
      byKey.set(key, entry);
    }
  });
  const minDocs = n >= 3 ? 2 : 1;
  const out: IKeyTerm[] = [];
  for (const [key, e] of byKey) {
    if (e.docs.size < minDocs) continue;
    const stems = key.split(" ");
    if (stems.every((s) => known.has(s))) continue;
    const term = [...e.forms.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
    if (!term || contentWords(term).some((w) => GENERIC_WORDS.has(w))) continue;
    const spec = termSpecificity(term);
    if (spec < KEY_TERM_MIN_SPECIFICITY) continue;
    const score =
      (e.docs.size / n) *
      spec *
      spec *
      (1 + 0.15 * Math.min(2, stems.length - 1)) *
      (1 + Math.log(e.count) / 10);
    out.push({ term, score, docs: e.docs.size });
  }
  return out.sort((a, b) => b.score - a.score || a.term.localeCompare(b.term));
}

/** Enhance a query without a language model. Pure and deterministic for a given synonym source. */
export function enhanceQueryOffline(input: IEnhanceOfflineInput): IEnhanceOfflineResult {
  const raw = input.rawQuery.replace(/\s+/g, " ").trim();
  const builder: IQueryBuilder = { text: "", stems: new Set(), highlights: [], originals: [], added: [] };
  // The user's words first, verbatim; highlight their content words.
  builder.text = raw;
  for (const s of terms(raw)) builder.stems.add(s);
  for (const m of raw.matchAll(WORD_RE)) {
    const w = m[0].normalize("NFKC").toLowerCase();
    if (w.length < 2 || isStopword(w)) continue;
    builder.originals.push({ term: m[0], start: m.index, end: m.index + m[0].length, source: "original" });
  }
  const rawTermCount = terms(raw).length;
  const budget = Math.min(
    rawTermCount + ENHANCE_LIMITS.extraTerms,
    ENHANCE_LIMITS.synonymWords * ENHANCE_LIMITS.synonymsPerWord +
      2 +
      ENHANCE_LIMITS.feedbackTerms +
      ENHANCE_LIMITS.bloomTerms,
  );
  const explanations: string[] = [];
  const feedback = input.feedbackDocs?.filter((d) => d.trim().length > 0) ?? [];
  const attested = stemCounts(feedback);
  const keyWords = (
    input.classification.topicTerms.length > 0 ? input.classification.topicTerms : contentWords(raw)
  )
    .filter((w) => !isStopword(w) && w.length > 2 && !/^\d+$/.test(w))
    .slice(0, ENHANCE_LIMITS.synonymWords);

  // 1. Synonyms. Without passages to attest the sense, one per word (WordNet lists rare senses too).
  if (input.synonyms) {
    const perWord = feedback.length > 0 ? ENHANCE_LIMITS.synonymsPerWord : 1;
    // Adjacent pairs first: WordNet knows many two-word terms ("cell membrane" → "plasma membrane").
    const topic = input.classification.topicTerms;
    const pairs = topic.slice(0, -1).map((w, i) => `${w} ${topic[i + 1]}`);
    for (const word of [...pairs.slice(0, ENHANCE_LIMITS.synonymWords), ...keyWords]) {
      let taken = 0;
      for (const candidate of input.synonyms(word.replace(/ /g, "_"))) {
        if (taken >= perWord) break;
        const syn = cleanSynonym(candidate);
        if (!syn) continue;
        const seen = feedback.length === 0 || terms(syn).every((s) => (attested.get(s) ?? 0) > 0);
        if (!seen) continue;
        // No broader than the teacher's words: the new words must be specific ("visible light"
        // for "light" adds only "visible", a word of general English).
        const newWords = contentWords(syn).filter((w) => !builder.stems.has(stem(w)));
        if (newWords.length && termSpecificity(newWords.join(" ")) < SYNONYM_MIN_SPECIFICITY) continue;
        const why =
          feedback.length > 0
            ? `synonym of "${word}" (WordNet), also used in the top passages`
            : `synonym of "${word}" (WordNet)`;
        if (add(builder, syn, "synonym", why, budget)) taken++;
      }
    }
  }

  // 2. Metadata: the chapter name, and the subject for very short queries (disambiguates "cell").
  const chapter = input.filters.chapterName?.trim();
  if (chapter && isNew(builder, chapter)) {
    add(builder, chapter, "metadata", `chapter "${chapter}" from the selected filters`, budget);
  }
  const subject = input.filters.subject.trim();
  // Only without feedback passages: the search is already filtered to the subject, so the name
  // helps just the embedding of a one- or two-word query ("cell" in Physics vs Biology).
  if (subject && feedback.length === 0 && keyWords.length <= 2 && isNew(builder, subject)) {
    add(builder, subject, "metadata", `subject "${subject}" added to disambiguate a short query`, budget);
  }

  // 3. The topic's key terms in the curriculum: what the best passages call its parts.
  if (feedback.length > 0) {
    let taken = 0;
    for (const k of keyTerms(feedback, builder.stems)) {
      if (taken >= ENHANCE_LIMITS.keyTerms) break;
      const reason = `a key term of this topic in your curriculum (in ${k.docs} of the top ${feedback.length} passages)`;
      if (add(builder, k.term, "feedback", reason, budget)) taken++;
    }
  }

  // 4. Bloom cues for levels above Understand.
  const higher = (input.bloomTargets ?? []).filter((l) => BLOOM_CUE_TERMS[l]);
  let bloomTaken = 0;
  for (const level of higher) {
    for (const cue of BLOOM_CUE_TERMS[level] ?? []) {
      if (bloomTaken >= ENHANCE_LIMITS.bloomTerms) break;
      if (add(builder, cue, "bloom", `cue word for Bloom level ${level}`, budget)) bloomTaken++;
    }
  }

  // One note that says what happened: the teacher's words first and unchanged, then what follows.
  explanations.unshift(
    builder.added.length
      ? `Your words come first, unchanged; the terms below are added after them (switch any off).`
      : `Your query is used as written: "${raw}".`,
  );
  const bySource = (source: EAddedTermSource) => builder.added.filter((a) => a.source === source);
  const list = (items: IAddedTerm[]) => items.map((a) => `"${a.term}"`).join(", ");
  if (bySource("feedback").length) {
    explanations.push(`Key terms of this topic in your curriculum: ${list(bySource("feedback"))}.`);
  }
  if (bySource("synonym").length) explanations.push(`Other words for yours: ${list(bySource("synonym"))}.`);
  if (bySource("metadata").length)
    explanations.push(`Names from your filters: ${list(bySource("metadata"))}.`);
  if (bySource("bloom").length)
    explanations.push(`Added cue words for the targeted Bloom levels: ${list(bySource("bloom"))}.`);
  if (builder.added.length === 0)
    explanations.push("Nothing was added: the top passages use no sharper term than yours.");

  const addedText = builder.added.map((a) => a.term).join(" ");
  const base = input.classification.searchText.trim() || raw;
  return {
    enhancedQuery: builder.text,
    searchText: addedText ? `${base} ${addedText}` : base,
    addedTerms: builder.added,
    explanations,
    termHighlights: builder.highlights,
    originalHighlights: builder.originals,
  };
}
