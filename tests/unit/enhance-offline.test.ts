import { describe, expect, it } from "vitest";
import { classifyQuery } from "@/lib/retrieval/classify";
import { ENHANCE_LIMITS, enhanceQueryOffline, feedbackTerms } from "@/lib/steps/enhance/offline";
import { terms } from "@/lib/text/tokenize";

const FILTERS = { board: "CBSE", grade: "10", subject: "Biology" };
const THESAURUS: Record<string, string[]> = {
  membrane: ["tissue layer", "membrane"],
  cell_membrane: ["plasma_membrane", "plasmalemma"],
  cell: ["electric cell", "cadre", "cubicle"],
  transport: ["conveyance", "carry"],
};
const synonyms = (w: string) => THESAURUS[w] ?? [];
const FEEDBACK = [
  "The plasma membrane controls what enters the cell. Passive transport such as diffusion needs no energy; diffusion follows the concentration gradient.",
  "Diffusion of water is osmosis. The concentration gradient drives diffusion across the plasma membrane.",
  "Facilitated diffusion uses channel proteins in the plasma membrane; the concentration gradient sets the direction.",
];

const LIGHT_REACTIONS = [
  "The light-dependent reactions take place in the thylakoid membrane. Photosystem II absorbs light energy and splits water; the chemical reaction releases oxygen. Cells use this energy.",
  "Electrons from photosystem II pass along the electron transport chain to photosystem I, which reduces NADP+ to NADPH. ATP synthase makes ATP as hydrogen ions flow back.",
  "The energy of visible light excites chlorophyll in photosystem II. The products ATP and NADPH carry energy to the Calvin cycle; the function of each cell depends on them.",
];

function enhance(rawQuery: string, extra: Partial<Parameters<typeof enhanceQueryOffline>[0]> = {}) {
  return enhanceQueryOffline({
    rawQuery,
    classification: classifyQuery(rawQuery),
    filters: FILTERS,
    ...extra,
  });
}

describe("enhanceQueryOffline", () => {
  it("never drops the user's words and keeps them first", () => {
    const raw = "Explain transport across the cell membrane";
    const r = enhance(raw, { synonyms, feedbackDocs: FEEDBACK, bloomTargets: ["Analyze"] });
    expect(r.enhancedQuery.startsWith(raw)).toBe(true);
    expect(r.addedTerms.length).toBeGreaterThan(0);
  });

  it("adds attested synonyms only, and explains each", () => {
    const r = enhance("Explain transport across the cell membrane", { synonyms, feedbackDocs: FEEDBACK });
    const syns = r.addedTerms.filter((a) => a.source === "synonym").map((a) => a.term);
    expect(syns).toContain("plasma membrane");
    expect(syns).not.toContain("cadre");
    expect(syns).not.toContain("cubicle");
    for (const a of r.addedTerms) expect(a.reason.length).toBeGreaterThan(5);
  });

  it("takes one synonym per word when no passages attest the sense", () => {
    const r = enhance("osmosis", {
      synonyms: (w) => (w === "osmosis" ? ["osmotic flow", "water diffusion"] : []),
    });
    const syns = r.addedTerms.filter((a) => a.source === "synonym");
    expect(syns.map((s) => s.term)).toEqual(["osmotic flow"]);
  });

  it("adds the chapter name when absent, not when present", () => {
    const withChapter = { ...FILTERS, chapterName: "Transport in Plants" };
    const added = enhance("How does water move up a stem?", { filters: withChapter }).addedTerms;
    expect(added).toContainEqual(
      expect.objectContaining({ term: "Transport in Plants", source: "metadata" }),
    );
    const present = enhance("Transport in plants: xylem", { filters: withChapter }).addedTerms;
    expect(present.some((a) => a.term === "Transport in Plants")).toBe(false);
  });

  it("adds the subject only to a short query without feedback", () => {
    expect(enhance("cell").addedTerms.some((a) => a.term === "Biology")).toBe(true);
    expect(enhance("cell", { feedbackDocs: FEEDBACK }).addedTerms.some((a) => a.term === "Biology")).toBe(
      false,
    );
  });

  it("adds the topic's key terms from the passages, the sharpest first, never generic words", () => {
    const concept = enhance("Explain how substances cross the membrane", { feedbackDocs: FEEDBACK });
    const fb = concept.addedTerms.filter((a) => a.source === "feedback").map((a) => a.term);
    expect(fb.length).toBeGreaterThan(0);
    expect(fb.length).toBeLessThanOrEqual(ENHANCE_LIMITS.keyTerms);
    expect(fb).toContain("diffusion");
    expect(fb).not.toContain("cell");
    expect(fb).not.toContain("direction");
    // The issue's example: the light reactions' own terms, not "visible light" or "chemical reaction".
    const light = enhance("photosynthesis light reactions", {
      feedbackDocs: LIGHT_REACTIONS,
      synonyms: (w) => (w === "light" ? ["visible light", "visible radiation"] : []),
    });
    const added = light.addedTerms.map((a) => a.term);
    expect(added).toEqual(expect.arrayContaining(["photosystem II", "NADPH"]));
    expect(added).not.toContain("visible light");
    expect(added.join(" ")).not.toMatch(/\b(?:cells?|function|chemical reaction|energy)\b/);
    // The note does not contradict itself: terms were added, and it says so.
    expect(light.explanations[0]).not.toMatch(/as written/);
    expect(light.explanations.join(" ")).toMatch(
      /Key terms of this topic in your curriculum: .*photosystem II/,
    );
  });

  it("adds Bloom cue words only for levels above Understand", () => {
    const low = enhance("photosynthesis", { bloomTargets: ["Remember", "Understand"] });
    expect(low.addedTerms.some((a) => a.source === "bloom")).toBe(false);
    const high = enhance("photosynthesis", { bloomTargets: ["Apply", "Create"] });
    const cues = high.addedTerms.filter((a) => a.source === "bloom").map((a) => a.term);
    expect(cues).toEqual(expect.arrayContaining(["example", "design"]));
    expect(cues.length).toBeLessThanOrEqual(ENHANCE_LIMITS.bloomTerms);
  });

  it("highlights the added terms and the user's words at their exact offsets", () => {
    const r = enhance("Explain transport across the cell membrane", {
      synonyms,
      feedbackDocs: FEEDBACK,
      bloomTargets: ["Apply"],
    });
    for (const h of [...r.termHighlights, ...r.originalHighlights]) {
      expect(r.enhancedQuery.slice(h.start, h.end)).toBe(h.term);
    }
    expect(r.termHighlights.map((h) => h.term)).toEqual(r.addedTerms.map((a) => a.term));
    expect(r.originalHighlights.map((h) => h.term)).toEqual([
      "Explain",
      "transport",
      "across",
      "cell",
      "membrane",
    ]);
  });

  it("never repeats a term and stays within 2× + 12 terms", () => {
    const big = Object.fromEntries(
      ["osmosis", "water", "membrane"].map((w) => [w, Array.from({ length: 20 }, (_, i) => `${w}syn${i}`)]),
    );
    const r = enhance("osmosis water membrane", {
      synonyms: (w) => big[w] ?? [],
      feedbackDocs: FEEDBACK,
      bloomTargets: ["Apply", "Analyze", "Evaluate", "Create"],
      filters: { ...FILTERS, chapterName: "Membranes and Transport" },
    });
    // Each added term brings a stem that nothing before it had.
    const seen = new Set(terms("osmosis water membrane"));
    for (const a of r.addedTerms) {
      const ts = terms(a.term);
      expect(ts.some((t) => !seen.has(t))).toBe(true);
      for (const t of ts) seen.add(t);
    }
    expect(terms(r.enhancedQuery).length).toBeLessThanOrEqual(
      2 * terms("osmosis water membrane").length + 12,
    );
  });

  it("gives a search text without the instruction words", () => {
    const raw = "Generate 10 MCQs on passive transport";
    const r = enhance(raw, { feedbackDocs: FEEDBACK });
    expect(r.searchText.startsWith("passive transport")).toBe(true);
    expect(r.searchText).not.toMatch(/MCQ/);
    expect(r.enhancedQuery.startsWith(raw)).toBe(true);
  });

  it("says so when nothing was added", () => {
    const r = enhance("What is osmosis?", { feedbackDocs: ["The cell is one part of the body."] });
    expect(r.addedTerms).toEqual([]);
    expect(r.enhancedQuery).toBe("What is osmosis?");
    expect(r.explanations[0]).toContain("as written");
    expect(r.explanations.at(-1)).toContain("Nothing was added");
  });
});

describe("feedbackTerms", () => {
  it("ranks terms that recur across passages, requiring two passages when there are three or more", () => {
    const out = feedbackTerms(FEEDBACK);
    expect(out[0]?.term).toBe("diffusion");
    expect(out.every((t) => t.docs >= 2)).toBe(true);
    expect(out.some((t) => t.term === "osmosis")).toBe(false);
  });
  it("handles no passages", () => {
    expect(feedbackTerms([])).toEqual([]);
  });
});
