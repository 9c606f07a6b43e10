import { describe, expect, it } from "vitest";
import { sanitizeLlmPlan } from "@/lib/steps/plan/llm";

const PASSAGE =
  "Osmosis is the movement of water across a semipermeable membrane from an area of low solute concentration to an area of high solute concentration. The membrane lets water through but not the solutes, so water moves until the concentrations are balanced or pressure stops it.";

describe("sanitizeLlmPlan", () => {
  it("keeps on-topic variants and a passage that answers", () => {
    const p = sanitizeLlmPlan("osmosis across membranes", {
      variants: ["water movement through a semipermeable membrane", "osmotic flow of water across membranes"],
      hypotheticalPassage: PASSAGE,
    });
    expect(p.variants).toHaveLength(2);
    expect(p.hypotheticalPassage).toBe(PASSAGE);
    expect(p.rejected).toEqual([]);
  });

  it("drops junk: off-topic, meta-talk, duplicates, over-long variants and a non-answer", () => {
    const p = sanitizeLlmPlan("osmosis across membranes", {
      variants: [
        "the French Revolution",
        "Here are query variants: osmosis",
        "osmosis across membranes",
        `osmosis ${"x".repeat(400)}`,
        "membrane osmosis",
        "membrane osmosis",
        "osmosis in cells",
        "osmosis in plants",
        "osmosis in animals",
      ],
      hypotheticalPassage: "As an AI language model I cannot write that.",
    });
    expect(p.variants).toEqual(["membrane osmosis", "osmosis in cells", "osmosis in plants"]);
    expect(p.hypotheticalPassage).toBeNull();
    expect(p.rejected.join(" ")).toMatch(/shares no word/);
    expect(p.rejected.join(" ")).toMatch(/not a search phrase/);
    expect(p.rejected.join(" ")).toMatch(/hypothetical passage/);
  });
});
