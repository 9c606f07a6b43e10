import { describe, expect, it } from "vitest";
import { createGateContext, gateQuestion } from "@/lib/generation/gate";
import { mulberry32 } from "@/lib/generation/offline/forms/common";
import { unitMcq } from "@/lib/generation/offline/forms/mcq-units";
import { powerUnit, usedUnits } from "@/lib/generation/offline/forms/recall-units";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import type { ISentence } from "@/lib/generation/offline/knowledge/sentences";
import type { EBloomLevel } from "@/types/bloom.types";
import type { IContextChunk, ISlot, TQuestion } from "@/types/generation.types";

const sentence = (text: string): ISentence => ({
  text,
  chunkKey: "k",
  heading: "",
  section: "",
  position: 0,
  sideBox: false,
  standalone: true,
});

const chunk = (content: string, i: number, section: string, documentId = "doc"): IContextChunk =>
  ({
    documentId,
    chunkIndex: i,
    title: "Book",
    content,
    sectionPath: `Chapter ${section.split(".")[0]} > ${section}`,
  }) as IContextChunk;

const slot = (type: "mcq" | "short" | "long", bloomLevel: EBloomLevel, marks = 1): ISlot =>
  ({ id: "s", index: 0, type, bloomLevel, marks, difficulty: "medium" }) as ISlot;

function build(
  form: { build: typeof unitMcq.build },
  chunks: IContextChunk[],
  s: ISlot,
  scope: IContextChunk[] = [],
): TQuestion[] {
  const kb = buildKnowledge(chunks, scope);
  return [...form.build({ kb, slot: s, random: mulberry32(3), keyAt: 1, used: new Set() })];
}

describe("units read from use (Remember: What is the SI unit of …?)", () => {
  it("reads a quantity's SI unit from a value the passage gives it, in OpenStax and Indian board styles", () => {
    const read = (t: string) => usedUnits([sentence(t)]).map((u) => [u.quantity, u.unit]);
    expect(read("A car moves with a speed of 25.0 m/s along a straight road.")).toEqual([["speed", "m/s"]]);
    expect(read("Air has a density of 1.29 kg/m^3 at atmospheric pressure and 0ºC.")).toEqual([
      ["density", "kg/m³"],
    ]);
    expect(read("The fundamental frequency is 128 Hz.")).toEqual([["frequency", "Hz"]]);
    // NCERT writes negative powers: "m s–1", "kg m s–1".
    expect(read("A body of mass 5 kg is moving with a velocity of 10 m s–1.")).toEqual([
      ["mass", "kg"],
      ["velocity", "m/s"],
    ]);
    expect(read("The momentum of the ball is 4.5 kg m s–1.")).toEqual([["momentum", "kg⋅m/s"]]);
    expect(powerUnit("m s–2 near the ground")).toBe("m/s^2");
  });

  it("never takes a unit that is not the SI one, or a number that has no unit", () => {
    const read = (t: string) => usedUnits([sentence(t)]);
    expect(read("The bus has a speed of 12 km/h.")).toEqual([]);
    expect(read("The distance traveled is 5 kilometers.")).toEqual([]);
    expect(read("Multiply by a power of 10 when the number is large.")).toEqual([]);
    expect(read("The index of refraction of water is 1.33 in visible light.")).toEqual([]);
  });

  it("asks the unit with wrong options of other dimensions, citing the sentence that uses it", () => {
    const chunks = [
      chunk(
        `## 14.4 Sound Interference and Resonance

The speed of sound is 344 m/s. The fundamental frequency is 128 Hz. A standing wave forms when two identical waves travel in opposite directions along a string with fixed ends.`,
        0,
        "14.4 Sound Interference and Resonance",
      ),
    ];
    const qs = build(unitMcq, chunks, slot("mcq", "Remember"));
    expect(qs.length).toBe(2);
    const q = qs[0]!;
    if (q.type !== "mcq") throw new Error("mcq expected");
    expect(q.promptText).toBe("What is the SI unit of speed?");
    expect(q.options[q.correctIndex]).toBe("m/s");
    expect(new Set(q.options).size).toBe(4);
    expect(q.contextRefs[0]?.quote).toBe("The speed of sound is 344 m/s.");
    expect(q.explanation).toContain("uses it");
    expect(gateQuestion(q, "Remember", createGateContext(chunks), { accepted: [] }).passed).toBe(true);
  });
});
