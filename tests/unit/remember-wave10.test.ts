import { describe, expect, it } from "vitest";
import { conceptDistractors, mulberry32 } from "@/lib/generation/offline/forms/common";
import { reverse, statementMcq } from "@/lib/generation/offline/forms/statements";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import { extractTerms } from "@/lib/generation/offline/knowledge/lexicon";
import type { EBloomLevel } from "@/types/bloom.types";
import type { IContextChunk, ISlot, TQuestion } from "@/types/generation.types";
import { testChunk, testSentence } from "../support/sentence";

const slot = (type: "mcq" | "short" | "long", bloomLevel: EBloomLevel, marks = 1): ISlot =>
  ({ id: "s", index: 0, type, bloomLevel, marks, difficulty: "medium" }) as ISlot;

function build(form: { build: typeof statementMcq.build }, chunks: IContextChunk[], s: ISlot): TQuestion[] {
  const kb = buildKnowledge(chunks);
  return [...form.build({ kb, slot: s, random: mulberry32(3), keyAt: 1, used: new Set() })];
}

describe("terms are names, not lifted phrases", () => {
  const terms = (...texts: string[]) =>
    extractTerms(texts.map((t, i) => testSentence(t, { position: i }))).map((t) => t.term);

  it("reads no term from the parts or traits of something, nor from a list of parts (round 11: 'important components of the nucleotide')", () => {
    expect(
      terms(
        "The important components of the nucleotide are a nitrogenous (nitrogen-bearing) base, a 5-carbon sugar (pentose), and a phosphate group.",
        "The main function of the kidneys is the filtration of blood to remove nitrogenous wastes.",
        "The characteristics of living things are order, sensitivity, reproduction and growth.",
        "The components of a cell membrane are lipids, proteins, and carbohydrates.",
      ),
    ).toEqual([]);
  });

  it("still reads the definitions of OpenStax and NCERT style passages", () => {
    expect(
      terms(
        "Nucleotides are the monomers that make up nucleic acids such as DNA and RNA.",
        "Average speed is a scalar quantity that describes distance traveled divided by the time during which the motion occurs.",
        "Diffusion is the spontaneous movement of a substance from a region of higher concentration to a region of lower concentration.",
      ),
    ).toEqual(["nucleotides", "average speed", "diffusion"]);
  });
});

describe("definition options of the key's kind", () => {
  // OpenStax Physics 2.2 "Speed and Velocity" wording, as the chapter holds it.
  const SPEED = [
    "### Speed",
    "",
    "A description of how fast or slow an object moves is its speed. Speed is the rate at which an object changes its location. Because speed is a rate, it depends on the time interval of motion. When you describe an object's speed, you often describe the average over a time period.",
    "",
    "Average speed is a scalar quantity that describes distance traveled divided by the time during which the motion occurs.",
    "",
    "Velocity is a vector quantity that describes the speed and direction of an object.",
    "",
    "As with speed, it is useful to describe either the average velocity over a time period or the velocity at a specific moment. We consider smaller segments of the trip over smaller time intervals.",
  ].join("\n");

  it("does not offer a time interval or a time period beside average speed: 'quantity' says no kind", () => {
    const kb = buildKnowledge([testChunk(SPEED, 0, "2.2 Speed and Velocity", "phys")]);
    const t = kb.terms.find((x) => x.term === "average speed");
    if (!t) throw new Error("average speed expected as a defined term");
    const env = {
      kb,
      slot: slot("mcq", "Remember"),
      random: mulberry32(3),
      keyAt: 0,
      used: new Set<string>(),
    };
    const names = conceptDistractors(env, { ...t, name: t.term }, t.definition, 6, { atLeast: 0 }).map(
      (c) => c.name,
    );
    expect(names).not.toContain("time interval");
    expect(names).not.toContain("time period");
    expect(names).not.toContain("time intervals");
    // Velocity is stated as a quantity too (the same textual genus): still a fair option.
    expect(names).toContain("velocity");
  });
});

describe("a definition ends where a second predicate starts", () => {
  it("never keeps '… and is covered in detail elsewhere' in a definition (round 11: a key read from a broken definition)", () => {
    const terms = extractTerms([
      testSentence("Kinetic energy is the energy of motion and is covered in detail elsewhere."),
      testSentence(
        "Osmosis is the diffusion of water through a semipermeable membrane and is described further below.",
        { position: 1 },
      ),
    ]);
    expect(terms.map((t) => t.definition)).toEqual([
      "the diffusion of water through a semipermeable membrane",
    ]);
  });
});

describe("statements offered as true are plain facts of the subject", () => {
  // OpenStax Physics 3.1 wording: a simulation's instructions and a person's story sit beside the exposition.
  const ACCELERATION = [
    "### Defining Acceleration",
    "",
    "Acceleration is the rate at which velocity changes. A negative acceleration component is simply an acceleration in the negative direction along that axis. Average acceleration is distinguished from instantaneous acceleration, which is acceleration at a specific instant in time. Vary the velocity and acceleration by sliding the red and green markers along the scales. Keeping the velocity marker near zero will make the effect of acceleration more obvious. For a person, a G of about 4 is so strong that his or her face will distort as the bones accelerate forward. Gravity is the force that causes nonsupported objects to accelerate downward—or, more precisely, toward the center of Earth. A car that speeds up on a straight road has an acceleration in the direction of its motion. Experiments taking place today could perhaps have a similar effect on our view of the atom. An object that slows down has an acceleration opposite to the direction of its velocity.",
  ].join("\n");

  it("never offers a lab or simulation instruction, a guess or a person's story, and never reverses 'more precisely'", () => {
    const questions = build(
      statementMcq,
      [testChunk(ACCELERATION, 0, "3.1 Acceleration", "phys")],
      slot("mcq", "Remember"),
    );
    const options = questions.flatMap((q) => (q.type === "mcq" ? q.options : []));
    expect(questions.length).toBeGreaterThan(0);
    for (const o of options) {
      expect(o).not.toMatch(/^Vary\b|marker|his or her|perhaps|less precisely/);
    }
    // OpenStax Biology wording read in the widened items: swaps that make nonsense, not a false fact.
    const r = (t: string) => reverse(testSentence(t))?.text ?? null;
    expect(
      r("In the 21st century, infectious diseases remain among the leading causes of death worldwide."),
    ).toBeNull();
    expect(r("The cichlids of Lake Victoria are the product of a complex adaptive radiation.")).toBeNull();
    expect(r("For comparison, fats provide nine kilocalories per gram, a less desirable ratio.")).toBeNull();
    expect(r("DNA polymerase synthesizes the leading strand continuously toward the replication fork.")).toBe(
      "DNA polymerase synthesizes the lagging strand continuously toward the replication fork.",
    );
    expect(
      reverse(
        testSentence(
          "Gravity is the force that causes nonsupported objects to accelerate downward—or, more precisely, toward the center of Earth.",
        ),
      ),
    ).toBeNull();
  });
});

describe("statement options do not restate one another", () => {
  // OpenStax Biology 16.5 wording: two sentences of the section say the same thing.
  const POST = [
    "### RNA Processing",
    "",
    "RNA is transcribed, but must be processed into a mature form before translation can begin. The miRNAs are made in the nucleus as longer pre-miRNAs. Once RNA is transcribed, it must be processed to create a mature RNA that is ready to be translated. Alternative splicing can produce more than one mRNA from a given transcript. RNA-binding proteins bind to the RNA and can increase or decrease the stability of the RNA molecule. The length of the poly-A tail influences how long a transcript remains in the cytoplasm.",
  ].join("\n");

  it("never offers two options that share most of their words", () => {
    const questions = build(
      statementMcq,
      [testChunk(POST, 0, "16.5 Eukaryotic Post-transcriptional Gene Regulation", "bio")],
      slot("mcq", "Remember"),
    );
    expect(questions.length).toBeGreaterThan(0);
    for (const q of questions) {
      const options = q.type === "mcq" ? q.options : [];
      const both = options.filter((o) => /^(?:RNA is transcribed|Once RNA is transcribed)/.test(o));
      expect(both.length).toBeLessThanOrEqual(1);
    }
  });
});
