import { describe, expect, it } from "vitest";
import { createGateContext, gateQuestion } from "@/lib/generation/gate";
import { reverse, statementMcq } from "@/lib/generation/offline/forms/statements";
import { createOfflineGenerator } from "@/lib/generation/offline/generator";
import type { ISentence } from "@/lib/generation/offline/knowledge";
import type { EBloomLevel } from "@/types/bloom.types";
import type { IContextChunk, TQuestion } from "@/types/generation.types";

const DOC = "7a1c2e4a-1b2c-4d3e-8f40-123456789abc";
const PASSAGES: IContextChunk[] = [
  {
    documentId: DOC,
    chunkIndex: 0,
    title: "Biology",
    sectionPath:
      "Chapter 40: The Circulatory System > 40.1 Overview of the Circulatory System > Circulatory System Architecture",
    content: [
      "### Circulatory System Architecture",
      "",
      [
        "Arteries carry blood away from the heart under high pressure.",
        "The walls of veins are thinner than the walls of arteries, and veins hold most of the blood volume.",
        "Capillaries connect the smallest arteries to the smallest veins in the tissues.",
        "Amphibians have a three-chambered heart that mixes oxygenated and deoxygenated blood.",
        "Fish have a two-chambered heart with a single circuit of blood flow through the body.",
        "Birds and mammals have a four-chambered heart that keeps oxygenated and deoxygenated blood apart.",
        "During exercise, the heart rate of a trained athlete increases to supply the muscles with oxygen.",
        "After a meal, blood flow to the digestive organs rises to absorb the nutrients.",
        "Small mammals such as mice have a faster heart rate than large mammals such as elephants.",
      ].join(" "),
    ].join("\n"),
  },
];

const sentence = (text: string): ISentence => ({
  text,
  chunkKey: `${DOC}:0`,
  heading: "Circulatory System Architecture",
  section: "Circulatory System Architecture",
  position: 0,
  sideBox: false,
  standalone: true,
});

const slot = (type: "mcq" | "short" | "long", bloomLevel: EBloomLevel, marks: number) => ({
  id: "s0",
  index: 0,
  type,
  bloomLevel,
  marks,
  difficulty: "medium" as const,
  sourceKeys: [`${DOC}:0`],
});

function firstPassing(type: "mcq" | "short" | "long", level: EBloomLevel, marks: number, keyAt = 0) {
  const gen = createOfflineGenerator(PASSAGES, 1);
  const ctx = createGateContext(PASSAGES);
  const s = slot(type, level, marks);
  for (const { form, question } of gen.candidates(s, { used: new Set(), keyAt }))
    if (gateQuestion(question, level, ctx).passed) return { form, question };
  return null;
}

describe("reverse: a statement made false by its one direction word", () => {
  it("reverses the word and keeps the article in agreement", () => {
    expect(
      reverse(sentence("During exercise, the heart rate of a trained athlete increases to supply oxygen."))
        ?.text,
    ).toBe("During exercise, the heart rate of a trained athlete decreases to supply oxygen.");
    expect(
      reverse(sentence("A meal brings an increase in the blood flow to the digestive organs."))?.text,
    ).toBe("A meal brings a decrease in the blood flow to the digestive organs.");
  });

  it("turns a determiner 'most' into 'few' and a superlative into its opposite", () => {
    expect(reverse(sentence("Most mammals keep their body temperature within a narrow range."))?.text).toBe(
      "Few mammals keep their body temperature within a narrow range.",
    );
    expect(reverse(sentence("Hair is one of the most obvious characteristics of the mammals."))?.text).toBe(
      "Hair is one of the least obvious characteristics of the mammals.",
    );
    expect(reverse(sentence("Neutrophils are the body’s most abundant phagocytes in the blood."))?.text).toBe(
      "Neutrophils are the body’s least abundant phagocytes in the blood.",
    );
  });

  it("leaves statements it cannot prove false: hedged, negated, compounds, bound phrases, pairs", () => {
    for (const text of [
      "Exercise may increase the heart rate of an untrained person.",
      "The heart rate does not increase during sleep in most mammals.",
      "High-energy carriers pass along the transport chain of the membrane.",
      "The cell uses an electron transport chain to make ATP in the membrane.",
      "Most activation occurs on the lit side, causing the hormone to accumulate on the shaded side.",
      "Long-distance signaling elicits a systemic response aimed at deterring the predator.",
      "A plant’s sensory response to external stimuli relies on chemical messengers.",
      "At least one enzyme exists for each of the twenty amino acids.",
      "Blood moves from high pressure in the arteries to low pressure in the veins.",
      "Scientists will revise the tree as more evidence becomes available to them.",
      "When dividing cells are grown in a culture (outside the body under good conditions), the cycle is about 24 hours.",
    ])
      expect(reverse(sentence(text)), text).toBeNull();
  });
});

describe("statement forms", () => {
  // The "… is NOT correct?" variant was dropped: graded readings found reversals that stay true.
  it("an MCQ 'which statement is correct' keyed by the one statement the text makes, passing the gate", () => {
    const found = firstPassing("mcq", "Remember", 1, 2);
    expect(found?.form).toBe("statement-mcq");
    const q = found!.question as Extract<TQuestion, { type: "mcq" }>;
    expect(q.promptText).toBe(
      "Which of the following statements about circulatory system architecture is correct?",
    );
    expect(q.correctIndex).toBe(2);
    const passage = PASSAGES[0]!.content;
    const isStated = (o: string) => passage.includes(o.replace(/\.$/, ""));
    expect(isStated(q.options[q.correctIndex]!)).toBe(true);
    expect(q.options.filter((_o, i) => i !== q.correctIndex).every((o) => !isStated(o))).toBe(true);
    expect(new Set(q.distractorRationales).size).toBe(3);
  });

  // "NOT correct" stays only for reversals of a quality or direction: a swap of two names
  // (reflection/refraction, artery/vein, electron/proton) can leave the statement true.
  it("offers 'NOT correct' items only for reversals that are not swaps of two names", () => {
    const gen = createOfflineGenerator(PASSAGES, 1);
    const all = [...gen.candidates(slot("mcq", "Remember", 1), { used: new Set(), keyAt: 0 })];
    expect(all.length).toBeGreaterThan(0);
    for (const { question } of all.filter((c) => /NOT correct/.test(c.question.promptText)))
      expect(question.type === "mcq" && question.explanation).not.toMatch(/“(?:arter(?:y|ies)|veins?)”/);
  });

  it("a short written Remember item: notes with one reversed statement to find and correct, the rest confirmed for one mark", () => {
    const found = firstPassing("short", "Remember", 3);
    expect(found?.form).toBe("spot-the-error");
    const q = found!.question as Extract<TQuestion, { type: "short" }>;
    expect(q.bloomLevel).toBe("Remember");
    expect(q.promptText).toMatch(
      /^A student writes these notes on circulatory system architecture: “\(1\) .+ \(2\) .+ \(3\) .+” Check the notes/,
    );
    expect(q.markingScheme!.reduce((a, p) => a + p.marks, 0)).toBe(3);
    expect(q.suggestedAnswer.match(/is wrong: it should say “\w+”, not “\w+”\./g)).toHaveLength(1);
    expect(q.suggestedAnswer.match(/is correct\./g)).toHaveLength(2);
    // Saying the true statements are true is worth one mark, not one each.
    expect(q.markingScheme!.filter((p) => /correct$/.test(p.point))).toHaveLength(1);
    // The book's wording is one correction; another that makes the statement true earns the mark.
    expect(q.markingScheme!.find((p) => /^Corrects statement/.test(p.point))?.point).toMatch(
      /\(or another correction that makes it true\)$/,
    );
  });

  it("a long written Remember item: two reversed statements, two marks each (identify, correct), one for the rest", () => {
    const found = firstPassing("long", "Remember", 5);
    expect(found?.form).toBe("spot-the-error");
    const q = found!.question as Extract<TQuestion, { type: "long" }>;
    expect(q.promptText).toMatch(/\(3\) .+” Check the notes: say whether each statement is correct/);
    expect(q.markingScheme.map((p) => p.marks)).toEqual([1, 1, 1, 1, 1]);
    expect(q.suggestedAnswer.match(/is wrong: it should say/g)).toHaveLength(2);
    expect(q.suggestedAnswer.match(/is correct\./g)).toHaveLength(1);
    // The keywords are the corrections a student must write, not words the notes already show.
    const corrections = [...q.suggestedAnswer.matchAll(/it should say “(\w+)”/g)].map((m) =>
      m[1]!.toLowerCase(),
    );
    expect(q.evaluatorKeywords.length).toBeGreaterThan(0);
    for (const k of q.evaluatorKeywords) expect(corrections).toContain(k);
  });

  it("is not offered for an Evaluate slot: spotting a flipped word is recall", () => {
    expect(firstPassing("short", "Evaluate", 3)?.form).not.toBe("spot-the-error");
  });
});

describe("--why tracing", () => {
  // Two statements in the section: the NOT-correct item needs three true ones beside the reversed one.
  it("statement-mcq reports the step it gave up at when the section is too thin", () => {
    const thin: IContextChunk[] = [
      {
        ...PASSAGES[0]!,
        content: [
          "### Circulatory System Architecture",
          "",
          "Arteries carry blood away from the heart under high pressure. Capillaries connect the smallest arteries to the smallest veins in the tissues.",
        ].join("\n"),
      },
    ];
    const gen = createOfflineGenerator(thin, 1);
    const steps: string[] = [];
    const built = [
      ...statementMcq.build({
        kb: gen.kb,
        slot: slot("mcq", "Remember", 1),
        random: () => 0.5,
        keyAt: 0,
        used: new Set(),
        trace: (s) => steps.push(s),
      }),
    ];
    expect(built).toHaveLength(0);
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.every((s) => /neighbours|reverse|topic/.test(s))).toBe(true);
  });
});
