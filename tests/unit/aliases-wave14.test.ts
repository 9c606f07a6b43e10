import { describe, expect, it } from "vitest";
import { mcq, mulberry32, namesOneThing } from "@/lib/generation/offline/forms/common";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import { linkConcepts, termKey } from "@/lib/generation/offline/knowledge/lexicon";
import type { IContextChunk } from "@/types/generation.types";
import { rememberMcqSlot as slot } from "../support/form-slots";
import { testSentence } from "../support/sentence";

const concepts = (names: string[]) =>
  names.map((name) => ({ name, genus: "", head: termKey(name), plural: false, source: "phrase" as const }));
const aliasesOf = (text: string, names: string[], of: string) => [
  ...(linkConcepts([testSentence(text)], concepts(names), []).aliases.get(termKey(of)) ?? []),
];

describe("aliases written with an abbreviation between the two names (wave-14 blind readers: vasopressin beside antidiuretic hormone)", () => {
  it("OpenStax Biology: 'X (ADH), also known as Y' links X and Y", () => {
    const names = ["antidiuretic hormone", "vasopressin", "oxytocin"];
    const text =
      "The hormones antidiuretic hormone (ADH), also known as vasopressin, and oxytocin are produced by neurons in the hypothalamus.";
    expect(aliasesOf(text, names, "antidiuretic hormone")).toContain(termKey("vasopressin"));
    expect(aliasesOf(text, names, "antidiuretic hormone")).not.toContain(termKey("oxytocin"));
  });

  it("OpenStax Physics and NCERT-style wording: '(also called …)' after an abbreviation", () => {
    const phys =
      "Electromotive force (emf), also called the terminal voltage of an ideal source, drives the current.";
    expect(aliasesOf(phys, ["electromotive force"], "electromotive force")).toContain(
      termKey("terminal voltage of an ideal source"),
    );
    const ncert = "Haemoglobin (Hb), also called the respiratory pigment, carries oxygen in the blood.";
    expect(aliasesOf(ncert, ["haemoglobin"], "haemoglobin")).toContain(termKey("respiratory pigment"));
  });
});

describe("mcq(): two names of one thing are never two options", () => {
  const chunk = {
    documentId: "bio",
    chunkIndex: 0,
    title: "Biology 2e",
    sectionPath: "Chapter 37 > 37.3 Regulation of Body Processes",
    content:
      "The hypothalamus produces a polypeptide hormone known as antidiuretic hormone (ADH). The hormones antidiuretic hormone (ADH), also known as vasopressin, and oxytocin are produced by neurons in the hypothalamus. The pineal gland produces melatonin. Melatonin is an effective antioxidant.",
  } as IContextChunk;
  const kb = buildKnowledge([chunk], [chunk]);
  const env = { kb, slot, random: mulberry32(1), keyAt: 2, used: new Set<string>() };

  it("reads the passage's alias", () => {
    expect(namesOneThing(kb, "vasopressin", "antidiuretic hormone")).toBe(true);
    expect(namesOneThing(kb, "vasopressin", "oxytocin")).toBe(false);
    // Numbers and formulas are never read as names.
    expect(namesOneThing(kb, "2.1 m/s", "2.1 m/h")).toBe(false);
  });

  it("drops the second name and takes the next option; refuses the item when too few remain", () => {
    const o = (text: string) => ({ text });
    const q = mcq(env, {
      prompt: "Which hormone is an effective antioxidant?",
      key: o("melatonin"),
      distractors: [o("vasopressin"), o("antidiuretic hormone"), o("growth hormone"), o("oxytocin")],
      explanation: "Melatonin is an effective antioxidant.",
      sources: [],
    });
    expect(q?.type).toBe("mcq");
    const options = q?.type === "mcq" ? q.options : [];
    expect(options).toEqual(
      expect.arrayContaining(["melatonin", "vasopressin", "growth hormone", "oxytocin"]),
    );
    expect(options).not.toContain("antidiuretic hormone");
    const none = mcq(env, {
      prompt: "Which hormone is an effective antioxidant?",
      key: o("melatonin"),
      distractors: [o("vasopressin"), o("antidiuretic hormone"), o("growth hormone")],
      explanation: "Melatonin is an effective antioxidant.",
      sources: [],
    });
    expect(none).toBeNull();
  });
});
