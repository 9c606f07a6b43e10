import { describe, expect, it } from "vitest";
import { sameQuestion } from "@/lib/questions/same";

const mcq = (promptText: string, options: string[]) => ({ type: "mcq" as const, promptText, options });

describe("sameQuestion (Regenerate says when nothing changed)", () => {
  it("treats case, spacing, punctuation and option order as the same question", () => {
    expect(
      sameQuestion(
        mcq("Which organelle makes ATP?", ["Mitochondrion", "Ribosome", "Nucleus", "Vacuole"]),
        mcq("which organelle  makes ATP", ["Ribosome", "mitochondrion.", "Vacuole", "Nucleus"]),
      ),
    ).toBe(true);
  });

  it("tells a new stem, new options or another type apart", () => {
    const a = mcq("Which organelle makes ATP?", ["Mitochondrion", "Ribosome", "Nucleus", "Vacuole"]);
    expect(sameQuestion(a, mcq("Which organelle makes proteins?", a.options))).toBe(false);
    expect(sameQuestion(a, mcq(a.promptText, ["Mitochondrion", "Ribosome", "Nucleus", "Lysosome"]))).toBe(
      false,
    );
    expect(sameQuestion(a, { type: "short", promptText: a.promptText })).toBe(false);
    expect(
      sameQuestion(
        { type: "short", promptText: "Explain inertia." },
        { type: "short", promptText: "Explain inertia" },
      ),
    ).toBe(true);
  });
});
