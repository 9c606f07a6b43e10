import { describe, expect, it } from "vitest";
import {
  blueprintError,
  countsFromQuery,
  type IBlueprintForm,
  levelTargets,
  parseTopK,
} from "@/components/builder/blueprint";

const base: IBlueprintForm = {
  counts: { mcq: 4, short: 2, long: 1 },
  marks: { mcq: 1, short: 3, long: 5 },
  levels: ["Remember", "Understand", "Apply"],
  perLevel: null,
};

describe("blueprint form", () => {
  it("accepts a sensible blueprint and spreads targets evenly over the chosen levels", () => {
    expect(blueprintError(base)).toBeNull();
    expect(levelTargets(base)).toMatchObject({ Remember: 3, Understand: 2, Apply: 2, Analyze: 0 });
  });

  it.each([
    [{ counts: { mcq: 0, short: 0, long: 0 } }, /at least one question/],
    [{ counts: { mcq: 50, short: 10, long: 1 } }, /At most 60/],
    [{ counts: { mcq: 2.5, short: 0, long: 0 } }, /whole numbers/],
    [{ marks: { mcq: 0, short: 3, long: 5 } }, /between 1 and 20/],
    [{ levels: [] }, /at least one Bloom level/],
    [{ perLevel: { Remember: 3, Apply: 2 } }, /add up to 5, but the blueprint has 7/],
  ] as const)("rejects %j", (patch, message) => {
    expect(blueprintError({ ...base, ...patch } as IBlueprintForm)).toMatch(message);
  });

  it("uses exact per-level counts when given", () => {
    const form = { ...base, perLevel: { Remember: 4, Analyze: 3 } };
    expect(blueprintError(form)).toBeNull();
    expect(levelTargets(form)).toMatchObject({ Remember: 4, Analyze: 3, Understand: 0 });
  });
});

describe("counts named in a query", () => {
  it("reads the template's 10 MCQs as a blueprint of only MCQs", () => {
    expect(countsFromQuery("Generate 10 MCQs for Chapter 3")).toEqual({ mcq: 10, short: 0, long: 0 });
    expect(countsFromQuery("5 short-answer and 2 long questions on light")).toEqual({
      mcq: 0,
      short: 5,
      long: 2,
    });
  });
  it("returns null when no count is named, and caps a type at 50", () => {
    expect(countsFromQuery("Explain photosynthesis")).toBeNull();
    expect(countsFromQuery("0 MCQs")).toBeNull();
    expect(countsFromQuery("99 MCQs")).toEqual({ mcq: 50, short: 0, long: 0 });
  });
});

describe("Top K as typed", () => {
  it("accepts whole numbers from 1 to 50 and says why anything else is refused", () => {
    expect(parseTopK("8")).toEqual({ value: 8 });
    expect(parseTopK("0")).toEqual({ error: expect.stringContaining("at least 1") });
    expect(parseTopK("51")).toEqual({ error: expect.stringContaining("at most 50") });
    expect(parseTopK("")).toEqual({ error: expect.stringContaining("whole number") });
    expect(parseTopK("2.5")).toEqual({ error: expect.stringContaining("whole number") });
  });
});
