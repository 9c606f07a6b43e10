import { describe, expect, it } from "vitest";
import {
  comparable,
  compareSiblings,
  genusPhrase,
  listKind,
  siblingPairs,
} from "@/lib/generation/offline/forms/written-compare";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import type { EBloomLevel } from "@/types/bloom.types";
import type { IContextChunk, TQuestion } from "@/types/generation.types";
import { formSlot } from "../support/form-slots";
import { testSentence } from "../support/sentence";

// Passages in the style of OpenStax Biology 2e / Physics (CC BY 4.0) and an Indian board (NCERT
// Class 10 "Control and Coordination") textbook.
const DOC = "7a1c2e4a-1b2c-4d3e-8f40-123456789abf";
const chunkOf = (section: string, ...lines: string[]): IContextChunk => ({
  documentId: DOC,
  chunkIndex: 0,
  title: "Book",
  sectionPath: `Chapter 3: Book > ${section}`,
  content: [`### ${section.replace(/^[\d.]+\s*/, "")}`, "", ...lines].join("\n"),
});
const kbOf = (section: string, ...lines: string[]) => buildKnowledge([chunkOf(section, ...lines)]);
const envOf = (
  kb: ReturnType<typeof buildKnowledge>,
  type: "short" | "long",
  level: EBloomLevel = "Understand",
) => {
  const steps: string[] = [];
  return {
    env: {
      kb,
      slot: formSlot(DOC, type, level),
      random: () => 0.5,
      keyAt: 0,
      used: new Set<string>(),
      trace: (s: string) => steps.push(s),
    },
    steps,
  };
};
const points = (q: TQuestion | undefined) =>
  q && q.type !== "mcq" ? (q.markingScheme ?? []).map((p) => p.point) : [];

describe("listKind: the kind a list sentence names for its members", () => {
  it("reads “types of K:”, “K include”, “K such as” and “… are K”", () => {
    expect(
      listKind(
        "There are three types of muscle tissue: skeletal, cardiac, and smooth muscle.",
        "skeletal",
        "cardiac",
      ),
    ).toBe("types of muscle tissue");
    const sugars =
      "Glucose, galactose, and fructose are common monosaccharides; whereas, common disaccharides include lactose, maltose, and sucrose.";
    expect(listKind(sugars, "glucose", "fructose")).toBe("monosaccharides");
    expect(listKind(sugars, "lactose", "sucrose")).toBe("disaccharides");
    expect(
      listKind(
        "Metals such as copper, aluminium and silver are good conductors of electricity.",
        "copper",
        "silver",
      ),
    ).toBe("metals");
    expect(
      listKind(
        "Grafting, layering, and micropropagation are some methods used for artificial asexual reproduction.",
        "Grafting",
        "layering",
      ),
    ).toBe("methods used for artificial asexual reproduction");
  });

  it("reads members of several words before “are K”, and a long sentence with no “are” as no list", () => {
    expect(
      listKind(
        "Red blood cells, white blood cells, and blood platelets are formed elements of the blood.",
        "white blood cells",
        "red blood cells",
      ),
    ).toBe("formed elements of the blood");
    // A member followed by a long run of words and commas, and no "are": the list reading must
    // give up (the earlier pattern nested word groups and backtracked exponentially here).
    const long = `The cortex, the medulla, ${"and the long winding tubules of the nephron, ".repeat(12)}carry filtrate onward.`;
    expect(listKind(long, "cortex", "medulla")).toBeNull();
  });

  it("names no kind for a list of things of different kinds", () => {
    expect(
      listKind(
        "Though physicists like Compton, Einstein, and Planck all provided evidence of light’s propulsive capacity, the technology is recent.",
        "Compton",
        "Einstein",
      ),
    ).toBeNull();
    expect(
      listKind("This is followed by digestion, absorption, and elimination.", "digestion", "elimination"),
    ).toBeNull();
    expect(
      listKind(
        "Scientists call these viruses bacteriophages, and they infect bacteria.",
        "viruses",
        "bacteria",
      ),
    ).toBeNull();
  });
});

describe("compare-siblings: two siblings of a stated kind, one stated feature each", () => {
  it("Biology: two monosaccharides the list names, each defined, with the kind as the similarity", () => {
    const kb = kbOf(
      "3.2 Carbohydrates",
      "Glucose, galactose, and fructose are common monosaccharides.",
      "Glucose is a six-carbon sugar that cells use as their main source of energy.",
      "Fructose is a six-carbon sugar found mainly in fruit and honey.",
    );
    const { env } = envOf(kb, "short");
    const [q] = [...compareSiblings.build(env)];
    expect(q?.promptText).toBe(
      "Compare glucose and fructose: state one thing they have in common and one way in which they differ.",
    );
    expect(points(q)).toEqual([
      "Glucose is a six-carbon sugar that cells use as their main source of energy",
      "Fructose is a six-carbon sugar found mainly in fruit and honey",
      "Similarity: both are monosaccharides",
    ]);
    expect(q?.contextRefs.map((r) => r.quote)).toContain(
      "Glucose, galactose, and fructose are common monosaccharides.",
    );
    expect(compareSiblings.available(kb)).toBeGreaterThan(0);
  });

  it("Physics: two waves defined with one genus (no list needed)", () => {
    const kb = kbOf(
      "13.1 Types of Waves",
      "A transverse wave is a wave in which the disturbance is perpendicular to the direction of propagation.",
      "A longitudinal wave is a wave in which the disturbance is parallel to the direction of propagation.",
    );
    const [q] = [...compareSiblings.build(envOf(kb, "short").env)];
    expect(q?.promptText).toMatch(/^Compare (?:a )?transverse wave and (?:a )?longitudinal wave/i);
    expect(points(q)[2]).toBe("Similarity: both are waves");
    expect(
      genusPhrase(
        { definition: "plant hormones that promote growth", genus: "hormone" },
        { definition: "plant hormones that close stomata", genus: "hormone" },
      ),
    ).toBe("plant hormones");
    expect(q?.type === "short" && q.suggestedAnswer).toMatch(/whereas/);
  });

  it("Indian board: hormones the text names as plant hormones, with parallel stated effects", () => {
    const kb = kbOf(
      "7.2 Coordination in Plants",
      "Plant hormones such as auxins, gibberellins, cytokinins and abscisic acid control the growth of plants.",
      "Auxins are plant hormones that promote the growth of the shoot tip by cell elongation.",
      "Gibberellins are plant hormones that promote the growth of the stem.",
    );
    const [q] = [...compareSiblings.build(envOf(kb, "short").env)];
    expect(q?.promptText).toMatch(/^Compare auxins and gibberellins/i);
    expect(points(q)).toContain("Similarity: both are plant hormones");
  });

  it("refuses a list with no kind, and two features that say different kinds of thing", () => {
    const noKind = kbOf(
      "29.1 Light",
      "Though physicists like Compton, Einstein, and Planck all provided evidence of light’s propulsive capacity, the technology is recent.",
      "Compton measured the scattering of X-rays by electrons in a graphite target.",
      "Einstein explained the photoelectric effect with quanta of light.",
    );
    const a = envOf(noKind, "short");
    expect([...compareSiblings.build(a.env)]).toEqual([]);
    expect(siblingPairs({ kb: noKind, used: new Set() })).toEqual([]);
  });

  it("sets side by side only features that say the same kind of thing", () => {
    const side = (name: string, feature: string, defined = false) => ({
      name,
      feature,
      defined,
      sentence: testSentence(`${name} ${feature}.`),
    });
    expect(
      comparable(
        side("apes", "evolved from catarrhines in Africa during the Miocene epoch"),
        side("monkeys", "evolved from prosimians during the Oligocene epoch"),
      ),
    ).toBe(true);
    expect(
      comparable(
        side("grafting", "has long been used to produce novel varieties of roses"),
        side("layering", "is a method in which a stem attached to the plant is bent and covered with soil"),
      ),
    ).toBe(false);
    expect(
      comparable(
        side("cornea", "provides about two-thirds of the magnification of the eye"),
        side("lens", "provides the remaining magnification"),
      ),
    ).toBe(true);
  });

  it("parallel sentences on counterparts: gram-positive / gram-negative bacteria (Biology)", () => {
    const kb = kbOf(
      "22.2 Structure of Prokaryotes",
      "Gram-positive bacteria have a thick cell wall made of many layers of peptidoglycan.",
      "Gram-negative bacteria have a thin cell wall and an outer membrane.",
    );
    const [q] = [...compareSiblings.build(envOf(kb, "short").env)];
    expect(q?.promptText).toBe(
      "Compare gram-positive bacteria and gram-negative bacteria: state one thing they have in common and one way in which they differ.",
    );
    expect(points(q)).toEqual([
      "Gram-positive bacteria have a thick cell wall made of many layers of peptidoglycan",
      "Gram-negative bacteria have a thin cell wall and an outer membrane",
      "Similarity: both are kinds of bacteria",
    ]);
  });

  it("parallel sentences in a Physics and an Indian board passage; unlike features refused", () => {
    const waves = kbOf(
      "13.1 Types of Waves",
      "Transverse waves have a disturbance perpendicular to the direction of propagation.",
      "Longitudinal waves have a disturbance parallel to the direction of propagation.",
    );
    expect([...compareSiblings.build(envOf(waves, "short").env)][0]?.promptText).toMatch(
      /^Compare transverse waves and longitudinal waves/,
    );
    const muscles = kbOf(
      "8.3 Movement in Animals",
      "Striated muscles are attached to bones and help in voluntary movement.",
      "Unstriated muscles are found in the walls of the stomach and help in involuntary movement.",
    );
    expect(points([...compareSiblings.build(envOf(muscles, "short").env)][0])[2]).toBe(
      "Similarity: both are kinds of muscle",
    );
    const unlike = kbOf(
      "33.2 Muscle",
      "Skeletal muscle is attached to bones by tendons.",
      "Smooth muscle is found in the walls of hollow organs such as the intestines.",
    );
    const { env, steps } = envOf(unlike, "short");
    expect([...compareSiblings.build(env)]).toEqual([]);
    expect(steps).toContain("compare: parallel sentences whose features are not of one kind");
  });

  it("keeps the article the passage gives the name (“the thyroid gland”)", () => {
    const kb = kbOf(
      "37.5 Endocrine Glands",
      "The thyroid gland is located in the neck and is composed of two lobes connected by the isthmus.",
      "The adrenal glands are located on top of the kidneys and consist of the renal cortex and renal medulla.",
    );
    const [q] = [...compareSiblings.build(envOf(kb, "short").env)];
    expect(q?.promptText).toMatch(/^Compare the thyroid gland and the adrenal glands:/);
    expect(q?.type !== "mcq" && q?.suggestedAnswer).toMatch(
      /^Both are kinds of gland\. The thyroid gland is located in the neck/,
    );
  });

  it("refuses a part and its whole, and one thing at two stages", () => {
    const whole = kbOf(
      "38.1 Types of Skeletal Systems",
      "The human skeleton is an endoskeleton that is composed of the axial and appendicular skeleton.",
      "The axial skeleton is composed of the bones of the skull, ossicles of the ear, hyoid bone, vertebral column, and ribcage.",
    );
    const a = envOf(whole, "short");
    expect([...compareSiblings.build(a.env)]).toEqual([]);
    const stages = kbOf(
      "34.3 Digestive System Processes",
      "The semi-solid waste is moved through the colon by peristaltic movements of the muscle and is stored in the rectum.",
      "The solid waste is eliminated through the anus using peristaltic movements of the rectum.",
    );
    const b = envOf(stages, "short");
    expect([...compareSiblings.build(b.env)]).toEqual([]);
    expect(b.steps.some((s) => s.startsWith("compare: one is a part or a stage of the other"))).toBe(true);
  });

  it("stays empty for a long answer (one stated feature a side is not enough)", () => {
    const kb = kbOf(
      "3.2 Carbohydrates",
      "Glucose, galactose, and fructose are common monosaccharides.",
      "Glucose is a six-carbon sugar that cells use as their main source of energy.",
      "Fructose is a six-carbon sugar found mainly in fruit and honey.",
    );
    const { env, steps } = envOf(kb, "long");
    expect([...compareSiblings.build(env)]).toEqual([]);
    expect(steps).toContain("compare: long answers need more than one stated feature a side");
  });
});
