import { describe, expect, it } from "vitest";
import { contrastSiblings } from "@/lib/generation/offline/forms/reasoning";
import {
  compareSiblings,
  headPairs,
  listKind,
  namesSubject,
} from "@/lib/generation/offline/forms/written-compare";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import type { IContextChunk, TQuestion } from "@/types/generation.types";
import { formSlot } from "../support/form-slots";

// Round 13 (wave 11): kinds the sibling finders missed. Passages in the style of OpenStax Physics /
// Biology 2e (CC BY 4.0) and an Indian board (NCERT Class 9 "Force and Laws of Motion") textbook.
const DOC = "7a1c2e4a-1b2c-4d3e-8f40-123456789abc";
const kbOf = (section: string, ...lines: string[]) =>
  buildKnowledge([
    {
      documentId: DOC,
      chunkIndex: 0,
      title: "Book",
      sectionPath: `Chapter 3: Book > ${section}`,
      content: [`### ${section.replace(/^[\d.]+\s*/, "")}`, "", ...lines].join("\n"),
    } satisfies IContextChunk,
  ]);
const envOf = (kb: ReturnType<typeof buildKnowledge>) => ({
  kb,
  slot: formSlot(DOC, "short", "Understand"),
  random: () => 0.5,
  keyAt: 0,
  used: new Set<string>(),
  trace: (_s: string) => {},
});
const points = (q: TQuestion | undefined) =>
  q && q.type !== "mcq" ? (q.markingScheme ?? []).map((p) => p.point) : [];

describe("listKind: a broad head narrowed by a content modifier is a kind", () => {
  it("reads “heat transfer methods” and “temperature scales”, not “small molecules”", () => {
    expect(
      listKind(
        "There are three different heat transfer methods: conduction, convection, and radiation.",
        "conduction",
        "convection",
      ),
    ).toBe("heat transfer methods");
    expect(
      listKind(
        "There are three main temperature scales: Celsius, Fahrenheit, and Kelvin.",
        "Celsius",
        "Kelvin",
      ),
    ).toBe("temperature scales");
    expect(listKind("Water, oxygen and carbon dioxide are small molecules.", "water", "oxygen")).toBeNull();
    expect(listKind("Nuclei, ribosomes and vacuoles are key structures.", "nuclei", "ribosomes")).toBeNull();
  });
});

describe("compare-siblings: names of one head with different modifiers", () => {
  it("Physics: kinetic and static friction, subjects of sentences far apart (no parallel pair)", () => {
    const kb = kbOf(
      "5.1 Friction",
      "Friction is a force that opposes relative motion between systems in contact.",
      "Kinetic friction acts on an object that is sliding over a surface, opposing its motion.",
      "The coefficient of friction depends on the two surfaces that are in contact.",
      "Pushing a heavy crate across a floor takes a steady effort once it has started to move.",
      "Engineers measure these forces with a spring scale attached to the object.",
      "A rougher surface usually means a larger coefficient.",
      "Lubricants such as oil reduce the effect between moving parts of a machine.",
      "Static friction acts on an object at rest and can grow up to a maximum value before the object slips.",
    );
    const q = [...compareSiblings.build(envOf(kb))][0];
    expect(q?.promptText).toMatch(/^Compare kinetic friction and static friction/i);
    expect(points(q)).toContain("Similarity: both are kinds of friction");
    expect(q?.type === "short" && q.suggestedAnswer).toMatch(
      /whereas static friction acts on an object at rest/,
    );
  });

  it("Biology: aerobic and anaerobic respiration are opposites, not one thing at two stages", () => {
    const kb = kbOf(
      "7.1 Energy in Living Systems",
      "Aerobic respiration uses oxygen as the final electron acceptor and releases a large amount of ATP.",
      "Many bacteria live in places where there is little oxygen.",
      "Yeasts are used to make bread and beer.",
      "Muscle cells can switch between pathways during hard exercise.",
      "Some archaea live in hot springs and deep-sea vents.",
      "Fermentation is another way to regenerate NAD+ without oxygen.",
      "Anaerobic respiration uses another inorganic molecule as the final electron acceptor and releases less ATP.",
    );
    const q = [...compareSiblings.build(envOf(kb))][0];
    expect(q?.promptText).toMatch(/^Compare aerobic respiration and anaerobic respiration/i);
    expect(points(q)).toContain("Similarity: both are kinds of respiration");
  });

  it("Indian board: balanced and unbalanced forces; one name inside the other is no pair", () => {
    const kb = kbOf(
      "9.1 Balanced and Unbalanced Forces",
      "Balanced forces produce no change in the state of rest or of uniform motion of an object.",
      "A football kicked on a field rolls for some time before it stops.",
      "The players push the ball with their feet.",
      "The ball slows down because the grass resists its motion.",
      "A child pulls a toy cart along a smooth floor.",
      "Unbalanced forces produce a change in the speed or the direction of motion of an object.",
    );
    const q = [...compareSiblings.build(envOf(kb))][0];
    expect(q?.promptText).toMatch(/^Compare balanced forces and unbalanced forces/i);
    expect(
      headPairs(
        envOf(
          kbOf(
            "4.3 Net Force",
            "Net force is the sum of all forces.",
            "Net external force acts from outside the system.",
          ),
        ),
        ["net force", "net external force"],
      ),
    ).toEqual([]);
  });

  it("names the pair as the text does, not in a heading's title case", () => {
    const kb = kbOf(
      "37.3 Regulation of Body Processes",
      "### Thyroid Gland",
      "The thyroid gland is located in the neck and produces the hormones thyroxine and triiodothyronine.",
      "### Adrenal Glands",
      "The adrenal glands are located on top of the kidneys and produce the hormones cortisol and aldosterone.",
    );
    const q = [...compareSiblings.build(envOf(kb))][0];
    expect(q?.promptText ?? "").not.toMatch(/Thyroid Gland|Adrenal Glands/);
    expect(headPairs(envOf(kb), ["Thyroid Gland", "Adrenal Gland"])).toEqual([]);
  });

  it("refuses features of different kinds for a head pair", () => {
    const kb = kbOf(
      "6.2 Energy",
      "Kinetic energy depends on the mass and the speed of an object.",
      "Potential energy was first named by the engineer William Rankine in the nineteenth century.",
    );
    expect([...compareSiblings.build(envOf(kb))]).toEqual([]);
  });
});

describe("a stated feature is a sentence whose whole subject is the name", () => {
  it("reads “Bone renewal continues …” as about renewal, not bone (Biology, Physics, Indian board)", () => {
    expect(namesSubject("Bone renewal continues after birth into adulthood.", "bone")).toBe(false);
    expect(namesSubject("Irregular bones are bones with complex shapes.", "irregular bones")).toBe(true);
    expect(
      namesSubject("Kinetic energy, the energy of motion, is given by KE = ½mv².", "kinetic energy"),
    ).toBe(true);
    expect(namesSubject("Friction force opposes the motion of the block.", "friction")).toBe(false);
    expect(namesSubject("Unbalanced forces change the speed of an object.", "unbalanced forces")).toBe(true);
  });

  it("contrast-siblings: no pair of the kind itself with a member, nor a feature about another subject", () => {
    const kb = kbOf(
      "38.2 Bone",
      "Long bones, short bones, flat bones, irregular bones, and bone are named in this section.",
      "Bone renewal continues after birth into adulthood.",
      "Irregular bones are bones with complex shapes.",
      "Long bones lengthen as chondrocytes divide and secrete hyaline cartilage.",
    );
    for (const q of contrastSiblings.build({ ...envOf(kb) }))
      expect(q.promptText).not.toMatch(/\bbone and\b|between bone\b/i);
  });
});

describe("contrast-siblings: two members whose features say the same kind of thing", () => {
  it("Biology: refuses shape beside growth; keeps two places of one kind (NCERT-style muscles)", () => {
    const bones = kbOf(
      "38.2 Bone",
      "The bones of the body are classified as long bones, short bones, and irregular bones.",
      "Irregular bones are bones with complex shapes.",
      "Long bones lengthen as chondrocytes divide and secrete hyaline cartilage.",
      "Short bones provide stability and support as well as some limited motion.",
    );
    for (const q of contrastSiblings.build({ ...envOf(bones) }))
      expect(q.promptText).not.toMatch(/irregular bones and long bones|long bones and irregular bones/i);
    const muscles = kbOf(
      "6.3 Muscular Tissue",
      "Muscle tissue is of three types: skeletal muscle, cardiac muscle and smooth muscle.",
      "Skeletal muscle is found attached to the bones and moves the body.",
      "Cardiac muscle is found in the walls of the heart and contracts rhythmically throughout life.",
      "Smooth muscle is found in the walls of hollow organs such as the stomach and the intestine.",
    );
    const [q] = [...contrastSiblings.build({ ...envOf(muscles) })];
    if (q) expect(q.promptText).toMatch(/^Distinguish between (?:skeletal|cardiac|smooth) muscle and/);
  });
});
