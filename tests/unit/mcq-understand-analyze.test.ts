import { describe, expect, it } from "vitest";
import { createGateContext, gateQuestion } from "@/lib/generation/gate";
import { createOfflineGenerator } from "@/lib/generation/offline/generator";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import { classification, extractGroups } from "@/lib/generation/offline/knowledge/groups";
import { extractEnumerations } from "@/lib/generation/offline/knowledge/lists";
import { collectSentences } from "@/lib/generation/offline/knowledge/sentences";
import type { EBloomLevel } from "@/types/bloom.types";
import type { IContextChunk, IMcqQuestion, TQuestion } from "@/types/generation.types";
import { formSlot } from "../support/form-slots";

/** Round 12: Understand MCQs from stated groups and causes; the A–R rationale for option C. */

// One document per passage group: the chapter's knowledge is cached by its passages' keys.
const doc = (n: number) => `7c2c3d4e-1b2c-4d3e-8f40-12345678900${n}`;
const chunk = (content: string, section: string, index = 0, n = 1): IContextChunk => ({
  documentId: doc(n),
  chunkIndex: index,
  title: "Book",
  sectionPath: `Chapter 3: Chapter > ${section}`,
  content,
});

// OpenStax Biology style: two groups set against each other in one sentence.
const SUGARS = chunk(
  [
    "### Carbohydrates",
    "",
    "Carbohydrates provide energy to the cell and structural support to plants.",
    "Glucose, galactose, and fructose are common monosaccharides; whereas, common disaccharides include lactose, maltose, and sucrose.",
    "Disaccharides form when two monosaccharides undergo a dehydration reaction.",
  ].join("\n"),
  "3.2 Carbohydrates",
);

// Indian board style (NCERT Class 9 Science): kinds listed in the selection, another group of the
// same kind ("… fishes") stated elsewhere in the chapter.
const FISHES_SELECTION = chunk(
  [
    "### Pisces",
    "",
    "These are fish and are exclusively aquatic animals.",
    "Sharks, rays, and skates are cartilaginous fishes.",
    "Their skeleton is made of cartilage.",
  ].join("\n"),
  "7.4 Pisces",
  0,
  2,
);
const FISHES_CHAPTER = chunk(
  ["### Bony fishes", "", "Tuna, rohu, and catla are bony fishes.", "Their skeleton is made of bone."].join(
    "\n",
  ),
  "7.5 Bony Fishes",
  1,
  2,
);

// OpenStax Physics style: a list with no other group of its kind anywhere.
const ENGINES = chunk(
  [
    "### Heat Engines",
    "",
    "Petrol engines, diesel engines, and steam turbines are examples of heat engines.",
    "A heat engine converts part of the heat transfer into work.",
  ].join("\n"),
  "12.4 Applications of Thermodynamics",
  0,
  3,
);

const candidates = (
  chunks: IContextChunk[],
  scope: IContextChunk[],
  level: EBloomLevel,
  form: string,
  keyAt = 1,
): TQuestion[] => {
  const gen = createOfflineGenerator(chunks, 3, scope);
  const out: TQuestion[] = [];
  for (const c of gen.candidates(formSlot(chunks[0]!.documentId, "mcq", level), { used: new Set(), keyAt }))
    if (c.form === form) out.push(c.question);
  return out;
};

describe("groups stated with their members", () => {
  it("reads two groups set against each other in one sentence, and pairs them as one kind", () => {
    const groups = extractGroups(collectSentences([SUGARS]), []);
    const names = groups.map((g) => g.name);
    expect(names).toEqual(["monosaccharides", "disaccharides"]);
    expect(groups[1]!.members).toEqual(["lactose", "maltose", "sucrose"]);
    expect(classification(groups[0]!, groups[1]!)).not.toBeNull();
  });

  it("does not read a property or a verb phrase as a group, nor a list with a clause in it", () => {
    const text = chunk(
      [
        "### Genomics",
        "",
        "Many fields, such as metagenomics, pharmacogenomics, and mitochondrial genomics are using genomics.",
        "Lakes, ponds, and rivers are important to people.",
        "Iron, cobalt, and nickel are found in nature.",
      ].join("\n"),
      "17.4 Genomics",
      0,
      7,
    );
    expect(extractGroups(collectSentences([text]), [])).toEqual([]);
  });

  it("reads 'Examples of X are …' without a quantifier, and 'are Xs—for example, A, B …'", () => {
    const groups = extractGroups(
      collectSentences([
        chunk(
          [
            "### Bone Shapes",
            "",
            "Examples of irregular bones are the vertebrae, hip bones, and several skull bones.",
            "Most of the limb bones are long bones—for example, the femur, tibia, ulna, and radius.",
          ].join("\n"),
          "38.2 Bone",
          0,
          8,
        ),
      ]),
      [],
    );
    expect(groups.map((g) => [g.name, g.members])).toEqual([
      ["long bones", ["femur", "tibia", "ulna", "radius"]],
    ]);
    const enumerated = extractGroups(
      [],
      extractEnumerations(
        collectSentences([
          chunk(
            "### Bones\n\nExamples of irregular bones are the vertebrae, hip bones, and several skull bones.",
            "38.2 Bone",
            0,
            9,
          ),
        ]),
      ),
    );
    expect(enumerated[0]?.members).toEqual(["vertebrae", "hip bones", "skull bones"]);
  });

  it("does not pair groups whose names are one inside the other", () => {
    const [fruits, dry] = extractGroups(
      collectSentences([
        chunk(
          "### Fruits\n\nTomatoes, peppers, and avocados are fruits.\nRice, wheat, and nuts are dry fruits.",
          "32.1 Fruits",
          0,
          6,
        ),
      ]),
      [],
    );
    expect(classification(fruits!, dry!)).toBeNull();
  });
});

describe("example-mcq (Understand)", () => {
  it("asks for the example of a stated group, the options members of its stated sibling group", () => {
    const qs = candidates([SUGARS], [SUGARS], "Understand", "example-mcq") as IMcqQuestion[];
    const is = qs.find((q) => /is an example of monosaccharides\?$/.test(q.promptText))!;
    expect(is).toBeDefined();
    expect(["glucose", "galactose", "fructose"]).toContain(is.options[is.correctIndex]);
    const wrong = is.options.filter((_, i) => i !== is.correctIndex).sort();
    expect(wrong).toEqual(["lactose", "maltose", "sucrose"]);
    expect(is.bloomLevel).toBe("Understand");
    const not = qs.find((q) => /NOT an example of disaccharides\?$/.test(q.promptText))!;
    expect(["glucose", "galactose", "fructose"]).toContain(not.options[not.correctIndex]);
  });

  it("draws wrong options from the chapter, cites only the selection, and keys NOT only on a cited group", () => {
    const qs = candidates(
      [FISHES_SELECTION],
      [FISHES_SELECTION, FISHES_CHAPTER],
      "Understand",
      "example-mcq",
    );
    const q = qs[0] as IMcqQuestion;
    expect(q.promptText).toBe("Which of the following is an example of cartilaginous fishes?");
    expect(["sharks", "rays", "skates"]).toContain(q.options[q.correctIndex]);
    expect(q.contextRefs.every((r) => r.chunkIndex === 0)).toBe(true);
    // The NOT form would key "tuna", which only the unselected chapter passage states.
    expect(qs.some((x) => /\bNOT\b/.test(x.promptText))).toBe(false);
  });

  it("refuses an odd one out whose category the text does not state", () => {
    // Only one group: nothing says which other items are definitely not heat engines.
    expect(candidates([ENGINES], [ENGINES], "Understand", "example-mcq")).toEqual([]);
    // A second list of another kind ("… are vectors") is not a category of heat engines.
    const vectors = chunk(
      "### Vectors\n\nDisplacement, velocity, and force are vectors.\nA vector has a size and a direction.",
      "5.1 Vectors",
      1,
      3,
    );
    expect(candidates([ENGINES], [ENGINES, vectors], "Understand", "example-mcq")).toEqual([]);
  });

  it("passes the quality gate at Understand", () => {
    const q = candidates([SUGARS], [SUGARS], "Understand", "example-mcq")[0]!;
    const gate = gateQuestion(q, "Understand", createGateContext([SUGARS]));
    expect(gate.passed).toBe(true);
  });
});

describe("classify-sort is Understand", () => {
  it("sorts four stated items into the two groups at Understand, not Analyze", () => {
    const qs = candidates([SUGARS], [SUGARS], "Understand", "classify-sort") as IMcqQuestion[];
    expect(qs.length).toBeGreaterThan(0);
    expect(qs[0]!.options[qs[0]!.correctIndex]).toMatch(/^monosaccharides: .+; disaccharides: .+$/);
    expect(candidates([SUGARS], [SUGARS], "Analyze", "classify-sort")).toEqual([]);
    // Options lower-case an item that opened its sentence ("Glucose").
    expect(qs.flatMap((q) => (q as IMcqQuestion).options).join(" ")).not.toMatch(/Glucose/);
  });

  it("leaves out an item sharing a word with the other group's items (skull bones / roof of the skull)", () => {
    const bones = chunk(
      [
        "### Bone Shapes",
        "",
        "Examples of flat bones are the sternum, ribs, scapulae, and the roof of the skull.",
        "Examples of irregular bones are the vertebrae, hip bones, and several skull bones.",
      ].join("\n"),
      "38.2 Bone",
      0,
      10,
    );
    const qs = candidates([bones], [bones], "Understand", "classify-sort") as IMcqQuestion[];
    expect(qs.length).toBeGreaterThan(0);
    for (const q of qs) expect(q.promptText).not.toMatch(/skull/);
  });
});

describe("no explain-why-mcq (removed in wave 14)", () => {
  // Its wrong options were causes the text gives for other effects: true, but plainly about
  // something else, and its key was the passage's sentence. The first blind reading of one
  // (wave 14, two readers) rejected it both times (nonsense distractors, copied key).
  const MUSCLE = chunk(
    [
      "### Muscles",
      "",
      "Muscle cells contain many mitochondria because muscle contraction needs a large supply of energy.",
      "Red blood cells carry oxygen because they are packed with haemoglobin.",
    ].join("\n"),
    "38.4 Muscle Contraction",
    0,
    4,
  );
  const CHAPTER = chunk(
    [
      "### Bone",
      "",
      "Compact bone resists bending because osteons are aligned along lines of stress.",
      "Spongy bone makes the skeleton lighter because spongy bone is full of open spaces.",
      "Bones grow in length because cartilage in the growth plate keeps dividing.",
    ].join("\n"),
    "38.1 Types of Skeletal Systems",
    1,
    4,
  );

  it("offers no 'Which statement best explains why …' item at any level from stated causes", () => {
    for (const level of ["Remember", "Understand", "Analyze"] as const) {
      const gen = createOfflineGenerator([MUSCLE], 3, [MUSCLE, CHAPTER]);
      const stems = [
        ...gen.candidates(formSlot(MUSCLE.documentId, "mcq", level), { used: new Set(), keyAt: 1 }),
      ].map((c) => c.question.promptText);
      expect(stems.some((t) => /best explains why/.test(t))).toBe(false);
    }
  });
});

describe("assertion–reason keyed B", () => {
  it("does not offer an effect that is no statement ('A faulty protein that plays a key role …')", () => {
    const text = chunk(
      [
        "### Cancer",
        "",
        "All cancers start when a gene mutation gives rise to a faulty protein that plays a key role in cell reproduction.",
        "Retinoblastoma proteins are a group of tumor-suppressor proteins common in many cells.",
      ].join("\n"),
      "10.4 Cancer and the Cell Cycle",
      0,
      11,
    );
    for (const q of candidates([text], [text], "Analyze", "assertion-reason"))
      expect(q.promptText).not.toMatch(/Assertion \(A\): A faulty protein/);
  });

  it("says why 'A true, R false' is wrong with the R shown, not the stated cause", () => {
    const text = chunk(
      [
        "### Entropy",
        "",
        "Every energy transfer loses some usable energy as heat.",
        "Therefore, every energy transfer increases the entropy of the universe.",
        "Entropy is a measure of the disorder of a system.",
      ].join("\n"),
      "6.3 The Laws of Thermodynamics",
      0,
      5,
    );
    const kb = buildKnowledge([text]);
    expect(kb.causal.some((c) => c.across)).toBe(true);
    const qs = candidates([text], [text], "Analyze", "assertion-reason") as IMcqQuestion[];
    const b = qs.find((q) => q.correctIndex === 1);
    expect(b).toBeDefined();
    const c = b!.distractorRationales![1]!;
    expect(c).toMatch(/disorder/);
    expect(c).not.toMatch(/usable energy/);
  });
});

describe("capital", () => {
  it("keeps a word like tRNA or pH as it is at the start of a statement", async () => {
    const { capital } = await import("@/lib/generation/offline/forms/common");
    expect(capital("tRNAs are the molecules that translate")).toBe("tRNAs are the molecules that translate");
    expect(capital("pH falls")).toBe("pH falls");
    expect(capital("osteons are aligned")).toBe("Osteons are aligned");
  });
});
