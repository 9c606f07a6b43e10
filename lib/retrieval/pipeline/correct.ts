import "server-only";
import { words } from "@/lib/text/tokenize";
import type { IConfidence } from "@/types/retrieval.types";
import { computeConfidence, shouldRetry } from "../confidence";
import { RETRY_ALPHA_SHIFT, RETRY_POOL_MULTIPLIER } from "./defaults";
import { runPass } from "./pass";
import { type ICandidate, type IPassResult, type IRetrievalRun, scoreOf } from "./types";

export interface IAssessedPass {
  pass: IPassResult;
  top: ICandidate[];
  confidence: IConfidence;
  retried: boolean;
  warnings: string[];
}

function assess(run: IRetrievalRun, pass: IPassResult): { top: ICandidate[]; confidence: IConfidence } {
  const { classification } = run.understanding;
  const top = pass.candidates.slice(0, run.req.topK);
  const confidence = computeConfidence({
    scores: top.map(scoreOf),
    queryTerms: words(classification.searchText || run.req.query),
    topContents: top.map((c) => c.row.content),
  });
  return { top, confidence };
}

/**
 * Stage 7, confidence and one corrective retry: when the top-K look weak (confidence.ts), search
 * once more with a wider net, α moved toward the middle and the query as typed, and keep whichever
 * pass is more confident.
 */
export async function assessAndCorrect(run: IRetrievalRun, first: IPassResult): Promise<IAssessedPass> {
  const { req, settings, understanding } = run;
  const { top, confidence } = assess(run, first);
  if (!shouldRetry(confidence.confidence) || !settings.retry || top.length === 0) {
    return { pass: first, top, confidence, retried: false, warnings: [] };
  }
  const alpha = understanding.alpha;
  const altAlpha = settings.alpha ?? (alpha > 0.5 ? alpha - RETRY_ALPHA_SHIFT : alpha + RETRY_ALPHA_SHIFT);
  const alt = await runPass(run, {
    searchText: req.query,
    alpha: altAlpha,
    limit: understanding.limit * RETRY_POOL_MULTIPLIER,
    chapter: null,
  });
  const altAssessed = assess(run, alt);
  if (altAssessed.confidence.confidence > confidence.confidence) {
    return {
      pass: alt,
      ...altAssessed,
      retried: true,
      warnings: [
        "Low confidence in the first results; a wider search with adjusted weights found better ones.",
      ],
    };
  }
  return {
    pass: first,
    top,
    confidence,
    retried: true,
    warnings: ["Low confidence: a wider corrective search did not find better passages."],
  };
}
