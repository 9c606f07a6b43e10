import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/generation/offline/forms/common";
import { fragmentReason, reverse, statementMcq } from "@/lib/generation/offline/forms/statements";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import type { IContextChunk, TQuestion } from "@/types/generation.types";
import { rememberMcqSlot } from "../support/form-slots";
import { testSentence } from "../support/sentence";

const DOC = "phys-ch16";
const chunk = (i: number, path: string, heading: string, sentences: string[]): IContextChunk =>
  ({
    documentId: DOC,
    chunkIndex: i,
    title: "Physics",
    sectionPath: `Chapter 16: Light > ${path}`,
    content: [`### ${heading}`, "", sentences.join(" ")].join("\n"),
  }) as IContextChunk;

const envOf = (selected: IContextChunk[], chapter: IContextChunk[] = selected) => ({
  kb: buildKnowledge(selected, chapter),
  slot: rememberMcqSlot,
  random: mulberry32(3),
  keyAt: 1,
  used: new Set<string>(),
});
const options = (q: TQuestion) => (q.type === "mcq" ? q.options : []);

// The selection holds one reversible statement; the rest of its section (not selected) holds more.
const SELECTED = chunk(0, "16.2 Refraction > The Law of Refraction", "The Law of Refraction", [
  "A ray of light bends toward the normal when it enters glass from air.",
  "Light travels faster in air than in glass or in water.",
]);
const REST = chunk(1, "16.2 Refraction > The Law of Refraction", "The Law of Refraction", [
  "Diamond has a higher index of refraction than water and glass.",
  "Light slows down when it passes into a medium of higher optical density.",
  "Water waves travel faster in deep water than in shallow water.",
  "Total internal reflection is the complete reflection of light at a boundary with a slower medium.",
  "Fiber optics are one common application of total internal reflection in medicine.",
]);

describe("statement-mcq: reversed wrong options from the rest of the key's section (wave 13)", () => {
  it("takes no reversed wrong options from the unselected rest of the section (readers rejected them)", () => {
    const qs = [...statementMcq.build(envOf([SELECTED], [SELECTED, REST]))];
    expect(qs.filter((x) => /is correct\?$/.test(x.promptText))).toEqual([]);
  });

  it("makes no item from the selection alone: one reversible statement is not three", () => {
    const qs = [...statementMcq.build(envOf([SELECTED]))];
    expect(qs.filter((x) => /is correct\?$/.test(x.promptText))).toEqual([]);
  });

  it("never reverses a word inside a named term ('total internal reflection')", () => {
    const s = testSentence(
      "Fiber optics are one common application of total internal reflection in medicine.",
    );
    expect(reverse(s)?.text).toMatch(/total external reflection/);
    for (const q of statementMcq.build(envOf([SELECTED], [SELECTED, REST])))
      for (const o of options(q)) expect(o).not.toMatch(/external reflection/);
  });
});

describe("statements refused as options (wave 13 development reading)", () => {
  it("refuses a lab's labelled safety note, an instruction and a garbled sentence as statements", () => {
    const lab = chunk(4, "11.2 Heat > Heat Transfer", "Heat Transfer", [
      "Heat conduction is the transfer of heat between two objects in direct contact.",
      "Convection is heat transfer by the movement of a large mass of fluid.",
      "Open flame—Tie back all loose hair and clothing before igniting an open flame.",
      "Choose any small object with a top and a bottom, such as a short nail or a coin.",
      "The higher pressure... regions are compressions, and the low pressure regions are rarefactions.",
      "A metal spoon in hot soup becomes warmer by conduction from the soup.",
      "Warm air rises above a heater, and cooler air sinks to take its place.",
    ]);
    for (const q of statementMcq.build(envOf([lab])))
      for (const o of options(q)) expect(o).not.toMatch(/Tie back|closed flame|Choose any|\.\.\./);
  });

  it("reverses a count 'most <adjective> <plural>' to 'few', not 'least'", () => {
    expect(
      reverse(testSentence("Most imperfect fungi live on land, with a few aquatic exceptions."))?.text,
    ).toBe("Few imperfect fungi live on land, with a few aquatic exceptions.");
    expect(
      reverse(testSentence("Hair is one of the most obvious characteristics of the mammals."))?.text,
    ).toBe("Hair is one of the least obvious characteristics of the mammals.");
  });

  it("does not reverse a judgement of study ('the math is far less confusing')", () => {
    expect(reverse(testSentence("Once the concept is mastered, the math is far less confusing."))).toBeNull();
  });

  it("takes a demonstration's bar magnet for a prop of the figure", () => {
    expect(
      fragmentReason(
        "The motion of the bar magnet causes the number of field lines that go through the loop to decrease.",
      ),
    ).toBe("names a thing from an example or a figure");
  });
});
