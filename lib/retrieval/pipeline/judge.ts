import { terms } from "@/lib/text/tokenize";
import type { TRetrievalQueryResponse } from "@/schema/retrieval.schema";
import {
  calibratedRelevance,
  type IRelevanceFeatures,
  medianCosine,
  PRESELECT_FROM,
  queryEvidence,
  REFUSE_BELOW,
  relevanceFeatures,
} from "../calibrate";
import { type ICandidate, type IRetrievalRun, keyOf } from "./types";

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

export interface IJudgement {
  relevance: number[];
  features: IRelevanceFeatures[];
  weak: boolean[];
  refusal?: NonNullable<TRetrievalQueryResponse["refusal"]>;
}

/**
 * Stage 8, judge: a calibrated relevance for each returned passage (calibrate.ts) and, when even
 * the best one is below REFUSE_BELOW, a refusal: the scope has nothing on this query, and eight weak
 * passages would only mislead. Queries with no topic words (an instruction and a chapter) are
 * never refused: the filters say what they are about.
 */
export function judgeRelevance(
  run: IRetrievalRun,
  top: readonly ICandidate[],
  pool: readonly ICandidate[],
  extraTopicWords: readonly string[] = [],
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
  run.ablation.onJudged?.(
    top.map((c, i) => ({
      documentId: c.row.document_id,
      chunkIndex: c.row.chunk_index,
      sectionPath: c.row.section_path,
      features: features[i]!,
    })),
  );
  const relevance = features.map((f) => round3(calibratedRelevance(f, run.deps.embedder.modelId)));
  const weak = relevance.map((r) => r < PRESELECT_FROM);
  const best = Math.max(0, ...relevance);
  const refuse =
    run.ablation.refuse !== false &&
    !noTopic &&
    !classification.broad &&
    top.length > 0 &&
    best < REFUSE_BELOW;
  if (!refuse) return { relevance, features, weak };
  const nothing = (features[0]?.scopeCoverage ?? 0) === 0;
  return {
    relevance,
    features,
    weak,
    refusal: {
      code: nothing ? "no_terms_in_scope" : "weak_evidence",
      message: nothing
        ? "None of the query's topic words occur in this scope: nothing here is about it."
        : "Nothing in this scope is clearly about the query: the closest passages share only a word or two with it.",
      bestRelevance: round3(best),
      threshold: REFUSE_BELOW,
    },
  };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
