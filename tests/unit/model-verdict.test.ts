import { describe, expect, it } from "vitest";
import { MODEL_ANSWERS_FROM, MODEL_NOTHING_BELOW, modelVerdict } from "@/lib/retrieval/pipeline/judge";
import type { ICandidate } from "@/lib/retrieval/pipeline/types";

/** Pool candidates with these rerank scores (undefined: below the reranked head). */
const pool = (...scores: (number | undefined)[]) =>
  scores.map((rerank) => ({ rerank }) as unknown as ICandidate);

describe("modelVerdict (the language-model rerank's reading for the refusal)", () => {
  it("says nothing without a language-model rerank", () => {
    for (const reranker of ["none", "offline", "fused-fallback"] as const)
      expect(modelVerdict(reranker, pool(0, 0, 0))).toBeNull();
    expect(modelVerdict("llm", pool(undefined, undefined))).toBeNull();
  });

  it("reads 0 or 1 of 10 on every passage as nothing about the query", () => {
    expect(modelVerdict("llm", pool(0.1, 0, 0.1, undefined))).toBe("nothing");
    expect(modelVerdict("llm", pool(MODEL_NOTHING_BELOW, 0))).toBe("unsure");
  });

  it("reads one passage at 7 of 10 or more as an answer, whatever the rest", () => {
    expect(modelVerdict("llm", pool(0, 0, MODEL_ANSWERS_FROM))).toBe("answers");
    expect(modelVerdict("llm", pool(0.6, 0.5, 0.3))).toBe("unsure");
  });
});
