import { describe, expect, it } from "vitest";
import { extractEffects, extractMonotonic } from "@/lib/generation/offline/knowledge/relations";
import { testSentence } from "../support/sentence";

/** Wave 10 (issue 25, point 3): Apply and Create from relations and effects stated in words. */

const mono = (text: string) => extractMonotonic([testSentence(text)]).map((r) => [r.x, r.sign, r.y]);

describe("a quantity changed, stated as acting on an observable target", () => {
  it("reads 'an increase in X inhibits Y' and 'Y is inhibited by rising X' (OpenStax Biology style)", () => {
    expect(
      mono("An increase in gonad hormone levels inhibits GnRH production through a negative feedback loop."),
    ).toEqual([["the gonad hormone level", -1, "GnRH production"]]);
    expect(mono("PTH release is inhibited by rising blood calcium levels.")).toEqual([
      ["the blood calcium level", -1, "PTH release"],
    ]);
    expect(mono("Higher temperatures reduce the rate of photosynthesis.")).toEqual([
      ["the temperature", -1, "the rate of photosynthesis"],
    ]);
  });

  it("keeps an opening setting with the target (Indian board style)", () => {
    expect(
      mono(
        "In aquatic plants, an increase in the concentration of carbon dioxide increases the rate of photosynthesis.",
      ),
    ).toEqual([["the concentration of carbon dioxide", 1, "the rate of photosynthesis in aquatic plants"]]);
  });

  it("does not read a level stated only as high or low as a monotonic relation (optima)", () => {
    expect(mono("In roots, a high concentration of IAA inhibits cell elongation.")).toEqual([]);
    expect(mono("High temperatures denature enzymes and reduce their activity.")).toEqual([]);
  });

  it("refuses a changed agent that is not a quantity one can set", () => {
    expect(mono("An increase in body temperature causes iron to be conserved.")).toEqual([]);
    expect(mono("Rising competition reduces the growth of the population.")).toEqual([]);
  });
});

describe("the effects reader says where it gave up (eval:generation --why)", () => {
  const steps = (text: string) => {
    const out: string[] = [];
    extractEffects([testSentence(text)], (s) => out.push(s));
    return out;
  };
  it("names the refused part of an effect-worded clause", () => {
    expect(steps("Many antibiotics inhibit bacterial protein synthesis.")).toEqual([
      "effects: the agent is not a thing to remove",
    ]);
    expect(steps("Auxin promotes the growth of the shoot.")).toEqual([]);
    expect(
      steps("Glucagon and insulin, by contrast, are both made in the pancreas and inhibit nothing here."),
    ).toEqual(["effects: effect verb, but not as subject–verb–object"]);
  });
  it("reports a clause that leans on its context", () => {
    const out: string[] = [];
    extractEffects([testSentence("It inhibits the rate of transpiration.", { standalone: false })], (s) =>
      out.push(s),
    );
    expect(out).toEqual(["effects: leans on its context"]);
  });
});
