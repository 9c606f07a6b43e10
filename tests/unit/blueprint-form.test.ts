import { describe, expect, it } from "vitest";
import { blueprintError, type IBlueprintForm, levelTargets } from "@/components/builder/blueprint";

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
