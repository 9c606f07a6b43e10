import { describe, expect, it } from "vitest";
import { collectSentences, isStandalone, needsContext } from "@/lib/generation/offline/knowledge/sentences";

describe("sentences that lean on context (round 6 readers' faults)", () => {
  it.each([
    "The down side is that you must exert the force over a greater distance.",
    "The right sphere is left with an excess of positive charge after the rod is removed.",
    "Your average velocity, however, was zero for the whole trip.",
    "The fixed ends of strings must be nodes, too.",
    "All red lines on the graph show the same constant acceleration.",
    "The forces on the block are shown in the free-body diagram.",
    "Make graphs of angular speed versus radius for each string length.",
  ])("refuses %s", (s) => {
    expect(isStandalone(s)).toBe(false);
  });

  it.each([
    "Entropy is a measure of the disorder of a system.",
    "The second law of thermodynamics states that the total entropy of a system never decreases.",
    "The intensity of a sound is proportional to its amplitude squared.",
    "Newton’s third law of motion states that whenever a first object exerts a force on a second object, the first object experiences an equal and opposite force.",
  ])("keeps %s", (s) => {
    expect(needsContext(s)).toBe(false);
    expect(isStandalone(s)).toBe(true);
  });

  it("refuses a definite noun the block introduced as a scene's prop, keeps the lesson's own nouns", () => {
    const content = [
      "## Friction",
      "",
      "An air hockey table lets a puck slide almost without friction on a cushion of air. The puck slides a short distance after friction slows it to a stop on an ordinary table. Kinetic friction acts on an object that slides over a surface. The force of kinetic friction on the object opposes its motion over the surface.",
    ].join("\n");
    const out = collectSentences([
      { documentId: "d", chunkIndex: 0, content, title: "Physics", sectionPath: "Chapter 4 > 4.5 Friction" },
    ]);
    const verdict = Object.fromEntries(out.map((s) => [s.text.slice(0, 24), s.standalone]));
    expect(verdict["The puck slides a short "]).toBe(false);
    expect(verdict["The force of kinetic fri"]).toBe(true);
  });
});
