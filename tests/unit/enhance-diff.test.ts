import { describe, expect, it } from "vitest";
import { addedWordSpans } from "@/components/builder/enhance-diff";

describe("added words in the enhanced query", () => {
  it("marks only the words the enhancer added, keeping the teacher's words plain", () => {
    const spans = addedWordSpans("photosynthesis in leaves", "photosynthesis chlorophyll in leaves light");
    expect(spans.filter((s) => s.added).map((s) => s.text.trim())).toEqual(["chlorophyll", "light"]);
    expect(spans.map((s) => s.text).join("")).toBe("photosynthesis chlorophyll in leaves light");
  });
  it("shows nothing as added when the text is unchanged apart from case, and drops removed words", () => {
    expect(addedWordSpans("Cell wall", "cell wall").every((s) => !s.added)).toBe(true);
    const spans = addedWordSpans("the cell wall", "cell wall cellulose");
    expect(spans.map((s) => s.text).join("")).not.toContain("the");
    expect(spans.filter((s) => s.added).map((s) => s.text.trim())).toEqual(["cellulose"]);
  });
});
