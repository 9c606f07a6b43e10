import { describe, expect, it } from "vitest";
import { flagSentence, teacherWords } from "@/lib/generation/flag-words";

describe("quality-gate flags in teacher words", () => {
  it("turns a counted refusal list into sentences", () => {
    expect(
      teacherWords(
        "No acceptable MCQ at Apply from these passages: every draft was refused by the quality gate (duplicate fact ×2, generic rationale ×1).",
      ),
    ).toBe(
      "No acceptable MCQ at Apply from these passages: every draft was refused by the quality gate: two drafts tested the same fact as another question; one draft explained a wrong option too vaguely.",
    );
  });

  it("reads uncounted lists and the rewrite note", () => {
    expect(teacherWords("The quality gate refused the draft (vague stem, wrong key); rewriting it.")).toBe(
      "The quality gate refused the draft: it asked too vague a question and marked the wrong option as the answer; rewriting it.",
    );
    expect(
      teacherWords(
        "The quality gate noted bloom mismatch, generic rationale; trying one rewrite (the better draft is kept).",
      ),
    ).toBe(
      "The quality gate noted that it did not ask at the level set and explained a wrong option too vaguely; trying one rewrite (the better draft is kept).",
    );
  });

  it("leaves other parentheses and text alone", () => {
    const s = "asked Create; the passages support Apply here (see the passage, p. 4)";
    expect(teacherWords(s)).toBe(s);
    expect(teacherWords("every draft (the model's) failed")).toBe("every draft (the model's) failed");
  });

  it("shows a stored warning by its message, or the flag's sentence when there is none", () => {
    expect(flagSentence("generic_rationale: Option B's rationale says nothing specific")).toBe(
      "Option B's rationale says nothing specific",
    );
    expect(flagSentence("duplicate_fact: ")).toBe("It tested the same fact as another question.");
  });
});
