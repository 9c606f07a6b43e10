import { describe, expect, it } from "vitest";
import { questionPrompt, questionSystemPrompt } from "@/lib/ai/prompts/generation";
import { distinctPassages } from "@/lib/generation/llm/draft";
import { type IContextChunk, type ISlot, passageKey } from "@/types/generation.types";

const slot = (over: Partial<ISlot>): ISlot => ({
  id: "s",
  index: 0,
  type: "short",
  bloomLevel: "Remember",
  marks: 3,
  difficulty: "medium",
  sourceKeys: [],
  ...over,
});
const passage = (chunkIndex: number, content: string, documentId = "d1"): IContextChunk => ({
  documentId,
  chunkIndex,
  content,
  title: "Physics",
});
const P = [passage(0, "The speed of a wave equals its frequency multiplied by its wavelength.")];

describe("prompts for every level that fit grounding", () => {
  it("Create plans an investigation of a stated relation, marked on method, with no facts beyond the passages", () => {
    const p = questionPrompt(slot({ type: "long", bloomLevel: "Create", marks: 5 }), P);
    expect(p).toMatch(/plan an investigation of a relation the passages state/);
    expect(p).toMatch(/what to change, what to measure and how, what to keep the same/);
    expect(p).toMatch(/Mark it on the method/);
    expect(p).toMatch(/never require facts beyond the passages/);
    expect(p).toMatch(/markingScheme of separate checkable points whose marks add up to 5/);
    // The system prompt no longer forbids the apparatus a plan needs.
    expect(questionSystemPrompt("grounded")).toMatch(
      /apparatus and steps of an investigation you plan are method/,
    );
  });

  it("Analyze needs two facts related, never one recalled, also as an MCQ", () => {
    const p = questionPrompt(slot({ type: "mcq", bloomLevel: "Analyze", marks: 1 }), P);
    expect(p).toMatch(/never a single fact recalled/);
    expect(p).toMatch(/assertion–reason/);
  });

  it("asks a marking scheme for every open question, short ones too", () => {
    expect(questionPrompt(slot({ type: "short", marks: 3 }), P)).toMatch(/markingScheme .* add up to 3/);
  });

  it("shows past-paper exemplars as style only", () => {
    const p = questionPrompt(slot({}), P, ["Define wavelength."]);
    expect(p).toMatch(/Past-paper questions .* for style only/);
    expect(p).toMatch(/- Define wavelength\./);
  });
});

describe("the same text reaches the prompt once", () => {
  it("keeps the first of near-identical passages held by two documents", () => {
    const text =
      "Light waves can travel through a vacuum, but sound waves need a medium such as air, water or a solid.";
    const out = distinctPassages([
      passage(0, text, "a"),
      passage(4, `${text} `, "b"),
      passage(1, "A wave is a disturbance that moves energy from one place to another.", "a"),
    ]);
    expect(out.map((c) => passageKey(c))).toEqual(["a:0", "a:1"]);
  });
});
