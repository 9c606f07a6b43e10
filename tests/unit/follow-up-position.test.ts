import { describe, expect, it } from "vitest";
import { positionalReference } from "@/lib/retrieval/follow-up-position";

describe("positionalReference", () => {
  it("reads single places, from the start and from the end", () => {
    expect(positionalReference("more on the second one", 8)).toEqual({ positions: [1], negated: false });
    expect(positionalReference("the second one", 8)).toEqual({ positions: [1], negated: false });
    expect(positionalReference("Explain the 3rd result.", 8)).toEqual({ positions: [2], negated: false });
    expect(positionalReference("the last one", 8)).toEqual({ positions: [7], negated: false });
    expect(positionalReference("the second to last", 8)).toEqual({ positions: [6], negated: false });
    expect(positionalReference("result 4", 8)).toEqual({ positions: [3], negated: false });
    expect(positionalReference("#2", 8)).toEqual({ positions: [1], negated: false });
  });

  it("reads runs and lists", () => {
    expect(positionalReference("the last two", 8)).toEqual({ positions: [6, 7], negated: false });
    expect(positionalReference("the first three", 8)).toEqual({ positions: [0, 1, 2], negated: false });
    expect(positionalReference("the top two results", 8)).toEqual({ positions: [0, 1], negated: false });
    expect(positionalReference("the first and third", 8)).toEqual({ positions: [0, 2], negated: false });
    expect(positionalReference("the second, fourth and fifth ones", 8)).toEqual({
      positions: [1, 3, 4],
      negated: false,
    });
  });

  it("reads a negation as leaving those out", () => {
    expect(positionalReference("not the first", 8)).toEqual({ positions: [0], negated: true });
    expect(positionalReference("but not the last two", 8)).toEqual({ positions: [6, 7], negated: true });
    expect(positionalReference("without the second one", 8)).toEqual({ positions: [1], negated: true });
  });

  it("leaves topics, navigation and places the list does not have alone", () => {
    expect(positionalReference("the first law of motion", 8)).toBeNull();
    expect(positionalReference("the last section", 8)).toBeNull();
    expect(positionalReference("more on the light reactions", 8)).toBeNull();
    expect(positionalReference("not the calvin cycle", 8)).toBeNull();
    expect(positionalReference("the ninth one", 8)).toBeNull();
    expect(positionalReference("the last three", 2)).toBeNull();
    expect(positionalReference("the second one", 0)).toBeNull();
    expect(positionalReference("one", 8)).toBeNull();
    expect(positionalReference("2 marks", 8)).toBeNull();
  });
});
