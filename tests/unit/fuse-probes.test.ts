import { describe, expect, it } from "vitest";
import { fuseProbeLists } from "@/lib/retrieval/pipeline/fuse-probes";
import type { IGathered } from "@/lib/retrieval/pipeline/pass";
import type { IHybridRow } from "@/lib/retrieval/store";

const row = (doc: string, i: number, fused: number) =>
  ({
    document_id: doc,
    chunk_index: i,
    fused_score: fused,
    vector_score: null,
    keyword_score: null,
  }) as IHybridRow;
const list = (items: [string, number, number][], ms = 1): IGathered => ({
  candidates: items.map(([d, i, f]) => ({ row: row(d, i, f), fused: f })),
  vectorMs: ms,
  keywordMs: ms,
  fuseMs: 0,
  embedMs: ms,
  scopeChunks: 100,
});

describe("fuseProbeLists", () => {
  const query = list([
    ["a", 1, 0.9],
    ["a", 2, 0.8],
    ["b", 1, 0.7],
  ]);
  const hyde = list([
    ["b", 1, 0.95],
    ["c", 5, 0.9],
  ]);

  it("passes a single list through unchanged", () => {
    expect(fuseProbeLists([{ gathered: query, weight: 1 }], "score")).toBe(query);
  });

  it("score fusion: weighted mean of each probe's fused score, 0 where a probe missed", () => {
    const fused = fuseProbeLists(
      [
        { gathered: query, weight: 1 },
        { gathered: hyde, weight: 0.5 },
      ],
      "score",
    );
    const keys = fused.candidates.map((c) => `${c.row.document_id}:${c.row.chunk_index}`);
    expect(keys).toEqual(["b:1", "a:1", "a:2", "c:5"]);
    expect(fused.candidates[0]!.fused).toBeCloseTo((0.7 + 0.5 * 0.95) / 1.5);
    expect(fused.candidates[0]!.row.fused_score).toBe(fused.candidates[0]!.fused);
    expect(fused.embedMs).toBe(2);
  });

  it("rrf: a passage first in every list scores 1", () => {
    const fused = fuseProbeLists(
      [
        { gathered: list([["x", 1, 0.2]]), weight: 1 },
        { gathered: list([["x", 1, 0.1]]), weight: 2 },
      ],
      "rrf",
    );
    expect(fused.candidates[0]!.fused).toBeCloseTo(1);
  });
});
