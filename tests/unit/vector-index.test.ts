import { describe, expect, it } from "vitest";
import { DEFAULT_VECTOR_INDEX_POLICY, decideVectorIndex, type IScopeSize } from "@/lib/db/vector-index";

const scope = (subject: string, chunks: number): IScopeSize => ({ board: "B", grade: "10", subject, chunks });

describe("decideVectorIndex (HNSW at the crossover)", () => {
  it("is not due while every scope is below the chunk threshold", () => {
    // 99,999 chunks: where the whole function runs as fast on the exact scan and finds all of it.
    const d = decideVectorIndex([scope("Physics", 4000), scope("Biology", 99_999)], 103_999);
    expect(d.create).toBe(false);
    expect(d.past).toEqual([]);
    expect(d.reason).toMatch(/Biology has 99999 of 103999 chunks/);
  });

  it("is due once a scope has both the chunks and the share of all chunks", () => {
    const d = decideVectorIndex([scope("Physics", 125_000), scope("Biology", 300_000)], 425_000);
    expect(d.create).toBe(true);
    expect(d.past.map((s) => s.subject)).toEqual(["Biology", "Physics"]);
  });

  it("keeps a large scope that is a small share of a huge database on the exact scan", () => {
    // 150,000 chunks of 10,000,000 is 1.5 %: an iterative scan would read ≈ 64 / 0.015 index tuples.
    const d = decideVectorIndex([scope("Physics", 150_000)], 10_000_000);
    expect(d.create).toBe(false);
    expect(
      decideVectorIndex([scope("Physics", 150_000)], 10_000_000, { minChunks: 100_000, minShare: 0.01 })
        .create,
    ).toBe(true);
  });

  it("says there is nothing to index on an empty database", () => {
    expect(decideVectorIndex([], 0, DEFAULT_VECTOR_INDEX_POLICY)).toMatchObject({
      create: false,
      reason: "no documents yet",
    });
  });
});
