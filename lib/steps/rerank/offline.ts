import { isStopword, stem, terms, words } from "@/lib/text/tokenize";
import type { EBloomLevel } from "@/types/bloom.types";
import type {
  EQueryType,
  IQueryClassification,
  IRerankCandidate,
  IRerankFeatures,
  IRerankOptions,
  IRerankResult,
} from "@/types/retrieval.types";

/**
 * Feature-based reranker for the offline mode (and the LLM reranker's fallback).
 *
 * It looks at what a fused vector+keyword score cannot: whether the query's words occur together,
 * whether the chunk sits under a heading that names the topic (textbooks title sections by topic),
 * and whether the chunk *does* what the query asks (defines, explains, works an example,
 * compares). The fused score stays in the blend, so the reranker refines the first-stage order
 * rather than replacing it:
 *
 *   rerankScore = fusedWeight · fused/maxFused + (1 − fusedWeight) · combined · lengthPrior
 */

export const DEFAULT_FUSED_WEIGHT = 0.55;

type TFeatureName = "coverage" | "phrase" | "proximity" | "heading" | "titleMatch" | "typeCue" | "bloomCue";

/**
 * Per-type feature weights (each row sums to 1 before the Bloom share is added). Headings weigh
 * most for `generate` (teachers name a section or chapter) and for `lookup` (glossary terms are
 * usually defined in the section named after them); the type cue weighs most for `lookup`.
 */
export const FEATURE_WEIGHTS: Record<EQueryType, Record<Exclude<TFeatureName, "bloomCue">, number>> = {
  lookup: { coverage: 0.25, phrase: 0.1, proximity: 0.05, heading: 0.25, titleMatch: 0.05, typeCue: 0.3 },
  concept: { coverage: 0.3, phrase: 0.15, proximity: 0.15, heading: 0.25, titleMatch: 0.05, typeCue: 0.1 },
  procedure: { coverage: 0.3, phrase: 0.1, proximity: 0.1, heading: 0.2, titleMatch: 0.05, typeCue: 0.25 },
  compare: { coverage: 0.3, phrase: 0.1, proximity: 0.1, heading: 0.2, titleMatch: 0.05, typeCue: 0.25 },
  generate: { coverage: 0.25, phrase: 0.15, proximity: 0.05, heading: 0.4, titleMatch: 0.1, typeCue: 0.05 },
  general: { coverage: 0.35, phrase: 0.15, proximity: 0.2, heading: 0.15, titleMatch: 0.05, typeCue: 0.1 },
};
/** Share of the feature blend given to Bloom cues when Bloom targets are set. */
export const BLOOM_WEIGHT = 0.08;

// ----------------------------------------------------------------------------- tokens

interface IToken {
  word: string;
  stem: string;
  /** Index among all word tokens (stop words included). */
  pos: number;
  sentence: number;
}

interface IDoc {
  tokens: IToken[];
  /** Content-token stems in order (stop words removed), for phrase matching. */
  contentStems: string[];
  /** stem → positions (all-token index). */
  positions: Map<string, number[]>;
  sentenceCount: number;
  raw: string;
}

/** The same content-word test as `contentWords`, so query and chunk terms line up. */
function isContent(w: string): boolean {
  return w.length > 1 && !isStopword(w);
}

const SENTENCE_SPLIT_RE = /(?<=[.!?;])\s+|\n+/;

function analyse(text: string): IDoc {
  const tokens: IToken[] = [];
  const contentStems: string[] = [];
  const positions = new Map<string, number[]>();
  const sentences = text.split(SENTENCE_SPLIT_RE);
  let pos = 0;
  sentences.forEach((sentence, si) => {
    for (const w of words(sentence)) {
      const s = stem(w);
      tokens.push({ word: w, stem: s, pos, sentence: si });
      if (isContent(w)) {
        contentStems.push(s);
        const list = positions.get(s);
        if (list) list.push(pos);
        else positions.set(s, [pos]);
      }
      pos++;
    }
  });
  return { tokens, contentStems, positions, sentenceCount: sentences.length, raw: text };
}

// ----------------------------------------------------------------------------- query model

interface IQueryModel {
  stems: string[];
  weights: Map<string, number>;
  totalWeight: number;
  bigrams: [string, string][];
  /** Both sides of a comparison ("X and Y"), stemmed. */
  sides: string[][];
  reverse: boolean;
}

function buildQueryModel(
  query: IQueryClassification & { original: string },
  docs: readonly IDoc[],
): IQueryModel {
  const fromTopic = query.topicTerms.flatMap((t) => terms(t));
  const ordered = fromTopic.length > 0 ? fromTopic : terms(query.searchText || query.original);
  const stems = [...new Set(ordered)];
  // idf over the candidate set: a term every candidate shares cannot separate them.
  const n = docs.length;
  const weights = new Map<string, number>();
  for (const s of stems) {
    const df = docs.filter((d) => d.positions.has(s)).length;
    weights.set(s, 0.25 + Math.log(1 + (n - df + 0.5) / (df + 0.5)));
  }
  const totalWeight = [...weights.values()].reduce((a, b) => a + b, 0);
  const bigrams: [string, string][] = [];
  for (let i = 0; i + 1 < ordered.length; i++) {
    const a = ordered[i];
    const b = ordered[i + 1];
    if (a && b && a !== b) bigrams.push([a, b]);
  }
  const sides =
    query.type === "compare"
      ? query.searchText
          .split(/\s+(?:and|or|with|from|vs\.?|versus)\s+|,\s*/i)
          .map((part) => terms(part))
          .filter((p) => p.length > 0)
      : [];
  const reverse =
    (query.type === "lookup" && stems.length >= 4) || /\b(?:called|known as|termed)\b/i.test(query.original);
  return { stems, weights, totalWeight, bigrams, sides, reverse };
}

// ----------------------------------------------------------------------------- lexical features

function weightedShare(q: IQueryModel, has: (stem: string) => number): number {
  if (q.totalWeight <= 0) return 0;
  let sum = 0;
  for (const s of q.stems) sum += (q.weights.get(s) ?? 0) * has(s);
  return sum / q.totalWeight;
}

/** tf saturates (1 → 0.67, 3 → 0.86): several mentions beat one, twenty do not beat five by much. */
function coverageOf(q: IQueryModel, doc: IDoc): number {
  return weightedShare(q, (s) => {
    const tf = doc.positions.get(s)?.length ?? 0;
    return tf / (tf + 0.5);
  });
}

function phraseOf(q: IQueryModel, doc: IDoc): number {
  if (q.bigrams.length === 0) return 0;
  const present = new Set<string>();
  for (let i = 0; i + 1 < doc.contentStems.length; i++)
    present.add(`${doc.contentStems[i]} ${doc.contentStems[i + 1]}`);
  return q.bigrams.filter(([a, b]) => present.has(`${a} ${b}`)).length / q.bigrams.length;
}

/** Tightest window (in tokens) that holds every distinct query term the chunk contains. */
function proximityOf(q: IQueryModel, doc: IDoc): number {
  const hits: { pos: number; term: number }[] = [];
  q.stems.forEach((s, ti) => {
    for (const pos of doc.positions.get(s) ?? []) hits.push({ pos, term: ti });
  });
  const distinct = new Set(hits.map((h) => h.term)).size;
  if (q.stems.length < 2 || distinct < 2) return distinct > 0 && q.stems.length === 1 ? 1 : 0;
  hits.sort((a, b) => a.pos - b.pos);
  const counts = new Map<number, number>();
  let have = 0;
  let best = Number.POSITIVE_INFINITY;
  let left = 0;
  for (const hit of hits) {
    counts.set(hit.term, (counts.get(hit.term) ?? 0) + 1);
    if (counts.get(hit.term) === 1) have++;
    while (have === distinct) {
      const first = hits[left];
      if (!first) break;
      best = Math.min(best, hit.pos - first.pos + 1);
      const c = (counts.get(first.term) ?? 0) - 1;
      counts.set(first.term, c);
      if (c === 0) have--;
      left++;
    }
  }
  const tightness = Math.min(1, (distinct * 1.5) / best);
  return tightness * (distinct / q.stems.length);
}

function headingOf(q: IQueryModel, sectionPath: string): number {
  if (!sectionPath.trim() || q.stems.length === 0) return 0;
  const pathStems = new Set(terms(sectionPath));
  const recall = weightedShare(q, (s) => (pathStems.has(s) ? 1 : 0));
  // The most specific matching segment: "Passive Transport" beats "Structure … of Plasma Membranes".
  let bestF1 = 0;
  const querySet = new Set(q.stems);
  for (const segment of sectionPath.split(/\s*(?:>|›|\/|\||»)\s*/)) {
    const seg = [...new Set(terms(segment.replace(/^\s*[\d.]+\s*/, "")))];
    if (seg.length === 0) continue;
    const hit = seg.filter((s) => querySet.has(s)).length;
    if (hit === 0) continue;
    const precision = hit / seg.length;
    const segRecall = hit / querySet.size;
    bestF1 = Math.max(bestF1, (2 * precision * segRecall) / (precision + segRecall));
  }
  return 0.6 * recall + 0.4 * bestF1;
}

function titleOf(q: IQueryModel, title: string): number {
  if (!title.trim()) return 0;
  const titleStems = new Set(terms(title));
  return weightedShare(q, (s) => (titleStems.has(s) ? 1 : 0));
}

// ----------------------------------------------------------------------------- type cues

const BE_WORDS = new Set([
  "is",
  "are",
  "was",
  "were",
  "refers",
  "means",
  "describes",
  "denotes",
  "represents",
  "consists",
]);
const NAMING_WORDS = new Set(["called", "termed", "named", "known", "defined", "referred"]);

function saturate(x: number, half: number): number {
  return x <= 0 ? 0 : x / (x + half);
}

/** Strongest definitional sentence for the query terms: "X is …", "… called X", X opening a sentence. */
function definitionCue(q: IQueryModel, doc: IDoc): number {
  const bySentence = new Map<number, IToken[]>();
  for (const t of doc.tokens) {
    const list = bySentence.get(t.sentence);
    if (list) list.push(t);
    else bySentence.set(t.sentence, [t]);
  }
  const querySet = new Set(q.stems);
  let best = 0;
  for (const toks of bySentence.values()) {
    const matched = toks.filter((t) => querySet.has(t.stem) && isContent(t.word));
    if (matched.length === 0) continue;
    const present = new Set(matched.map((t) => t.stem));
    const cov = weightedShare(q, (s) => (present.has(s) ? 1 : 0));
    const hasNaming = toks.some((t) => NAMING_WORDS.has(t.word));
    let strength: number;
    if (q.reverse) {
      // The term is withheld: the answer sentence describes it with the query's words and names it.
      strength = hasNaming ? 1 : toks.some((t) => BE_WORDS.has(t.word)) ? 0.55 : 0.3;
    } else {
      const first = toks[0]?.pos ?? 0;
      const firstMatch = matched[0]?.pos ?? first;
      const lastMatch = matched[matched.length - 1]?.pos ?? first;
      const idxOf = (pos: number) => pos - first;
      const after = toks.slice(idxOf(lastMatch) + 1, idxOf(lastMatch) + 3).map((t) => t.word);
      const before = toks.slice(Math.max(0, idxOf(firstMatch) - 4), idxOf(firstMatch)).map((t) => t.word);
      const defAfter = after.some((w) => BE_WORDS.has(w));
      const namedBefore = before.some((w) => NAMING_WORDS.has(w)) || (before.includes("as") && hasNaming);
      const opens = idxOf(firstMatch) <= 2;
      strength = (namedBefore ? 0.5 : 0) + (defAfter ? 0.35 : 0) + (opens ? 0.25 : 0) + (hasNaming ? 0.1 : 0);
      strength = Math.min(1, 0.15 + strength);
    }
    best = Math.max(best, cov * strength);
  }
  return best;
}

const EXPLAIN_RE =
  /\b(?:because|therefore|thus|hence|consequently|as a result|results? in|leads? to|due to|causes?|caused by|so that|in order to|allows?|enables?|process|mechanism|occurs?|function(?:s)? (?:to|as)|responsible for|depends on|first|then|finally|this means)\b/gi;
const PROCEDURE_RE =
  /(?:=|\b(?:example|solution|strategy|problem|step|steps|calculate|calculated|formula|equation|substitut\w*|solve|solving|unknown|given|discussion)\b|\d+(?:\.\d+)?\s*(?:m\/s|kg|N|J|W|V|A|Hz|K|°C|m|s|cm|km|mol|L)\b)/gi;
const COMPARE_RE =
  /\b(?:whereas|while|unlike|in contrast|contrast|differ(?:s|ence|ences|ent)?|similar(?:ly|ity|ities)?|both|compared|comparison|however|on the other hand|distinguish\w*|versus|alike|same)\b/gi;

function density(re: RegExp, doc: IDoc): number {
  const n = (doc.raw.match(re) ?? []).length;
  return (n * 100) / Math.max(40, doc.tokens.length);
}

function typeCueOf(type: EQueryType, q: IQueryModel, doc: IDoc): number {
  switch (type) {
    case "lookup":
      return definitionCue(q, doc);
    case "general":
      return q.reverse ? definitionCue(q, doc) : 0.5 * definitionCue(q, doc);
    case "concept":
      return saturate(density(EXPLAIN_RE, doc), 3);
    case "procedure":
      return saturate(density(PROCEDURE_RE, doc), 4);
    case "compare": {
      const cues = saturate(density(COMPARE_RE, doc), 2);
      if (q.sides.length < 2) return cues;
      const covered =
        q.sides.filter((side) => side.some((s) => doc.positions.has(s))).length / q.sides.length;
      return 0.5 * cues + 0.5 * covered;
    }
    case "generate":
      // Testable content: definitions and explanations, not captions or credits.
      return 0.5 * definitionCue(q, doc) + 0.5 * saturate(density(EXPLAIN_RE, doc), 3);
  }
}

const BLOOM_CUES: Record<EBloomLevel, RegExp> = {
  Remember: /\b(?:is called|are called|known as|termed|defined as|refers to|is a|are the)\b/gi,
  Understand: EXPLAIN_RE,
  Apply: PROCEDURE_RE,
  Analyze:
    /\b(?:compared?|contrast|whereas|unlike|relationship|components?|structure|differ\w*|categor\w*|pattern)\b/gi,
  Evaluate:
    /\b(?:advantages?|disadvantages?|benefits?|risks?|evidence|argue\w*|limitations?|effective\w*|trade-?offs?|consequences?|ethical|should)\b/gi,
  Create:
    /\b(?:design\w*|experiments?|hypothes[ie]s|models?|predict\w*|investigat\w*|test(?:ed|ing)?|propos\w*)\b/gi,
};

function bloomCueOf(targets: readonly EBloomLevel[], doc: IDoc): number {
  if (targets.length === 0) return 0;
  const total = targets.reduce((sum, level) => sum + saturate(density(BLOOM_CUES[level], doc), 2), 0);
  return total / targets.length;
}

/** Stubs (a heading, a caption, a credit line) rarely answer anything on their own. */
function lengthPriorOf(doc: IDoc): number {
  const n = doc.tokens.length;
  const size = n >= 60 ? 1 : n >= 25 ? 0.85 : 0.6;
  const captionShare =
    (doc.raw.match(/^(?:Figure|Table|Credit)[^\n]*$/gim) ?? []).join("").length / Math.max(1, doc.raw.length);
  return size * (1 - 0.3 * Math.min(1, captionShare));
}

// ----------------------------------------------------------------------------- ranking

function combine(
  type: EQueryType,
  f: Omit<IRerankFeatures, "combined" | "lengthPrior">,
  bloom: boolean,
): number {
  const w = FEATURE_WEIGHTS[type];
  const base =
    w.coverage * f.coverage +
    w.phrase * f.phrase +
    w.proximity * f.proximity +
    w.heading * f.heading +
    w.titleMatch * f.titleMatch +
    w.typeCue * f.typeCue;
  return bloom ? (1 - BLOOM_WEIGHT) * base + BLOOM_WEIGHT * f.bloomCue : base;
}

/** Rerank candidates; returns every candidate, best first (ties keep the input order). */
export function rerankOffline(
  query: IQueryClassification & { original: string },
  candidates: readonly IRerankCandidate[],
  options: IRerankOptions = {},
): IRerankResult[] {
  if (candidates.length === 0) return [];
  const fusedWeight = Math.min(1, Math.max(0, options.fusedWeight ?? DEFAULT_FUSED_WEIGHT));
  const targets = options.bloomTargets ?? [];
  const docs = candidates.map((c) => analyse(c.content));
  const q = buildQueryModel(query, docs);
  const maxFused = Math.max(...candidates.map((c) => (Number.isFinite(c.fusedScore) ? c.fusedScore : 0)));
  const scored = candidates.map((c, i) => {
    const doc = docs[i] as IDoc;
    const partial = {
      coverage: coverageOf(q, doc),
      phrase: phraseOf(q, doc),
      proximity: proximityOf(q, doc),
      heading: headingOf(q, c.sectionPath),
      titleMatch: titleOf(q, c.title),
      typeCue: typeCueOf(query.type, q, doc),
      bloomCue: bloomCueOf(targets, doc),
    };
    const lengthPrior = lengthPriorOf(doc);
    const combined = combine(query.type, partial, targets.length > 0);
    const fusedNorm =
      maxFused > 0 && Number.isFinite(c.fusedScore) ? Math.max(0, c.fusedScore) / maxFused : 0;
    const rerankScore = fusedWeight * fusedNorm + (1 - fusedWeight) * combined * lengthPrior;
    const features: IRerankFeatures = { ...partial, lengthPrior, combined };
    return { result: { key: c.key, rerankScore, features }, i };
  });
  return scored.sort((a, b) => b.result.rerankScore - a.result.rerankScore || a.i - b.i).map((s) => s.result);
}
