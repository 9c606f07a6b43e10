import { describe, expect, it } from "vitest";
import { createGateContext, gateQuestion } from "@/lib/generation/gate";
import {
  allContrasts,
  explainDifference,
  judgeGeneralisation,
} from "@/lib/generation/offline/forms/written-contrast";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import {
  extractContrasts,
  readBut,
  readCalledPair,
  readOpenerPair,
  readScene,
  readScenePair,
} from "@/lib/generation/offline/knowledge/contrasts";
import type { EBloomLevel } from "@/types/bloom.types";
import type { IContextChunk, TQuestion } from "@/types/generation.types";
import { formSlot } from "../support/form-slots";

// Sentences in the style of OpenStax Physics (CC BY 4.0), OpenStax Biology 2e and NCERT Science.
const DOC = "7a1c2e4a-1b2c-4d3e-8f40-123456789abf";
const S = (text: string) => ({ text, chunkKey: "k" });
const chunkOf = (section: string, ...lines: string[]): IContextChunk => ({
  documentId: DOC,
  chunkIndex: 0,
  title: "Physics",
  sectionPath: `Chapter 8: Momentum > ${section}`,
  content: [`### ${section.replace(/^[\d.]+\s*/, "")}`, "", ...lines].join("\n"),
});
const kbOf = (section: string, ...lines: string[]) => buildKnowledge([chunkOf(section, ...lines)]);
const envOf = (kb: ReturnType<typeof buildKnowledge>, type: "short" | "long", level: EBloomLevel) => ({
  kb,
  slot: formSlot(DOC, type, level),
  random: () => 0.5,
  keyAt: 0,
  used: new Set<string>(),
});
const points = (q: TQuestion | undefined) =>
  q && q.type !== "mcq" ? (q.markingScheme ?? []).map((p) => p.point) : [];

describe("wave 14 contrast readers (wordings without 'whereas')", () => {
  it("'S is P in A, but not in B': two settings, the statement and its denial", () => {
    const c = readScene(
      S("Kinetic energy is conserved in an elastic collision, but not in an inelastic collision."),
    );
    expect(c).toMatchObject({
      a: "an elastic collision",
      b: "an inelastic collision",
      pa: "kinetic energy is conserved",
      pb: "kinetic energy is not conserved",
      scene: true,
    });
    // NCERT wording, a listed verb: denied with "does not".
    expect(readScene(S("Current flows in a closed circuit but not in an open circuit."))).toMatchObject({
      pa: "current flows",
      pb: "current does not flow",
    });
    expect(readScene(S("Charges can move freely in a conductor, but not in an insulator."))).toBeNull();
    // One setting inside the other.
    expect(readScene(S("Charge is conserved in a collision, but not in an elastic collision."))).toBeNull();
  });

  it("'… is called X, whereas one that … is called Y': named counterparts with the kind the sentence names", () => {
    const c = readCalledPair(
      S(
        "A mirror that curves inward is called a concave mirror, whereas one that curves outward is called a convex mirror.",
      ),
    );
    expect(c).toMatchObject({
      a: "a concave mirror",
      b: "a convex mirror",
      pa: "curves inward",
      pb: "curves outward",
    });
    expect(c?.kind).toBe("mirrors");
    expect(c?.named).toBe(true);
    expect(
      readCalledPair(
        S(
          "A lens that is thicker at the middle is called a convex lens, whereas one that is thinner is called a concave lens.",
        ),
      ),
    ).toBeNull();
  });

  it("'The X-est Y is called A, while all other Ys are called B': the kind the two descriptions share", () => {
    expect(
      readCalledPair(
        S(
          "The lowest resonant frequency is called the fundamental, while all higher resonant frequencies are called overtones.",
        ),
      ),
    ).toMatchObject({
      a: "the fundamental",
      b: "overtones",
      pa: "is the lowest resonant frequency",
      pb: "are all higher resonant frequencies",
      kind: "resonant frequencies",
    });
    expect(
      readCalledPair(
        S("The positive terminal is called the anode, whereas the negative terminal is called the cathode."),
      ),
    ).toMatchObject({ kind: "terminals", pa: "is the positive terminal" });
    // No shared head: no kind, no pair.
    expect(
      readCalledPair(S("The first stage is called prophase, whereas the last event is called cytokinesis.")),
    ).toBeNull();
  });

  it("'A …, but B …' with parallel predicates; not a denial, a pronoun or a predicate inside the other", () => {
    expect(
      readBut(
        S(
          "A series circuit has one path for the current, but a parallel circuit has several paths for the current.",
        ),
      ),
    ).toMatchObject({ a: "A series circuit", b: "a parallel circuit" });
    expect(readBut(S("Momentum is conserved, but kinetic energy is not conserved."))).toBeNull();
    expect(
      readBut(S("Images formed in the eye are inverted, but the brain inverts them once more.")),
    ).toBeNull();
    expect(
      readBut(
        S("Scalar quantities have magnitude only, but vector quantities have magnitude and direction."),
      ),
    ).toBeNull();
  });

  it("'A …. In contrast, B …': two sentences in a row, physics verbs read", () => {
    expect(
      readOpenerPair(
        S("A convex lens converges parallel rays of light."),
        S("In contrast, a concave lens diverges parallel rays of light."),
      ),
    ).toMatchObject({ a: "A convex lens", b: "a concave lens", pb: "diverges parallel rays of light" });
    // No connective: the across-sentence rules of `readContrastPair` apply instead.
    expect(
      readOpenerPair(
        S("A convex lens converges parallel rays of light."),
        S("A concave lens diverges parallel rays of light."),
      ),
    ).toBeNull();
    expect(
      readScenePair(
        S("In a transverse wave, the disturbance is perpendicular to the direction of propagation."),
        S(
          "In contrast, in a longitudinal wave, the disturbance is parallel to the direction of propagation.",
        ),
      ),
    ).toMatchObject({ a: "a transverse wave", b: "a longitudinal wave", scene: true });
  });

  it("the swap claims' reading ('whereas') is unchanged: physics verbs only for the wide readers", () => {
    const kb = kbOf(
      "8.3 Lenses",
      "A convex lens converges light, whereas a concave lens diverges light rays outward.",
    );
    expect(extractContrasts(kb.sentences)).toEqual([]);
  });
});

describe("explain-difference and judge-generalisation on the new readings", () => {
  const lines = [
    "Kinetic energy is conserved in an elastic collision, but not in an inelastic collision.",
    "An inelastic collision is one in which the objects stick together after the impact.",
    "Momentum is conserved in every collision when no net external force acts on the system.",
  ];
  const kb = kbOf("8.3 Elastic and Inelastic Collisions", ...lines);

  it("finds the stated contrast", () => {
    expect(allContrasts(kb).map((c) => c.b)).toEqual(["an inelastic collision"]);
  });

  it("Understand: the two settings told apart, each mark a stated fact, passes the gate", () => {
    const q = [...explainDifference.build(envOf(kb, "short", "Understand"))][0];
    expect(q?.promptText).toBe(
      "An elastic collision and an inelastic collision are both collisions. Explain how they differ.",
    );
    expect(points(q)).toEqual([
      "In an elastic collision: kinetic energy is conserved",
      "In an inelastic collision: kinetic energy is not conserved",
      expect.stringMatching(/^Adds a further feature of an inelastic collision: /),
    ]);
    const verdict = gateQuestion(
      q!,
      "Understand",
      createGateContext([chunkOf("8.3 Elastic and Inelastic Collisions", ...lines)]),
      {
        accepted: [],
      },
    );
    expect(verdict.findings.filter((f) => f.severity === "reject")).toEqual([]);
  });

  it("Evaluate: the statement given to every collision, judged with the counterexample", () => {
    const q = [...judgeGeneralisation.build(envOf(kb, "short", "Evaluate"))][0];
    expect(q?.promptText).toMatch(/^A student claims: “In all collisions, kinetic energy is conserved\.”/);
    expect(q?.type !== "mcq" && q?.suggestedAnswer).toMatch(
      /In an inelastic collision, kinetic energy is not conserved, so an inelastic collision is a counterexample/,
    );
  });

  it("no generalisation from a naming sentence ('All mirrors curve inward' is a strawman)", () => {
    const mirrors = kbOf(
      "16.1 Reflection",
      "A mirror that curves inward is called a concave mirror, whereas one that curves outward is called a convex mirror.",
      "A convex mirror always forms an image that is upright and smaller than the object.",
    );
    expect([...judgeGeneralisation.build(envOf(mirrors, "short", "Evaluate"))]).toEqual([]);
    const q = [...explainDifference.build(envOf(mirrors, "short", "Understand"))][0];
    expect(q?.promptText).toBe(
      "A concave mirror and a convex mirror are both mirrors. Explain how they differ.",
    );
  });
});
