import { contentWords, stem, terms } from "@/lib/text/tokenize";
import { zipf } from "@/lib/text/word-frequency";
import { usageCount } from "@/lib/text/wordnet";
import type { IMeaningLift } from "@/lib/text/wordnet-domains";
import refusalModel from "./refusal-model.json";

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
  /** Passages of the background containing it (other subjects, the subject's other classes). */
  bgDf: number;
  /** In the best passage. */
  inBest: boolean;
  /** Indices of the returned passages (best-ranked first) that contain it. */
  hits: number[];
  /** Its general-language Zipf value (word-frequency.ts); looked up from `word` when absent. */
  zipf?: number;
  /**
   * How much the scope uses the word's WordNet topic domains and supersenses, against WordNet as a
   * whole (wordnet-domains.ts `meaningLift`); absent when the scope's meaning profile is unknown.
   */
  meaning?: IMeaningLift;
}

/** One of the query's two-word phrases (query-phrases.ts) as the scope sees it. */
export interface IScopePhrase {
  /** As the query has it, lower-cased ("supply and demand"). */
  phrase: string;
  /** Its two content words. */
  words: [string, string];
  /** Scope passages holding the phrase key (scope-vocabulary.ts `scopePhraseIndex`: the two words in this order, at most one stop word between). */
  df: number;
  /** Background passages holding it. */
  bgDf: number;
}

/** What the judge saw about the query as a whole (the refusal fit, `npm run eval:fit-refusal`). */
export interface IQueryJudgement {
  /** Passages in the scope. */
  passages: number;
  /** Passages in the background (0: nothing else visible). */
  bgPassages: number;
  words: IScopeWord[];
  bestRelevance: number;
  best: IRelevanceFeatures | null;
  /** The query's phrases with their scope counts; absent when not looked up (phraseAbsent is 0). */
  phrases?: IScopePhrase[];
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
 * How much more often a word is used in the background than in the scope, as a log ratio of the
 * two passage rates with add-one smoothing, clamped to [−4, 4]. Positive: another subject's word
 * ("potential energy" asked of Biology); negative: this subject's own. 0 without a background or
 * for a word neither side uses (absentShare counts those).
 */
export function keyness(w: Pick<IScopeWord, "df" | "bgDf">, passages: number, bgPassages: number): number {
  if (bgPassages <= 0 || passages <= 0 || (w.df === 0 && w.bgDf === 0)) return 0;
  const k = Math.log((w.bgDf + 1) / (bgPassages + 1)) - Math.log((w.df + 1) / (passages + 1));
  return Math.max(-4, Math.min(4, k));
}

/** Words per passage assumed when a general-language rate is turned into a passage rate. */
const WORDS_PER_PASSAGE = 150;

/**
 * How much more often the scope uses a word than everyday English, as the log ratio of its passage
 * rate in the scope to the passage rate general-language frequency predicts (both smoothed),
 * clamped to [−4, 8]. About 0 for an ordinary word used as often as anywhere ("cost" in Biology),
 * high for the scope's own terms ("mitochondria": hundreds of passages, rare in speech).
 */
export function generalKeyness(w: Pick<IScopeWord, "df">, passages: number, wordZipf: number): number {
  if (passages <= 0) return 0;
  const scopeRate = (w.df + 0.5) / (passages + 1);
  const generalRate = Math.min(1, (WORDS_PER_PASSAGE * 10 ** wordZipf) / 1e9);
  return Math.max(-4, Math.min(8, Math.log(scopeRate / generalRate)));
}

/**
 * How specialist a word is in everyday English, in [0, 1]: 1 at or below Zipf 1.5 (never or once
 * in 51 million spoken words), 0 at Zipf 4.5 and above (once in 30,000 words or more often).
 */
export function specialism(wordZipf: number): number {
  return Math.max(0, Math.min(1, (4.5 - wordZipf) / 3));
}

/** A word's weight in the query-level features: specific in English and rare in the scope. */
function scopeWeight(w: IScopeWord, passages: number): number {
  return w.specificity * Math.log((passages + 1) / (w.df + 1));
}

/**
 * The query-level features the refusal model may use (the model file names the ones it uses):
 * - logitBest, cosine, cosineLift: the best passage's calibrated relevance (as a logit) and its
 *   embedding evidence against the searched pool;
 * - absent: absentShare;
 * - foreign: the specificity-weighted mean of the positive keyness (words that belong to another
 *   subject or class more than to this one), scaled to [0, 1];
 * - keyness: the same mean of the signed keyness, scaled to [−1, 1];
 * - coOccur: the largest share of the query's words (weighted by specificity and rarity in the
 *   scope) that one returned passage holds together, rather than spread over the scope;
 * - topCoverage: the same share over all the returned passages together;
 * - rarity: the specificity-weighted mean of how rare each word is in the scope (0: in every
 *   passage, 1: in none), a graded absentShare ("chocolate" in 2 of 5,000 Biology passages);
 * - anchor: the query's best-supported specific word, max of specificity × log(1 + df) /
 *   log(1 + passages): a query about the subject names at least one thing the scope treats often;
 * and against general language (SUBTLEX-US, word-frequency.ts), the background that knows every
 * subject: per word, `generalKeyness` (how much more often the scope uses it than everyday English)
 * and `specialism` (how rare it is in everyday English):
 * - generalLift: the query's most scope-typical word, max of generalKeyness, scaled to [−0.25, 1];
 * - generalMean: the specificity-weighted mean of generalKeyness, scaled to [−0.5, 1];
 * - specialistMissing: the share of the query's specialist words (weighted by specialism) that the
 *   scope does not use more than everyday English does ("titration" asked of Biology), 0 with none;
 * - specialistBest: the share of them the best passage holds (1 with none);
 * - specialistMass: how many specialist words the query has (sum of specialism, capped at 3, /3):
 *   "opportunity cost" has none, and ordinary words alone say little about a subject;
 * and against WordNet's taxonomy (wordnet-domains.ts: the scope's own vocabulary labelled with
 * WordNet topic domains and supersenses, against everyday English labelled the same way), per word its best-supported
 * domain lift and supersense lift in [−4, 4] (`IScopeWord.meaning`):
 * - domainOff: the specificity-weighted mean of how far below WordNet's rate the scope uses the
 *   word's topic domain (max(0, −lift)/4; 0 for a word with no domain): "offside" (sport), "igneous"
 *   (geology) asked of Biology;
 * - senseOff: the same for the word's supersense (noun.food, noun.possession, …);
 * - meaningOff: the specificity-weighted share of words whose every label (domain and supersense)
 *   the scope uses less than WordNet does.
 * All three are 0 when the scope's meaning profile is unknown (the value of in-scope words).
 * And from the query's two-word phrases (query-phrases.ts), counted in the scope's phrase index (scope-vocabulary.ts `scopePhraseIndex`):
 * - phraseAbsent: the share of the phrases whose two words the scope both uses but never together
 *   ("opportunity cost", "central banks" asked of Biology), each weighted by its rarer word's
 *   specificity; 0 with no such phrase. A query in the scope's own words uses its phrases too;
 * - phraseForeign: the share of those absent phrases that the background does use ("light
 *   dependent reactions" asked of Physics, with Biology in the database).
 */
export const REFUSAL_FEATURES = [
  "logitBest",
  "cosine",
  "cosineLift",
  "absent",
  "foreign",
  "keyness",
  "coOccur",
  "topCoverage",
  "rarity",
  "anchor",
  "generalLift",
  "generalMean",
  "specialistMissing",
  "specialistBest",
  "specialistMass",
  "domainOff",
  "senseOff",
  "meaningOff",
  "phraseAbsent",
  "phraseForeign",
] as const;
export type TRefusalFeature = (typeof REFUSAL_FEATURES)[number];

const logit = (p: number) => {
  const q = Math.min(1 - 1e-4, Math.max(1e-4, p));
  return Math.log(q / (1 - q));
};

/** The query-level features, or null where the model does not apply (no vector score, no words). */
export function refusalFeatures(j: IQueryJudgement): Record<TRefusalFeature, number> | null {
  const absent = absentShare(j.words);
  const f = j.best;
  if (absent === null || !f || f.cosine === null || f.cosineLift === null) return null;
  let total = 0;
  let foreign = 0;
  let signed = 0;
  for (const w of j.words) {
    const k = keyness(w, j.passages, j.bgPassages);
    total += w.specificity;
    foreign += w.specificity * Math.max(0, k);
    signed += w.specificity * k;
  }
  const logN = Math.log(j.passages + 1);
  let rarity = 0;
  let anchor = 0;
  for (const w of j.words) {
    if (logN > 0) {
      rarity += w.specificity * (Math.log((j.passages + 1) / (w.df + 1)) / logN);
      anchor = Math.max(anchor, (w.specificity * Math.log(1 + w.df)) / logN);
    }
  }
  let weightTotal = 0;
  const perPassage = new Map<number, number>();
  let inTop = 0;
  for (const w of j.words) {
    const v = scopeWeight(w, j.passages);
    weightTotal += v;
    if (w.hits.length) inTop += v;
    for (const i of w.hits) perPassage.set(i, (perPassage.get(i) ?? 0) + v);
  }
  const coOccur = weightTotal > 0 ? Math.max(0, ...perPassage.values()) / weightTotal : 0;
  let lift = Number.NEGATIVE_INFINITY;
  let liftSum = 0;
  let specialTotal = 0;
  let specialMissing = 0;
  let specialBest = 0;
  for (const w of j.words) {
    const z = w.zipf ?? zipf(w.word);
    const g = generalKeyness(w, j.passages, z);
    lift = Math.max(lift, g);
    liftSum += w.specificity * g;
    const sp = specialism(z);
    specialTotal += sp;
    specialMissing += sp * (1 - Math.max(0, Math.min(1, g / 4)));
    if (w.inBest) specialBest += sp;
  }
  let domainOff = 0;
  let senseOff = 0;
  let meaningOff = 0;
  for (const w of j.words) {
    const m = w.meaning;
    if (!m) continue;
    if (m.domain !== null) domainOff += w.specificity * Math.max(0, -m.domain);
    if (m.supersense !== null) senseOff += w.specificity * Math.max(0, -m.supersense);
    const labels = [m.domain, m.supersense].filter((x): x is number => x !== null);
    if (labels.length > 0 && Math.max(...labels) < 0) meaningOff += w.specificity;
  }
  const phrase = phraseEvidence(j);
  return {
    logitBest: logit(j.bestRelevance),
    cosine: f.cosine,
    cosineLift: f.cosineLift,
    absent,
    foreign: total > 0 ? foreign / total / 4 : 0,
    keyness: total > 0 ? signed / total / 4 : 0,
    coOccur,
    topCoverage: weightTotal > 0 ? inTop / weightTotal : 0,
    rarity: total > 0 ? rarity / total : 0,
    anchor,
    generalLift: Number.isFinite(lift) ? Math.max(-2, lift) / 8 : 0,
    generalMean: total > 0 ? Math.max(-4, liftSum / total) / 8 : 0,
    specialistMissing: specialTotal > 0 ? specialMissing / specialTotal : 0,
    specialistBest: specialTotal > 0 ? specialBest / specialTotal : 1,
    specialistMass: Math.min(3, specialTotal) / 3,
    domainOff: total > 0 ? domainOff / total / 4 : 0,
    senseOff: total > 0 ? senseOff / total / 4 : 0,
    meaningOff: total > 0 ? meaningOff / total : 0,
    phraseAbsent: phrase.absent,
    phraseForeign: phrase.foreign,
  };
}

/**
 * phraseAbsent and phraseForeign (above). Only phrases whose two words the scope uses count: a word
 * the scope never uses is `absent`'s evidence already, and counting its phrases again would weigh
 * one missing word twice.
 */
export function phraseEvidence(j: Pick<IQueryJudgement, "phrases" | "words">): {
  absent: number;
  foreign: number;
} {
  const scopeDf = new Map(j.words.map((w) => [stem(w.word.toLowerCase()), w.df]));
  let total = 0;
  let absent = 0;
  let foreign = 0;
  for (const p of j.phrases ?? []) {
    const [a, b] = p.words;
    if (!((scopeDf.get(stem(a)) ?? 0) > 0 && (scopeDf.get(stem(b)) ?? 0) > 0)) continue;
    const weight = Math.min(specificity(a), specificity(b));
    total += weight;
    if (p.df === 0) {
      absent += weight;
      if (p.bgDf > 0) foreign += weight;
    }
  }
  return total > 0 ? { absent: absent / total, foreign: foreign / total } : { absent: 0, foreign: 0 };
}

/** A fitted query-level refusal model (`lib/retrieval/refusal-model.json`, `npm run eval:fit-refusal`). */
export interface IRefusalModel {
  embeddingModel: string;
  features: TRefusalFeature[];
  intercept: number;
  weights: number[];
  /** The score (log-odds) below which a query is refused. */
  cut: number;
}

/** The model's score (log-odds of "in scope") for these features. */
export function refusalScore(m: IRefusalModel, f: Record<TRefusalFeature, number>): number {
  let z = m.intercept;
  for (const [i, name] of m.features.entries()) z += (m.weights[i] ?? 0) * f[name];
  return z;
}

const SCOPE_MODEL: IRefusalModel = refusalModel as IRefusalModel;

/** The features that need the scope's WordNet meaning profile (scope-vocabulary.ts `scopeMeaning`). */
export const MEANING_FEATURES: readonly TRefusalFeature[] = ["domainOff", "senseOff", "meaningOff"];

/**
 * Whether the shipped model reads the meaning profile: if not, the server never builds it (the
 * first query of a scope would pay for WordNet's tables and a scan of the scope for nothing).
 */
export const MODEL_USES_MEANING = SCOPE_MODEL.features.some((f) => MEANING_FEATURES.includes(f));

/** The features that need the query's phrase counts (scope-vocabulary.ts `scopePhraseLookup`). */
export const PHRASE_FEATURES: readonly TRefusalFeature[] = ["phraseAbsent", "phraseForeign"];

/** Whether the shipped model reads the phrase counts: if not, the server does not look them up. */
export const MODEL_USES_PHRASES = SCOPE_MODEL.features.some((f) => PHRASE_FEATURES.includes(f));

/**
 * The query's relevance to the scope, on the scale of REFUSE_BELOW (below it: refused): the
 * query-level model's score (refusal-model.json, fitted by `npm run eval:fit-refusal` on the
 * in-scope sets of both books against the out-of-scope calibration sets, never the held-out one)
 * shifted so that its cut falls on REFUSE_BELOW. Null where the model does not apply (another
 * embedder, no vector score, no scope evidence): the best passage's relevance decides alone.
 */
export function queryRelevance(
  j: IQueryJudgement,
  embeddingModel: string,
  model: IRefusalModel = SCOPE_MODEL,
): number | null {
  if (embeddingModel !== model.embeddingModel) return null;
  const f = refusalFeatures(j);
  if (!f) return null;
  const z = refusalScore(model, f);
  return 1 / (1 + Math.exp(-(z - model.cut + logit(REFUSE_BELOW))));
}
