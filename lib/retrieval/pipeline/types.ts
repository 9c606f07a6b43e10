import type { LanguageModel } from "ai";
import type { ISqlExecutor } from "@/lib/db";
import type { TRetrievalQueryRequest, TRetrievalQueryResponse } from "@/schema/retrieval.schema";
import type { EZone, IEmbedder, TZoneSpan } from "@/types/chunk.types";
import { passageKey } from "@/types/generation.types";
import type { IQueryClassification } from "@/types/retrieval.types";
import type { IQueryJudgement, IRelevanceFeatures } from "../calibrate";
import type { IHybridRow, IScopeChapter } from "../store";
import type { TPlanTuning } from "./defaults";

export interface IRetrieveDeps {
  db: ISqlExecutor;
  embedder: IEmbedder;
  /** null = offline reranker. */
  model: LanguageModel | null;
  llmTimeoutMs: number;
  /** Optional planner probes start only while the request has used less than this (default PLAN_DEFAULTS). */
  planBudgetMs?: number;
}

/** Switches for the eval's ablations; production uses the defaults (everything on). */
export interface IRetrieveAblation {
  legs?: "both" | "vector" | "keyword";
  classifier?: boolean;
  expansion?: boolean;
  rerank?: boolean;
  diversify?: boolean;
  retry?: boolean;
  chapterNarrowing?: boolean;
  /** Document-level smoothing weight (tuning knob for the eval; default DEFAULT_COHERENCE). */
  coherenceWeight?: number;
  coherenceProtect?: number;
  bm25?: { k1: number; b: number; headingWeight: number };
  /** Added to the classifier's α (tuning knob for the eval). */
  alphaShift?: number;
  /** Weight of the fused score inside the offline reranker (tuning knob for the eval). */
  rerankFusedWeight?: number;
  /** MMR λ of the section spread applied to every non-chapter-wide query (tuning knob; 1 = off). */
  sectionSpreadLambda?: number;
  /** SQL candidate pool as a multiple of the rerank fanout (tuning knob; 1 = the old pool). */
  poolFactor?: number;
  /** Refuse (empty items) when nothing is relevant; the calibration fit switches it off. */
  refuse?: boolean;
  /** Receives each passage's relevance features (the calibration fit, `npm run eval:calibrate`). */
  onJudged?: (
    passages: { documentId: string; chunkIndex: number; sectionPath: string; features: IRelevanceFeatures }[],
    query?: IQueryJudgement,
  ) => void;
  /** Planner stages (the eval's ablations): false switches a stage off. */
  planner?: boolean;
  variants?: boolean;
  hyde?: boolean;
  /** Offline HyDE for term lookups and exam stems too (off in production). */
  hydeLookups?: boolean;
  focus?: boolean;
  /** Exam-question reading (lib/steps/plan/exam.ts): false searches a pasted question as classified. */
  exam?: boolean;
  /** How the probes' lists are fused (default "score"). */
  fusion?: "score" | "rrf";
  /** Offline variants to add (measured; none by default). */
  offlineVariants?: readonly ("synonyms" | "feedback" | "headings")[];
  /** Zone preferences (pipeline/zones.ts): false ranks every zone alike and keeps duplicates. */
  zones?: boolean;
  /** Planner weights and limits (tuning; defaults in PLAN_DEFAULTS). */
  planTuning?: Partial<TPlanTuning>;
}

/**
 * Every setting a retrieval stage reads, resolved once at the top of `retrieve()` from the three
 * places they come from: the request, the eval's ablation knobs and the production defaults
 * (`defaults.ts`, with the deployment's planner budget). Stages read this, never the sources.
 */
export interface IRetrievalSettings {
  /** Which search legs run ("both" in production). */
  legs: "both" | "vector" | "keyword";
  /** The request's own α (wins over the classifier's), if it gave one. */
  alpha: number | undefined;
  /** Added to the classifier's α. */
  alphaShift: number;
  classifier: boolean;
  chapterNarrowing: boolean;
  /** SQL candidate pool as a multiple of the rerank fanout (at least 1). */
  poolFactor: number;
  /** Adjacent expansion: off, the query type's window, or at least one neighbour (the request asked). */
  adjacent: "off" | "classifier" | "at-least-one";
  bm25: { k1: number; b: number; headingWeight: number } | undefined;
  rerank: boolean;
  /** Weight of the fused score inside the offline reranker (undefined: the reranker's default). */
  rerankFusedWeight: number | undefined;
  coherenceWeight: number;
  coherenceProtect: number;
  diversify: boolean;
  sectionSpreadLambda: number;
  zones: boolean;
  /** The corrective retry (off with the planner, and for "the next section"). */
  retry: boolean;
  refuse: boolean;
  onJudged: IRetrieveAblation["onJudged"];
  /** Planner stages. */
  planner: boolean;
  variants: boolean;
  hyde: boolean;
  hydeLookups: boolean;
  focus: boolean;
  exam: boolean;
  fusion: "score" | "rrf";
  offlineVariants: readonly ("synonyms" | "feedback" | "headings")[];
  /** The planner's weights, limits and budgets. */
  plan: TPlanTuning;
}

/** A passage on its way through the pipeline. */
export interface ICandidate {
  row: IHybridRow;
  fused: number;
  rerank?: number;
  expandedFrom?: number;
  explanation?: string;
  /** What the passage is (stored at ingestion, or read from its text): see pipeline/zones.ts. */
  zone?: EZone;
  zoneSpans?: TZoneSpan[];
}

export type TReranker = TRetrievalQueryResponse["debug"]["reranker"];

/** What the query-understanding stage decided, read by every later stage. */
export interface IQueryUnderstanding {
  chapters: IScopeChapter[];
  classification: IQueryClassification;
  /** Vector weight of the first pass (request > ablation legs > classifier). */
  alpha: number;
  /** Passages the reranker scores. */
  fanout: number;
  /** Chapter the search is restricted to: the filter's, or one the query names; null = whole scope. */
  chapterNumber: number | null;
  /** SQL candidate pool size. */
  limit: number;
  explanations: string[];
}

/** One search over the scope: its text, weights and breadth. */
export interface IProbe {
  searchText: string;
  alpha: number;
  limit: number;
  chapter: number | null;
  /** Which legs to run; default both (the settings' `legs` still wins). */
  legs?: "both" | "vector" | "keyword";
}

/** The candidates of one pass through search → expand → rerank → order, with its timings. */
export interface IPassResult {
  candidates: ICandidate[];
  vectorMs: number;
  keywordMs: number;
  fuseMs: number;
  embedMs: number;
  rerankMs: number;
  scopeChunks: number;
  reranker: TReranker;
  warnings: string[];
}

/** Everything a stage may read: the request and what earlier stages decided. */
export interface IRetrievalRun {
  deps: IRetrieveDeps;
  userId: string;
  req: TRetrievalQueryRequest;
  /** Every setting, resolved once from the request, the ablation knobs and the defaults. */
  settings: IRetrievalSettings;
  understanding: IQueryUnderstanding;
  /**
   * When the request's language-model budget ends (performance.now() time): the planner's call and
   * the reranker share one `llmTimeoutMs`, so a configured model never makes a request wait longer
   * than the reranker alone could before the planner existed.
   */
  llmDeadline: number;
}

export const keyOf = (documentId: string, chunkIndex: number) => passageKey({ documentId, chunkIndex });

/** A chunk's section, as the section spread groups passages. */
export const sectionOf = (row: { document_id: string; section_path: string }) =>
  `${row.document_id}|${row.section_path}`;

/**
 * A chunk's section at the book's section level: the first two segments of its heading trail
 * ("Chapter 8: Photosynthesis > 8.2 The Light-Dependent Reactions"), whatever sub-heading it sits under.
 */
export const bookSectionOf = (row: { document_id: string; section_path: string }) =>
  `${row.document_id}|${row.section_path.split(" > ").slice(0, 2).join(" > ")}`;

/** The score a candidate is ranked by: its rerank score when it has one. */
export const scoreOf = (c: ICandidate) => c.rerank ?? c.fused;
