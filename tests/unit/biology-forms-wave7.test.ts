import { describe, expect, it } from "vitest";
import { createGateContext, gateQuestion } from "@/lib/generation/gate";
import { swapped } from "@/lib/generation/offline/forms/bio-contrast";
import { createOfflineGenerator } from "@/lib/generation/offline/generator";
import { readContrast, readContrastPair, readUnlike } from "@/lib/generation/offline/knowledge/contrasts";
import type { EBloomLevel } from "@/types/bloom.types";
import type { IContextChunk, TQuestion } from "@/types/generation.types";
import { formSlot } from "../support/form-slots";

const DOC = "7c2c3d4e-1b2c-4d3e-8f40-123456789abc";
const s = (text: string) => ({ text, chunkKey: `${DOC}:0` });
const chunk = (chunkIndex: number, section: string, lines: string[]): IContextChunk => ({
  documentId: DOC,
  chunkIndex,
  title: "Biology",
  sectionPath: `Chapter 30: Plant Form and Physiology > ${section}`,
  content: lines.join("\n"),
});
const slot = (type: "mcq" | "short" | "long", bloomLevel: EBloomLevel) => formSlot(DOC, type, bloomLevel);
const candidates = (
  chunks: IContextChunk[],
  scope: IContextChunk[],
  type: "mcq" | "short",
  level: EBloomLevel,
) => [
  ...createOfflineGenerator(chunks, 1, scope).candidates(slot(type, level), { used: new Set(), keyAt: 1 }),
];

// Sentences of Biology 2e (OpenStax, CC BY 4.0).
const GRAVITROPISM = "Shoots exhibit negative gravitropism, whereas roots exhibit positive gravitropism.";
const STRANDS =
  "The leading strand is synthesized continuously, whereas the lagging strand is synthesized in short stretches called Okazaki fragments.";

describe("stated contrasts (A …, whereas B …)", () => {
  it("reads two subjects with their own predicates, and swaps them into a wrong claim", () => {
    const c = readContrast(s(GRAVITROPISM));
    expect(c).toMatchObject({
      a: "Shoots",
      pa: "exhibit negative gravitropism",
      b: "roots",
      pb: "exhibit positive gravitropism",
    });
    expect(swapped(c!)).toBe(
      "Shoots exhibit positive gravitropism, whereas roots exhibit negative gravitropism.",
    );
    expect(readContrast(s(STRANDS))?.b).toBe("the lagging strand");
    // Letters count: "the R strain" and "the S strain" are two things.
    expect(
      readContrast(s("The R strain is non-pathogenic, whereas the S strain is pathogenic and causes death."))
        ?.a,
    ).toBe("The R strain");
  });

  it("refuses what a swap would not make wrong or would make ungrammatical", () => {
    for (const text of [
      // "can" claims stay true swapped.
      "Short-term stress can affect hormone levels, whereas long-term stress can delay puberty and cause less frequent menstrual cycles.",
      // Not two things of one kind said in parallel.
      "The inhibition of FSH and LH prevents any further eggs and follicles from developing, while the progesterone is elevated.",
      // "those" leans on the first clause.
      "Nutrients required in large amounts are called macronutrients, whereas those required in trace amounts are called micronutrients.",
      // One predicate inside the other.
      "Cortical nephrons are found in the renal cortex, whereas juxtamedullary nephrons are found in the renal cortex close to the renal medulla.",
      // Singular and plural: "the right lung contain …" after a swap.
      "The right lung is larger and contains three lobes, whereas the lungs of birds have air sacs.",
    ])
      expect(readContrast(s(text)), text).toBeNull();
  });

  it("does not fire on a Physics comparison of two situations (no subject to swap)", () => {
    expect(
      readContrast(
        s(
          "In a series circuit the current is the same through each resistor, whereas in a parallel circuit the voltage is the same across each resistor.",
        ),
      ),
    ).toBeNull();
    expect(
      readContrast(
        s("When an object moves in a circle its speed may be constant, whereas its velocity changes."),
      ),
    ).toBeNull();
  });

  it("reads “Unlike A, B …” and swaps A and B; not “Unlike in …” or a quantified subject", () => {
    const c = readUnlike(s("Unlike xylem conducting cells, phloem conducting cells are alive at maturity."));
    expect(c).toMatchObject({ a: "xylem conducting cells", b: "phloem conducting cells", unlike: true });
    expect(swapped(c!)).toBe("Unlike phloem conducting cells, xylem conducting cells are alive at maturity.");
    // A trailing consequence is cut.
    expect(
      readUnlike(
        s(
          "Unlike mammals, birds have only one occipital condyle, allowing them extensive movement of the head and neck.",
        ),
      )?.pb,
    ).toBe("have only one occipital condyle");
    for (const text of [
      "Unlike in prokaryotes, elongation by RNA polymerase II in eukaryotes takes place 1,000 to 2,000 nucleotides beyond the end of the gene being transcribed.",
      "Unlike many other animals, birds do not have teeth to chew their food.",
      "Unlike living cells, many viruses do not have a plasma membrane or any of the structures necessary to sustain metabolic life.",
    ])
      expect(readUnlike(s(text)), text).toBeNull();
  });

  it("pairs two sentences of one block only when the subjects share a head noun and the verb", () => {
    const pair = readContrastPair(
      s("The somas of sensory neurons are located in dorsal root ganglia."),
      s("The somas of motor neurons are found in the ventral portion of the gray matter of the spinal cord."),
    );
    expect(pair?.a).toBe("The somas of sensory neurons");
    expect(pair?.second).toMatch(/^The somas of motor neurons/);
    expect(
      readContrastPair(
        s("The length of the promoter is gene-specific and can differ dramatically between genes."),
        s(
          "The purpose of the promoter is to bind transcription factors that control the initiation of transcription.",
        ),
      ),
    ).toBeNull();
  });
});

describe("Remember (round 9-10 readers): the swapped-features claim (bio-swap-claim)", () => {
  const TROPISM = chunk(0, "30.6 Plant Sensory Systems and Responses", [
    "### Gravitropism",
    "",
    "Gravitropism is the response of a plant to gravity.",
    GRAVITROPISM,
    "Amyloplasts settle at the bottom of the cells of the root cap.",
  ]);

  it("asks whether the student is right, marks the reason, cites the sentence and passes the gate at Remember", () => {
    const found = candidates([TROPISM], [TROPISM], "short", "Remember").filter(
      (c) => c.form === "bio-swap-claim",
    );
    expect(found).toHaveLength(1);
    const q = found[0]!.question as Extract<TQuestion, { type: "short" }>;
    expect(q.promptText).toContain(
      "“Shoots exhibit positive gravitropism, whereas roots exhibit negative gravitropism.”",
    );
    expect(q.suggestedAnswer).toBe(`Incorrect: the student has them the wrong way round. ${GRAVITROPISM}`);
    expect(q.markingScheme?.map((p) => p.marks)).toEqual([1, 1, 1]);
    expect(q.contextRefs.map((r) => r.quote)).toEqual([GRAVITROPISM]);
    const verdict = gateQuestion(q, "Remember", createGateContext([TROPISM]));
    expect(verdict.findings.filter((f) => f.severity === "reject")).toEqual([]);
    expect(verdict.passed).toBe(true);
  });

  it("swaps an “Unlike A, B …” sentence, and the gate passes it at Remember", () => {
    const VASCULAR = chunk(10, "30.2 Stems", [
      "### Vascular Tissue",
      "",
      "Unlike xylem conducting cells, phloem conducting cells are alive at maturity.",
    ]);
    const [c] = candidates([VASCULAR], [VASCULAR], "short", "Remember").filter(
      (x) => x.form === "bio-swap-claim",
    );
    const q = c?.question as Extract<TQuestion, { type: "short" }>;
    expect(q.promptText).toContain(
      "“Unlike phloem conducting cells, xylem conducting cells are alive at maturity.”",
    );
    expect(q.markingScheme?.map((p) => p.point)).toEqual([
      "Identifies the claim as incorrect: the two are the wrong way round",
      "States that phloem conducting cells are alive at maturity",
      "States that this sets phloem conducting cells apart from xylem conducting cells",
    ]);
    expect(gateQuestion(q, "Remember", createGateContext([VASCULAR])).passed).toBe(true);
  });

  it("keeps names capitalised inside the claim", () => {
    const lakes = chunk(5, "47.1 The Biodiversity Crisis", [
      "### Lake Victoria",
      "",
      "Lake Victoria is an ancient tropical lake, while Lake Michigan is a recently formed temperate lake.",
    ]);
    const [c] = candidates([lakes], [lakes], "short", "Remember").filter((x) => x.form === "bio-swap-claim");
    expect(c?.question.promptText).toContain(
      "“Lake Victoria is a recently formed temperate lake, whereas Lake Michigan is an ancient tropical lake.”",
    );
  });

  it("writes nothing when the passages state no contrast", () => {
    const plain = chunk(1, "30.6 Plant Sensory Systems and Responses", [
      "### Gravitropism",
      "",
      "Gravitropism is the response of a plant to gravity.",
    ]);
    expect(
      candidates([plain], [plain], "short", "Remember").filter((c) => c.form === "bio-swap-claim"),
    ).toEqual([]);
  });
});

describe("Remember (round 9-10 readers): a term matched with a kin term's description (bio-mixed-definition)", () => {
  const JOINTS = chunk(2, "38.4 Joints and Skeletal Movement", [
    "### Cartilaginous Joints",
    "",
    "A synchondrosis is a cartilaginous joint where bones are joined by hyaline cartilage.",
  ]);
  const KIN = chunk(3, "38.4 Joints and Skeletal Movement", [
    "### Cartilaginous Joints",
    "",
    "A symphysis is a cartilaginous joint where the bones are joined by fibrocartilage.",
    "A suture is a fibrous joint found only in the skull.",
  ]);

  it("gives the selected term a same-kind term's description and marks what each really is", () => {
    // The symphysis's description is too close to the synchondrosis's (shared stems ≥ 60 %) to be
    // definitely wrong for it; the suture (also "a … joint") is used instead.
    const found = candidates([JOINTS], [JOINTS, KIN], "short", "Remember").filter(
      (c) => c.form === "bio-mixed-definition",
    );
    expect(found.length).toBeGreaterThan(0);
    const q = found[0]!.question as Extract<TQuestion, { type: "short" }>;
    expect(q.promptText).toMatch(
      /“synchondrosis” is the term for this description: “A fibrous joint found only in the skull\.”/,
    );
    expect(q.suggestedAnswer).toMatch(/described suture, not synchondrosis/);
    expect(q.suggestedAnswer).toMatch(/hyaline cartilage/);
    expect(q.contextRefs.every((r) => r.chunkIndex === 2)).toBe(true);
    expect(gateQuestion(q, "Remember", createGateContext([JOINTS])).passed).toBe(true);
  });

  it("does not fire on a Physics term whose kin description contrasts two things", () => {
    const SEL = chunk(6, "13.3 Wave Interaction", [
      "### Standing Waves",
      "",
      "A standing wave is a wave produced by the superposition of two waves.",
    ]);
    const OTHER = chunk(7, "13.1 Types of Waves", [
      "### Periodic Waves",
      "",
      "A periodic wave is a wave that repeats for several cycles, whereas a pulse wave has only one crest or a few crests and is associated with a sudden disturbance.",
    ]);
    expect(
      candidates([SEL], [SEL, OTHER], "short", "Remember").filter((c) => c.form === "bio-mixed-definition"),
    ).toEqual([]);
  });

  it("does not pair a field with its branch (the study of …)", () => {
    const SEL = chunk(8, "44.1 The Scope of Ecology", [
      "### The Scope of Ecology",
      "",
      "Ecology is the study of the interactions of living organisms with their environment.",
    ]);
    const OTHER = chunk(9, "44.1 The Scope of Ecology", [
      "### Biogeography",
      "",
      "Biogeography is the study of the geographic distribution of living things and the abiotic factors that affect their distribution.",
    ]);
    expect(
      candidates([SEL], [SEL, OTHER], "short", "Remember").filter((c) => c.form === "bio-mixed-definition"),
    ).toEqual([]);
  });

  it("never uses a term that is a part or kind of the other (its description would not be wrong)", () => {
    const WHOLE = chunk(4, "24.2 Classifications of Fungi", [
      "### Zygomycota",
      "",
      "The zygomycetes are a relatively small group of fungi belonging to the Phylum Zygomycota.",
    ]);
    const PART = chunk(5, "24.2 Classifications of Fungi", [
      "### Fungi",
      "",
      "The fungi are a group of eukaryotic organisms that absorb nutrients from their surroundings.",
    ]);
    expect(
      candidates([WHOLE], [WHOLE, PART], "short", "Remember").filter(
        (c) => c.form === "bio-mixed-definition",
      ),
    ).toEqual([]);
  });
});
