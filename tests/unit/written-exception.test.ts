import { describe, expect, it } from "vitest";
import {
  exceptionsOf,
  judgeException,
  readException,
} from "@/lib/generation/offline/forms/written-exception";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import type { IContextChunk, TQuestion } from "@/types/generation.types";
import { formSlot } from "../support/form-slots";
import { testSentence } from "../support/sentence";

// Passages in the style of OpenStax Biology 2e / Physics (CC BY 4.0) and an Indian board (NCERT
// Class 8/10 "Materials: Metals and Non-metals") textbook.
const DOC = "7a1c2e4a-1b2c-4d3e-8f40-123456789ac0";
const kbOf = (section: string, ...lines: string[]) =>
  buildKnowledge([
    {
      documentId: DOC,
      chunkIndex: 0,
      title: "Book",
      sectionPath: `Chapter 28: Book > ${section}`,
      content: [`### ${section.replace(/^[\d.]+\s*/, "")}`, "", lines.join(" ")].join("\n"),
    } as IContextChunk,
  ]);
const build = (kb: ReturnType<typeof buildKnowledge>, type: "short" | "long" = "short") => {
  const steps: string[] = [];
  const env = {
    kb,
    slot: formSlot(DOC, type, "Evaluate"),
    random: () => 0.5,
    keyAt: 0,
    used: new Set<string>(),
    trace: (s: string) => steps.push(s),
  };
  return { qs: [...judgeException.build(env)] as TQuestion[], steps };
};
const pair = (a: string, b: string) => readException(testSentence(a), testSentence(b, { position: 1 }));

describe("readException: a qualified statement and the exception stated next to it", () => {
  it("reads “Most X …” with “except”, “Exceptions …” or “however … not”", () => {
    expect(
      pair(
        "Most mollusks have a special rasp-like organ, the radula, which bears chitinous filelike teeth.",
        "The radula is present in all groups except the bivalves, and serves to shred or scrape food.",
      ),
    ).toMatchObject({
      claim: "All mollusks have a special rasp-like organ, the radula, which bears chitinous filelike teeth.",
      subject: "mollusks",
      qualifier: "most",
    });
    expect(
      pair(
        "Most of the limb bones are long bones—for example, the femur, tibia, ulna, and radius.",
        "Exceptions to this include the patella and the bones of the wrist and ankle.",
      )?.claim,
    ).toBe("All of the limb bones are long bones.");
    expect(
      pair(
        "Most materials are insulators that do not conduct electric current.",
        "Metals, however, are not insulators: they conduct electric current well.",
      )?.subject,
    ).toBe("materials");
  });

  it("refuses what the passages do not settle", () => {
    // "however" with no negation: not an exception to the claim.
    expect(
      pair(
        "Most of the nitrogen available in nature is either atmospheric nitrogen or another inorganic form.",
        "Diatomic nitrogen, however, can be converted into an organic form only by certain microorganisms.",
      ),
    ).toBeNull();
    // "Not all" about something else than the claim's predicate.
    expect(
      pair(
        "Many photosynthetic organisms have a mixture of pigments.",
        "Not all photosynthetic organisms have full access to sunlight.",
      ),
    ).toBeNull();
    // Two quantifiers: two claims at once.
    expect(
      pair(
        "Most animals and plants and many unicellular organisms are diploid.",
        "All cells except the gametes contain two copies of each chromosome.",
      ),
    ).toBeNull();
    // No exception stated at all.
    expect(pair("Most stars are main sequence stars.", "The Sun is a main sequence star.")).toBeNull();
  });
});

describe("judge-exception: Evaluate a student's over-general claim with the stated exception", () => {
  it("Biology: marks go to the exception, the judgement and the corrected scope", () => {
    const kb = kbOf(
      "28.5 Mollusca",
      "Most mollusks have a special rasp-like organ, the radula, which bears chitinous filelike teeth.",
      "The radula is present in all groups except the bivalves, and serves to shred or scrape food.",
    );
    const { qs } = build(kb);
    const q = qs[0];
    expect(q?.promptText).toBe(
      "A student writes: “All mollusks have a special rasp-like organ, the radula, which bears chitinous filelike teeth.” Evaluate the student's statement. Is it correct? Justify your answer with a counterexample; marks are for the justification.",
    );
    expect(q?.type !== "mcq" && q?.markingScheme?.map((p) => p.point)[0]).toMatch(/except the bivalves/);
    expect(q?.contextRefs).toHaveLength(2);
    expect(judgeException.available(kb)).toBe(1);
  });

  it("Indian board: a metal that is not a solid at room temperature", () => {
    const kb = kbOf(
      "3.1 Physical Properties of Metals",
      "Most metals are solids at room temperature.",
      "Mercury is an exception, as it is a liquid at room temperature.",
    );
    const { qs } = build(kb);
    expect(qs[0]?.promptText).toMatch(/“All metals are solids at room temperature\.”/);
    expect(qs[0]?.type !== "mcq" && qs[0]?.suggestedAnswer).toMatch(/Mercury is an exception/);
  });

  it("stays empty, with its reason, when no exception is stated or the slot is long", () => {
    const none = build(
      kbOf("13.1 Stars", "Most stars are main sequence stars.", "The Sun is a main sequence star."),
    );
    expect(none.qs).toEqual([]);
    expect(none.steps).toContain(
      "no qualified statement (“most / many X …”) with its exception stated next to it",
    );
    const long = build(
      kbOf(
        "3.1 Metals",
        "Most metals are solids at room temperature.",
        "Mercury is an exception, as it is a liquid at room temperature.",
      ),
      "long",
    );
    expect(long.qs).toEqual([]);
    expect(long.steps).toContain("long: one stated exception is not enough for a long answer");
    expect(exceptionsOf([])).toEqual([]);
  });
});
