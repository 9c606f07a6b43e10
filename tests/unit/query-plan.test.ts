import { describe, expect, it } from "vitest";
import { classifyQuery } from "@/lib/retrieval/classify";
import { type IPlanSwitches, isExamStyle, planQuery } from "@/lib/steps/plan/offline";

const ON: IPlanSwitches = { planner: true, variants: true, hyde: true, focus: true, llm: false };
const plan = (query: string, switches: Partial<IPlanSwitches> = {}, clientVariants?: string[]) =>
  planQuery({
    query,
    classification: classifyQuery(query),
    switches: { ...ON, ...switches },
    clientVariants,
  });

describe("planQuery", () => {
  it("searches the single query as classified when the planner is off", () => {
    const p = plan("Compare mitosis and meiosis", { planner: false });
    expect(p).toMatchObject({
      strategy: "single",
      subQueries: [],
      options: [],
      hyde: false,
      chapterFocus: false,
    });
    expect(p.mainText).toBe(classifyQuery("Compare mitosis and meiosis").searchText);
  });

  it("decomposes a comparison into its sides, each searched beside the whole", () => {
    const p = plan("Compare mitosis and meiosis");
    expect(p.strategy).toBe("decompose");
    expect(p.subQueries).toEqual(["mitosis", "meiosis"]);
    expect(p.reasons.join(" ")).toMatch(/2 things at once/);
  });

  it("searches a pasted MCQ by its stem and each option as a probe", () => {
    const p = plan("Which organelle makes ATP? A) ribosome B) mitochondrion C) nucleus D) vacuole");
    expect(p.options).toEqual(["ribosome", "mitochondrion", "nucleus", "vacuole"]);
    expect(p.mainText).not.toMatch(/ribosome|vacuole/);
    expect(p.mainText).toMatch(/organelle/);
    expect(p.strategy).toBe("multi-query");
  });

  it("reads a pasted exam question: scaffolding out, the quantities of a numeric problem in", () => {
    const p = plan(
      "A motor does 600 J of work in 3 s. What is its power? A) 200 W B) 1800 W C) 600 W D) 3 W",
    );
    expect(p.exam?.cues).toEqual(expect.arrayContaining(["options", "numeric"]));
    expect(p.mainText.split(" ")).toEqual(
      expect.arrayContaining(["motor", "work", "power", "energy", "time"]),
    );
    expect(p.mainText).not.toMatch(/\d/);
    expect(p.examStyle).toBe(true);
    expect(p.reasons.join(" ")).toMatch(/exam question/);
    const mcq = plan(
      "Which of the following statements about enzymes is correct? A) used up B) lipids C) slow D) fast",
    );
    expect(mcq.mainText).toBe("enzymes");
    // The ablation searches the question as before; term lookups keep the classifier's reading.
    expect(plan("A motor does 600 J of work in 3 s. What is its power?", { exam: false }).exam).toBeNull();
    expect(plan("What is osmosis?").exam).toBeNull();
  });

  it("focuses an exam task on its chapter, even one the classifier reads as a lookup", () => {
    const task = plan("List some ways plants disperse their seeds.");
    expect(task.exam?.cues).toEqual(["task"]);
    expect(task.mainText).toBe("plants disperse seeds");
    expect(task).toMatchObject({ examStyle: true, chapterFocus: true, hyde: false });
    // The objective without a full stop keeps the classifier's reading (offline HyDE, no focus).
    const objective = plan("Explain how the nephron filters blood");
    expect(objective.exam).toBeNull();
    expect(objective).toMatchObject({ examStyle: false, chapterFocus: false });
    // A term lookup or a request is never an exam task.
    expect(plan("Define osmosis").exam).toBeNull();
    expect(plan("Generate 5 MCQs on osmosis.").exam).toBeNull();
  });

  it("adds a hypothetical passage offline, and asks the model when one is configured", () => {
    expect(plan("Explain how the nephron filters blood")).toMatchObject({
      strategy: "hyde",
      hyde: true,
      llm: false,
    });
    const withModel = plan("Explain how the nephron filters blood", { llm: true });
    expect(withModel).toMatchObject({ strategy: "multi-query", llm: true });
    expect(plan("Explain how the nephron filters blood", { hyde: false })).toMatchObject({ hyde: false });
    // A named term is searched as it is.
    expect(plan("What is osmosis?").hyde).toBe(false);
    expect(plan("What is osmosis?", { hydeLookups: true }).hyde).toBe(true);
    expect(plan("The first forms of life on Earth were ________.").hyde).toBe(false);
  });

  it("keeps up to three distinct client variants with content words, not the query again", () => {
    const p = plan("osmosis", {}, [
      "water movement across membranes",
      "Osmosis",
      " ",
      "the of and",
      "b c d",
      "water potential",
      "water movement across membranes",
      "tonicity",
      "turgor",
    ]);
    expect(p.clientVariants).toEqual(["water movement across membranes", "water potential", "tonicity"]);
    expect(plan("osmosis", { variants: false }, ["water movement"]).clientVariants).toEqual([]);
  });

  it("focuses exam-style questions on a chapter, not term lookups or teacher requests", () => {
    expect(plan("The first forms of life on Earth were ________.").chapterFocus).toBe(true);
    expect(
      plan("Why might negative feedback mechanisms be more common than positive ones in cells?").chapterFocus,
    ).toBe(true);
    expect(plan("What is osmosis?").chapterFocus).toBe(false);
    expect(plan("Generate 10 MCQs on photosynthesis").chapterFocus).toBe(false);
    expect(plan("The first forms of life on Earth were ________.", { focus: false }).chapterFocus).toBe(
      false,
    );
  });

  it("reads question form, blanks and a trailing colon as exam style", () => {
    const exam = (q: string) => isExamStyle(q, classifyQuery(q));
    expect(exam("Genomics can be used on a personal level to:")).toBe(true);
    expect(exam("Describe the stages of the cell cycle")).toBe(false);
    expect(exam("define osmosis")).toBe(false);
  });
});
