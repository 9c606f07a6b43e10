import { describe, expect, it } from "vitest";
import { orderByRelevance } from "@/lib/retrieval/result-order";

describe("orderByRelevance", () => {
  it("lists the issue's out-of-order answer by the shown relevance, highest first", () => {
    const shown = [0.89, 0.84, 0.7, 0.76, 0.46, 0.78, 0.48, 0.66].map((relevance, rank) => ({
      relevance,
      rank,
    }));
    expect(orderByRelevance(shown).map((i) => i.relevance)).toEqual([
      0.89, 0.84, 0.78, 0.76, 0.7, 0.66, 0.48, 0.46,
    ]);
  });

  it("keeps the ranking's order for equal relevance and leaves its input alone", () => {
    const items = [
      { relevance: 0.5, rank: 0 },
      { relevance: 0.9, rank: 1 },
      { relevance: 0.5, rank: 2 },
    ];
    expect(orderByRelevance(items).map((i) => i.rank)).toEqual([1, 0, 2]);
    expect(items.map((i) => i.rank)).toEqual([0, 1, 2]);
  });
});
