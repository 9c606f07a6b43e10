import { describe, expect, it } from "vitest";
import { passageSnippet } from "@/lib/text/snippet";

describe("passageSnippet", () => {
  it("keeps decimal numbers whole (no '70. 0 m/s')", () => {
    const s = passageSnippet("The car reaches 70.0 m/s in 3.5 s. It then slows down. Friction acts.", 100);
    expect(s).toBe("The car reaches 70.0 m/s in 3.5 s. It then slows down. Friction acts.");
    expect(s).not.toMatch(/\d\. \d/);
  });

  it("leaves out headings, figure captions and image credits", () => {
    const text = [
      "## 5.1 Components of membranes",
      "Figure: The plasma membrane. (credit: modification of work by Mariana Ruiz Villareal)",
      "(credit: “Foobar”/Wikimedia Commons)",
      "Proteins extend from the outer surface (credit: modification of work by NIH). Credit: Rao, A., Ryan, K.",
      "The membrane is fluid.",
    ].join("\n");
    const s = passageSnippet(text, 100);
    expect(s).toBe("Proteins extend from the outer surface. The membrane is fluid.");
  });

  it("starts at the first whole sentence when the chunk begins mid-sentence", () => {
    expect(passageSnippet("of the cell wall. Lysosomes digest waste. They hold enzymes.", 100)).toBe(
      "Lysosomes digest waste. They hold enzymes.",
    );
  });

  it("stops at three sentences and within the word budget", () => {
    const text = "One is here. Two is here. Three is here. Four is here.";
    expect(passageSnippet(text, 100)).toBe("One is here. Two is here. Three is here.");
    expect(passageSnippet(text, 7)).toBe("One is here. Two is here.");
  });

  it("cuts an over-long first sentence at a whole word, marked with an ellipsis", () => {
    const long = `Alpha ${"photosynthesis ".repeat(60)}ends here.`;
    const s = passageSnippet(long, 20);
    expect(s.endsWith("photosynthesis…")).toBe(true);
    expect(s.split(/\s+/)).toHaveLength(20);
    const chars = passageSnippet(`${"chloroplast ".repeat(80)}end.`, 400);
    expect(chars.length).toBeLessThanOrEqual(481);
    expect(chars).toMatch(/chloroplast…$/);
  });

  it("falls back to the captions, then the headings, of a chunk with no body text", () => {
    expect(
      passageSnippet("## 4.6 Cilia\nFigure: Cilia beat in waves. (credit: modification of work by NIH)", 50),
    ).toBe("Cilia beat in waves.");
    expect(passageSnippet("# Chapter 4\n## 4.1 Studying Cells", 50)).toBe("Chapter 4. 4.1 Studying Cells.");
    expect(
      passageSnippet("| Cell Component | Function |\n|---|---|\n| Ribosomes | Protein synthesis |", 50),
    ).toBe("Cell Component: Function. Ribosomes: Protein synthesis.");
    expect(passageSnippet("(credit: someone)", 50)).toBe("");
  });
});
