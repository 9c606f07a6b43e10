import { contentWords, stem, terms } from "@/lib/text/tokenize";
import { meaningLift } from "@/lib/text/wordnet-domains";
import type { TRetrievalQueryResponse } from "@/schema/retrieval.schema";
import {
  calibratedRelevance,
  type IRelevanceFeatures,
  type IScopeWord,
  medianCosine,
  PRESELECT_FROM,
  queryEvidence,
  queryRelevance,
  REFUSE_BELOW,
  relevanceFeatures,
  specificity,
} from "../calibrate";
import type { IScopeVocabulary } from "../scope-vocabulary";
import { type ICandidate, type IRetrievalRun, keyOf, type TReranker } from "./types";

/** Candidates whose words count as "found in the scope" (the searched pool, best first). */
const SCOPE_SAMPLE = 48;

/**
 * Stems per chunk, shared across requests: a chunk's text never changes under its key (re-ingestion
 * makes a new document), and the same passages recur across a teacher's queries. Bounded; cleared
 * when full.
 */
const STEM_CACHE_MAX = 20_000;
const stemCache = new Map<string, ReadonlySet<string>>();
function stemsOf(c: ICandidate): ReadonlySet<string> {
  const key = keyOf(c.row.document_id, c.row.chunk_index);
  let stems = stemCache.get(key);
  if (!stems) {
    stems = new Set(terms(c.row.content));
    if (stemCache.size >= STEM_CACHE_MAX) stemCache.clear();
    stemCache.set(key, stems);
  }
  return stems;
}

/**
 * The language-model reranker's reading of the pool, used by the refusal in production: below
 * MODEL_NOTHING_BELOW (every passage scored 0 or 1 of 10) the model read the closest passages and
 * found none about the query; from MODEL_ANSWERS_FROM (7 of 10) it found one that answers it. The
 * offline refusal model cannot tell a neighbouring subject's specialist words from the scope's own
 * (docs/retrieval-quality.md, "What is not done"); a model that reads the passages can. Between the
 * two, or without a language-model rerank, the calibrated model decides alone. Not measured here:
 * no key is reachable from this machine (docs/retrieval-quality.md, "The model's reading").
 */
export const MODEL_NOTHING_BELOW = 0.2;
export const MODEL_ANSWERS_FROM = 0.7;

export type TModelVerdict = "nothing" | "answers" | "unsure";

/** What the language-model rerank says of the pool; null when no language model reranked it. */
export function modelVerdict(reranker: TReranker, pool: readonly ICandidate[]): TModelVerdict | null {
  const best = reranker === "llm" ? modelBest(pool) : null;
  if (best === null) return null;
  if (best < MODEL_NOTHING_BELOW) return "nothing";
  return best >= MODEL_ANSWERS_FROM ? "answers" : "unsure";
}

/** The best rerank score of the pool, or null when no passage has one. */
function modelBest(pool: readonly ICandidate[]): number | null {
  const scores = pool.flatMap((c) => (c.rerank === undefined ? [] : [c.rerank]));
  return scores.length > 0 ? Math.max(...scores) : null;
}

export interface IJudgement {
  relevance: number[];
  features: IRelevanceFeatures[];
  weak: boolean[];
  refusal?: NonNullable<TRetrievalQueryResponse["refusal"]>;
}

/**
 * Stage 8, judge: a calibrated relevance for each returned passage (calibrate.ts) and, when the
 * query's relevance to the scope is below REFUSE_BELOW, a refusal: the scope has nothing on this
 * query, and eight weak passages would only mislead. The query's relevance is queryRelevance (the
 * best passage with the scope evidence: its cosine against the pool, and the share of the query's
 * words the whole scope never uses, from `vocabulary`), else the best passage's relevance. Queries
 * with no topic words (an instruction and a chapter) are
 * never refused: the filters say what they are about. When a language model reranked the pool
 * (`reranker` "llm"), its reading overrides the calibrated model at either end (modelVerdict).
 */
export function judgeRelevance(
  run: IRetrievalRun,
  top: readonly ICandidate[],
  pool: readonly ICandidate[],
  extraTopicWords: readonly string[] = [],
  vocabulary: IScopeVocabulary | null = null,
  reranker: TReranker = "none",
): IJudgement {
  const { classification } = run.understanding;
  const sample = pool.slice(0, SCOPE_SAMPLE);
  const scope = {
    stems: new Set(sample.flatMap((c) => [...stemsOf(c)])),
    medianCosine: medianCosine(sample.map((c) => c.row.vector_score)),
  };
  const featuresFor = (topicWords: readonly string[]): IRelevanceFeatures[] | null => {
    const q = queryEvidence(topicWords);
    if (q.total === 0) return null;
    return top.map((c) =>
      relevanceFeatures(
        q,
        {
          content: c.row.content,
          sectionPath: c.row.section_path,
          vectorScore: c.row.vector_score,
          stems: stemsOf(c),
        },
        scope,
      ),
    );
  };
  // A pasted MCQ is about its stem or its options ("Which statement is untrue? A) …"): each passage
  // is judged both ways and keeps the better reading.
  const byStem = featuresFor(classification.topicTerms);
  const byOptions = extraTopicWords.length
    ? featuresFor([...classification.topicTerms, ...extraTopicWords])
    : null;
  const noTopic = !byStem && !byOptions;
  const score = (f: IRelevanceFeatures) => calibratedRelevance(f, run.deps.embedder.modelId);
  const features = top.map((_, i): IRelevanceFeatures => {
    const a = byStem?.[i];
    const b = byOptions?.[i];
    if (a && b) return score(b) > score(a) ? b : a;
    return a ?? b ?? { coverage: 1, heading: 1, cosine: null, cosineLift: null, scopeCoverage: 1 };
  });
  const relevance = features.map((f) => round3(calibratedRelevance(f, run.deps.embedder.modelId)));
  const weak = relevance.map((r) => r < PRESELECT_FROM);
  const best = Math.max(0, ...relevance);
  const bestIndex = relevance.indexOf(best);
  const words = vocabulary
    ? scopeWords([...classification.topicTerms, ...extraTopicWords], vocabulary, top.map(stemsOf), bestIndex)
    : [];
  const bestFeatures = bestIndex >= 0 ? (features[bestIndex] ?? null) : null;
  const judged = {
    passages: vocabulary?.passages ?? 0,
    bgPassages: vocabulary?.bgPassages ?? 0,
    words,
    bestRelevance: best,
    best: bestFeatures,
    ...(vocabulary?.phrases ? { phrases: vocabulary.phrases } : {}),
  };
  run.settings.onJudged?.(
    top.map((c, i) => ({
      documentId: c.row.document_id,
      chunkIndex: c.row.chunk_index,
      sectionPath: c.row.section_path,
      features: features[i]!,
    })),
    judged,
  );
  // The query as a whole (calibrate.ts queryRelevance, refusal-model.json): the best passage's
  // relevance with the pool's cosine and the scope and background frequency of the query's words.
  const scoped = vocabulary ? (queryRelevance(judged, run.deps.embedder.modelId) ?? best) : best;
  const verdict = modelVerdict(reranker, pool);
  const refuse =
    run.settings.refuse &&
    !noTopic &&
    !classification.broad &&
    top.length > 0 &&
    (verdict === "nothing" || (verdict !== "answers" && scoped < REFUSE_BELOW));
  if (!refuse) return { relevance, features, weak };
  if (verdict === "nothing" && scoped >= REFUSE_BELOW) {
    return {
      relevance,
      features,
      weak,
      refusal: {
        code: "model_found_nothing",
        message:
          "The language model read the closest passages in this scope and found none about the query: their words match, their subject does not.",
        bestRelevance: round3(modelBest(pool) ?? 0),
        threshold: MODEL_NOTHING_BELOW,
      },
    };
  }
  const nothing = (features[0]?.scopeCoverage ?? 0) === 0;
  return {
    relevance,
    features,
    weak,
    refusal: {
      code: nothing ? "no_terms_in_scope" : "weak_evidence",
      message: nothing
        ? "None of the query's topic words occur in this scope: nothing here is about it."
        : "Nothing in this scope is clearly about the query: the closest passages share only a word or two with it, and its words are not this subject's.",
      bestRelevance: round3(scoped),
      threshold: REFUSE_BELOW,
    },
  };
}

/**
 * The query's content words (one per stem) with their specificity, scope and background
 * frequency, and which returned passages (`topStems`, best-ranked first) contain them.
 */
export function scopeWords(
  topicWords: readonly string[],
  vocabulary: IScopeVocabulary,
  topStems: readonly ReadonlySet<string>[],
  bestIndex: number,
): IScopeWord[] {
  const seen = new Set<string>();
  const out: IScopeWord[] = [];
  for (const t of topicWords)
    for (const word of contentWords(t)) {
      const s = stem(word);
      if (seen.has(s) || /^\d+$/.test(word)) continue;
      seen.add(s);
      const df = vocabulary.df.get(word.toLowerCase());
      if (df === undefined) continue;
      const hits = topStems.flatMap((stems, i) => (stems.has(s) ? [i] : []));
      out.push({
        word,
        specificity: specificity(word),
        df,
        bgDf: vocabulary.bgDf.get(word.toLowerCase()) ?? 0,
        inBest: hits.includes(bestIndex),
        hits,
        ...(vocabulary.meaning ? { meaning: meaningLift(word, vocabulary.meaning) } : {}),
      });
    }
  return out;
}

/** The words whose scope frequency the judge needs (scope-vocabulary.ts looks them up). */
export function judgedWords(topicWords: readonly string[]): string[] {
  return [...new Set(topicWords.flatMap((t) => contentWords(t)).filter((w) => !/^\d+$/.test(w)))];
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
