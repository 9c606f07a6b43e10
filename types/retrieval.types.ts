import type { EBloomLevel } from "./bloom.types";

// ---------------------------------------------------------------------------------------------
// pipeline stage types (classify → fuse → rerank → diversify → confidence; offline enhancement)
// ---------------------------------------------------------------------------------------------

export const QUERY_TYPES = ["lookup", "concept", "procedure", "compare", "generate", "general"] as const;
export type EQueryType = (typeof QUERY_TYPES)[number];

/** Headline of a query plan (lib/steps/plan/offline.ts): the most involved step it takes. */
export const PLAN_STRATEGIES = ["single", "multi-query", "decompose", "hyde"] as const;
export type EPlanStrategy = (typeof PLAN_STRATEGIES)[number];

/** Where a probe's search text came from. */
export const PROBE_SOURCES = [
  "query",
  "sub-query",
  "option",
  "key-phrase",
  "client-variant",
  "session",
  "llm-variant",
  "llm-hyde",
  "hyde",
  "synonyms",
  "feedback",
  "headings",
] as const;
export type EProbeSource = (typeof PROBE_SOURCES)[number];

/** Question formats a teacher can ask for in a `generate` query. */
export const REQUESTED_QUESTION_TYPES = ["mcq", "short", "long", "case"] as const;
export type ERequestedQuestionType = (typeof REQUESTED_QUESTION_TYPES)[number];

/** How wide a `generate` request is: a whole chapter, one section/topic, or one learning objective. */
export const GENERATE_SCOPES = ["chapter", "topic", "objective"] as const;
export type EGenerateScope = (typeof GENERATE_SCOPES)[number];

export type TAdjacentWindow = 0 | 1 | 2;

export interface IQueryClassification {
  type: EQueryType;
  /** Weight of the vector signal in `alpha*vec + (1-alpha)*kw`. */
  alpha: number;
  /** Rerank fan-out = topK × this. */
  fanoutMultiplier: number;
  /** Neighbouring chunks (each side) to pull in around a hit. */
  adjacentWindow: TAdjacentWindow;
  /** The text to embed and to keyword-search: instructions and question scaffolding removed. */
  searchText: string;
  /** Content words of `searchText` (lower-cased, unstemmed, de-duplicated, in order). */
  topicTerms: string[];
  requestedCount?: number;
  requestedQuestionType?: ERequestedQuestionType;
  /** Chapter number named in the query ("chapter 5") or matched from `chapters` option. */
  chapterRef?: number;
  /** Only for `generate`. */
  scope?: EGenerateScope;
  /** Broad requests (chapter-wide, "quiz on …") should be diversified across sections. */
  broad: boolean;
  bloomHint?: EBloomLevel;
  /** Instruction text for an LLM reranker. */
  rerankGuidelines: string;
  /** Human-readable explanation of every decision. */
  reasons: string[];
}

/** A chapter known in the current scope, so "Generate 10 MCQs on Photosynthesis" is seen as chapter-wide. */
export interface IChapterRef {
  number: number;
  name: string;
}

export interface IClassifyOptions {
  chapters?: readonly IChapterRef[];
}

export interface IFusionCandidate {
  key: string;
  /** Normalised vector similarity in [0,1], e.g. `normalizeVector(distance)`. */
  vectorScore?: number;
  /** Normalised keyword score in [0,1], e.g. `normalizeKeyword(rank, maxRank)`. */
  keywordScore?: number;
}

export type TFused<T extends IFusionCandidate> = T & { fusedScore: number };

export interface IRankedKey {
  key: string;
  score: number;
}

export interface IRerankCandidate {
  key: string;
  content: string;
  /** Heading trail of the chunk, e.g. "8 Photosynthesis > 8.2 The Light-Dependent Reactions". */
  sectionPath: string;
  title: string;
  fusedScore: number;
}

export interface IRerankFeatures {
  /** idf-weighted share of query terms present in the chunk. */
  coverage: number;
  /** Adjacent query-term pairs found adjacent in the chunk. */
  phrase: number;
  /** Density of the tightest window holding the chunk's query terms. */
  proximity: number;
  /** idf-weighted share of query terms in the section path. */
  heading: number;
  /** Share of query terms in the document title. */
  titleMatch: number;
  /** Query-type cue (definition, explanation, worked example, comparison), 0 when not applicable. */
  typeCue: number;
  /** Cues for the targeted Bloom levels, 0 when none are targeted. */
  bloomCue: number;
  /** 1 for normal chunks, lower for stubs (a heading, a caption). */
  lengthPrior: number;
  /** Weighted blend of the above, in [0,1]. */
  combined: number;
}

export interface IRerankResult {
  key: string;
  rerankScore: number;
  features: IRerankFeatures;
}

export interface IRerankOptions {
  bloomTargets?: readonly EBloomLevel[];
  /** Weight of the (max-normalised) fused score in the final score; default 0.55. */
  fusedWeight?: number;
}

export interface IDiversifyOptions<T> {
  /** Section (or any group) of an item. */
  key: (item: T) => string;
  /** Relevance of an item; higher is better. */
  score: (item: T) => number;
  /** 1 = pure relevance order, 0 = pure breadth; default 0.5. */
  lambda?: number;
  /** Only reorder/return this many items (default: all). */
  limit?: number;
}

export interface IConfidenceInput {
  /** Top-K scores (fused or rerank), descending, in [0,1]. */
  scores: readonly number[];
  /** Query terms (raw words; stemmed inside). */
  queryTerms: readonly string[];
  /** Contents of the top results, best first. */
  topContents: readonly string[];
}

export interface IConfidence {
  /** 0–100. */
  confidence: number;
  reasons: string[];
}

export type EAddedTermSource = "synonym" | "metadata" | "feedback" | "bloom";

export interface IAddedTerm {
  term: string;
  source: EAddedTermSource;
  reason: string;
}

export interface ITermHighlight<TSource extends string = EAddedTermSource> {
  term: string;
  /** Offsets into `enhancedQuery`, end-exclusive. */
  start: number;
  end: number;
  source: TSource;
}

export interface IEnhanceFilters {
  board: string;
  grade: string;
  subject: string;
  chapterName?: string;
}

export interface IEnhanceOfflineInput {
  rawQuery: string;
  classification: IQueryClassification;
  filters: IEnhanceFilters;
  bloomTargets?: readonly EBloomLevel[];
  /** Contents of the top candidate chunks, for pseudo-relevance feedback. */
  feedbackDocs?: readonly string[];
  /**
   * Optional idf background for feedback terms (e.g. the whole fan-out). Off by default: on the
   * open set it demoted the topical terms every candidate shares and lowered nDCG@10.
   */
  backgroundDocs?: readonly string[];
  /** Synonym source (WordNet in production); injected so this module stays pure. */
  synonyms?: (word: string) => string[];
}

export interface IEnhanceOfflineResult {
  /** The user's query verbatim, then the added terms (for display and for an LLM step). */
  enhancedQuery: string;
  /** What to search: `classification.searchText` (instructions removed) + the added terms. */
  searchText: string;
  addedTerms: IAddedTerm[];
  explanations: string[];
  /** Where each added term sits in `enhancedQuery`. */
  termHighlights: ITermHighlight[];
  /** Where the user's own content words sit in `enhancedQuery`. */
  originalHighlights: ITermHighlight<"original">[];
}
