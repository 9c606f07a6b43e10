import { contentWords, stem, terms } from "@/lib/text/tokenize";
import { usageCount } from "@/lib/text/wordnet";

/**
 * Calibrated relevance: one number per passage that means the same for every query, so a teacher
 * (and the API) can tell "the best of a bad lot" from a real match. The fused and rerank scores
 * cannot: `bm25 / max` gives the best keyword match 1 whatever it matched, and `1/(1+distance)`
 * never falls below 0.5 for any text.
 *
 * It is a logistic model over absolute evidence of relevance:
 * - coverage: the share of the query's topic words in the passage, each weighted by how specific
 *   it is (rare in general English → more weight; WordNet's SemCor counts, as the offline embedder);
 * - heading: the same share over the passage's heading trail;
 * - cosine: the embedding similarity itself (1 − cosine distance), for embedders it was fitted on,
 *   and its lift over the median of the searched pool (similarity against a background);
 * - scope coverage: the share of the topic words found anywhere in the retrieved candidates, which
 *   is near 0 for a query about something the scope does not contain.
 *
 * The coefficients were fitted on the open eval's even-numbered queries (passages labelled by their
 * section's grade ≥ 1) plus the Biology half of eval/retrieval/out-of-scope.jsonl, and checked on
 * the odd queries and the Physics half (`npm run eval:calibrate`; README, "Refusal").
 */

export interface IRelevanceFeatures {
  coverage: number;
  heading: number;
  /** null when the passage has no vector score (an adjacent neighbour, a keyword-only search). */
  cosine: number | null;
  /** Cosine above the median cosine of the searched pool (vector similarity against its background). */
  cosineLift: number | null;
  scopeCoverage: number;
}

interface ICalibration {
  intercept: number;
  coverage: number;
  heading: number;
  cosine: number;
  cosineLift: number;
  scopeCoverage: number;
}

/** Fitted for the offline embedder (`npm run eval:calibrate`). */
const OFFLINE_CALIBRATION: ICalibration = {
  intercept: -3.7,
  coverage: 0.69,
  heading: 2.73,
  cosine: 1.92,
  cosineLift: 1.75,
  scopeCoverage: 2.29,
};

/**
 * Other embedders' cosines live on other scales, so for them only the lexical evidence counts
 * (the same fit without the cosine term).
 */
const LEXICAL_CALIBRATION: ICalibration = {
  intercept: -3.59,
  coverage: 1.19,
  heading: 2.96,
  cosine: 0,
  cosineLift: 0,
  scopeCoverage: 2.42,
};

const CALIBRATIONS: Record<string, ICalibration> = {
  "paperwise-offline-v1": OFFLINE_CALIBRATION,
};

/**
 * Nothing in the top results reaches this: the scope has nothing on the query (`refusal`). The
 * highest threshold that refused none of the 600 open queries: a wrongly refused exam question
 * costs a teacher more than weak, unselected passages for an off-topic query (README, "Refusal").
 */
export const REFUSE_BELOW = 0.2;
/**
 * Passages below this are shown as "weak match" and not preselected as context. 0.5: a passage the
 * calibration thinks is as likely off-topic as on it is the teacher's call, not a default (issue 29
 * found 0.46 and 0.48 ticked under 0.89 and 0.84).
 */
export const PRESELECT_FROM = 0.5;

/** How much a word says about a topic, in (0, 1]: words common in general English weigh less. */
export function specificity(word: string): number {
  if (/^\d+$/.test(word)) return 0.3;
  return 1 / (1 + 0.2 * Math.log1p(usageCount(word)));
}

export interface IQueryEvidence {
  /** Stem → weight, over the query's topic words. */
  weights: Map<string, number>;
  total: number;
}

/** The query side: its topic words' stems and weights (empty for a query with no topic words). */
export function queryEvidence(topicWords: readonly string[]): IQueryEvidence {
  const weights = new Map<string, number>();
  for (const w of topicWords) {
    for (const word of contentWords(w)) {
      const s = stem(word);
      weights.set(s, Math.max(weights.get(s) ?? 0, specificity(word)));
    }
  }
  let total = 0;
  for (const v of weights.values()) total += v;
  return { weights, total };
}

function share(q: IQueryEvidence, present: ReadonlySet<string>): number {
  if (q.total <= 0) return 0;
  let sum = 0;
  for (const [s, w] of q.weights) if (present.has(s)) sum += w;
  return sum / q.total;
}

export function cosineOf(vectorScore: number | null): number | null {
  if (vectorScore === null || !(vectorScore > 0)) return null;
  return 1 - (1 / vectorScore - 1);
}

/** Features of one passage (`scopeStems`: stems of every candidate the search returned). */
export function relevanceFeatures(
  q: IQueryEvidence,
  passage: { content: string; sectionPath: string; vectorScore: number | null; stems?: ReadonlySet<string> },
  scope: { stems: ReadonlySet<string>; medianCosine: number | null },
): IRelevanceFeatures {
  const cosine = cosineOf(passage.vectorScore);
  return {
    coverage: share(q, passage.stems ?? new Set(terms(passage.content))),
    heading: share(q, new Set(terms(passage.sectionPath))),
    cosine,
    cosineLift: cosine !== null && scope.medianCosine !== null ? cosine - scope.medianCosine : null,
    scopeCoverage: share(q, scope.stems),
  };
}

/** Median cosine of the passages that have one (the background the best are measured against). */
export function medianCosine(vectorScores: readonly (number | null)[]): number | null {
  const cs = vectorScores
    .map(cosineOf)
    .filter((c): c is number => c !== null)
    .sort((a, b) => a - b);
  return cs.length ? cs[Math.floor(cs.length / 2)]! : null;
}

/** The calibrated relevance of a passage with these features, in [0, 1]. */
export function calibratedRelevance(f: IRelevanceFeatures, embeddingModel: string): number {
  const c = CALIBRATIONS[embeddingModel] ?? LEXICAL_CALIBRATION;
  const useCosine = f.cosine !== null && c.cosine !== 0;
  const lexical = useCosine ? c : CALIBRATIONS[embeddingModel] ? LEXICAL_CALIBRATION : c;
  const z =
    lexical.intercept +
    lexical.coverage * f.coverage +
    lexical.heading * f.heading +
    lexical.scopeCoverage * f.scopeCoverage +
    (useCosine ? c.cosine * (f.cosine ?? 0) + c.cosineLift * (f.cosineLift ?? 0) : 0);
  return 1 / (1 + Math.exp(-z));
}

/** Feature vector in a fixed order, for fitting (`npm run eval:calibrate`). */
export const FEATURE_ORDER = ["coverage", "heading", "cosine", "cosineLift", "scopeCoverage"] as const;

/** One query word as the scope sees it (the refusal's scope evidence). */
export interface IScopeWord {
  word: string;
  /** specificity(word): rare in general English → near 1. */
  specificity: number;
  /** Passages of the whole scope containing it (scope-vocabulary.ts). */
  df: number;
  /** In the best passage. */
  inBest: boolean;
}

/** What the judge saw about the query as a whole (the refusal fit, `npm run eval:calibrate`). */
export interface IQueryJudgement {
  passages: number;
  words: IScopeWord[];
  bestRelevance: number;
  best: IRelevanceFeatures | null;
}

/**
 * The query's scope evidence: the share of its topic words (weighted by specificity) that occur
 * nowhere in the scope. Near 0 for a query in the scope's own words; high for a query whose
 * specific words the scope never uses ("offside", "carbonara", "Lagrangian").
 */
export function absentShare(words: readonly IScopeWord[]): number | null {
  let total = 0;
  let absent = 0;
  for (const w of words) {
    total += w.specificity;
    if (w.df === 0) absent += w.specificity;
  }
  return total > 0 ? absent / total : null;
}

/**
 * The refusal's query-level model (offline embedder): a logistic score over the best passage's
 * calibrated relevance (as a logit), its cosine and cosine lift (a query whose embedding sits near
 * the bulk of the scope has a high pool median, so cosine up and lift down both count), and the
 * absent share. Fitted on the even lines of the in-scope sets (open Biology queries, Biology's
 * pasted MCQs and short answers, Physics section titles) against
 * eval/retrieval/out-of-scope-calibration.jsonl and out-of-scope.jsonl; the odd lines and
 * out-of-scope-heldout.jsonl check it (`npm run eval:calibrate -- --dump-queries`,
 * docs/retrieval-quality.md). `cut` is the score below which a query is refused: it refused 6 of
 * 1,017 even-line in-scope queries.
 */
const SCOPE_MODEL = {
  intercept: -3.947,
  logitBest: 0.767,
  cosine: 27.912,
  cosineLift: -16.878,
  absent: -7.855,
  cut: -2.4,
};

const logit = (p: number) => {
  const q = Math.min(1 - 1e-4, Math.max(1e-4, p));
  return Math.log(q / (1 - q));
};

/**
 * The query's relevance to the scope, on the scale of REFUSE_BELOW (below it: refused): the
 * query-level model's score shifted so that its cut falls on REFUSE_BELOW. Null where the model
 * does not apply (another embedder, no vector score, no scope evidence): the best passage's
 * relevance decides alone, as before.
 */
export function queryRelevance(
  best: number,
  bestFeatures: IRelevanceFeatures | null,
  absent: number | null,
  embeddingModel: string,
): number | null {
  if (!CALIBRATIONS[embeddingModel] || absent === null || !bestFeatures) return null;
  const { cosine, cosineLift } = bestFeatures;
  if (cosine === null || cosineLift === null) return null;
  const m = SCOPE_MODEL;
  const z =
    m.intercept +
    m.logitBest * logit(best) +
    m.cosine * cosine +
    m.cosineLift * cosineLift +
    m.absent * absent;
  return 1 / (1 + Math.exp(-(z - m.cut + logit(REFUSE_BELOW))));
}
