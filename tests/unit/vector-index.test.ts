import { describe, expect, it } from "vitest";
import { DEFAULT_VECTOR_INDEX_POLICY, decideVectorIndex, type IScopeSize } from "@/lib/db/vector-index";

const scope = (subject: string, chunks: number): IScopeSize => ({ board: "B", grade: "10", subject, chunks });

describe("decideVectorIndex (HNSW at the crossover)", () => {
  it("is not due while every scope is below the chunk threshold", () => {
    const d = decideVectorIndex([scope("Physics", 4000), scope("Biology", 19_999)], 23_999);
    expect(d.create).toBe(false);
    expect(d.past).toEqual([]);
    expect(d.reason).toMatch(/Biology has 19999 of 23999 chunks/);
  });

  it("is due once a scope has both the chunks and the share of all chunks", () => {
    const d = decideVectorIndex([scope("Physics", 25_000), scope("Biology", 60_000)], 85_000);
    expect(d.create).toBe(true);
    expect(d.past.map((s) => s.subject)).toEqual(["Biology", "Physics"]);
  });

  it("keeps a large scope that is a small share of a huge database on the exact scan", () => {
    // 30,000 chunks of 5,000,000 is 0.6 %: an iterative scan would read ≈ 64 / 0.006 index tuples.
    const d = decideVectorIndex([scope("Physics", 30_000)], 5_000_000);
    expect(d.create).toBe(false);
    expect(
      decideVectorIndex([scope("Physics", 30_000)], 5_000_000, { minChunks: 20_000, minShare: 0.005 }).create,
    ).toBe(true);
  });

  it("says there is nothing to index on an empty database", () => {
    expect(decideVectorIndex([], 0, DEFAULT_VECTOR_INDEX_POLICY)).toMatchObject({
      create: false,
      reason: "no documents yet",
    });
  });
});
