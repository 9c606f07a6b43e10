import { describe, expect, it } from "vitest";
import { createGateContext, gateQuestion } from "@/lib/generation/gate";
import { supportTable } from "@/lib/generation/offline/forms";
import { bookMcqs, parseBookMcqs } from "@/lib/generation/offline/forms/book";
import { wrongOrders } from "@/lib/generation/offline/forms/sequence";
import { createOfflineGenerator } from "@/lib/generation/offline/generator";
import { buildKnowledge, type ISentence } from "@/lib/generation/offline/knowledge";
import { extractGroups, groupName, pairGroups } from "@/lib/generation/offline/knowledge/groups";
import {
  extractHeadedProcesses,
  extractProcesses,
  stepText,
} from "@/lib/generation/offline/knowledge/processes";
import { collectSentences, FEATURE_BOX } from "@/lib/generation/offline/knowledge/sentences";
import type { EBloomLevel } from "@/types/bloom.types";
import type { IContextChunk, IMcqQuestion, TQuestion } from "@/types/generation.types";
import { formSlot } from "../support/form-slots";

const DOC = "5b2c3d4e-1b2c-4d3e-8f40-123456789abc";
const at = (text: string, position: number, heading = "The Nitrogen Cycle"): ISentence => ({
  text,
  chunkKey: `${DOC}:0`,
  heading,
  section: "Biogeochemical Cycles",
  position,
  sideBox: false,
  standalone: true,
});

const NITROGEN = [
  "First, the ammonification process converts nitrogenous waste from dead animals into ammonium by certain bacteria and fungi.",
  "Then, the ammonium is converted to nitrites by nitrifying bacteria through nitrification.",
  "Next, nitrites are converted to nitrates by similar organisms.",
  "Lastly, bacteria convert the nitrates into nitrogen gas during denitrification.",
];
const FRUIT = [
  "Fleshy fruits include berries, peaches, apples, and grapes.",
  "Dry fruits include rice, wheat, and nuts.",
];

const PASSAGE: IContextChunk = {
  documentId: DOC,
  chunkIndex: 0,
  title: "Biology",
  sectionPath: "Chapter 46: Ecosystems > 46.3 Biogeochemical Cycles",
  content: ["### The Nitrogen Cycle", "", NITROGEN.join(" "), "", "### Fruits", "", FRUIT.join(" ")].join(
    "\n",
  ),
};

const slot = (type: "mcq" | "short" | "long", bloomLevel: EBloomLevel) => formSlot(DOC, type, bloomLevel);

function first(type: "mcq" | "short" | "long", level: EBloomLevel, form: string): TQuestion | undefined {
  const gen = createOfflineGenerator([PASSAGE], 3);
  for (const c of gen.candidates(slot(type, level), { used: new Set(), keyAt: 1 }))
    if (c.form === form) return c.question;
  return undefined;
}

describe("processes stated as ordered steps", () => {
  it("reads a First/Then/Next/Lastly run as four steps without their order words", () => {
    const [p, ...rest] = extractProcesses(NITROGEN.map((t, i) => at(t, i)));
    expect(rest).toHaveLength(0);
    expect(p?.name).toBe("the nitrogen cycle");
    expect(p?.steps.map((s) => s.text)).toEqual([
      "The ammonification process converts nitrogenous waste from dead animals into ammonium by certain bacteria and fungi.",
      "The ammonium is converted to nitrites by nitrifying bacteria through nitrification.",
      "Nitrites are converted to nitrates by similar organisms.",
      "Bacteria convert the nitrates into nitrogen gas during denitrification.",
    ]);
    expect(p?.steps[3]?.sentence).toBe(NITROGEN[3]);
  });

  it("names the process from 'the first step in X' and neutralises ordinal phrases", () => {
    const [p] = extractProcesses([
      at(
        "For animals, the first step in digestion is ingestion, which takes in food.",
        0,
        "Digestive Processes",
      ),
      at("Next, the food is broken down mechanically and chemically in the gut.", 1, "Digestive Processes"),
      at("Then, nutrients are absorbed into the blood across the intestinal wall.", 2, "Digestive Processes"),
      at("In the final step, undigested food is eliminated from the body.", 3, "Digestive Processes"),
    ]);
    expect(p?.name).toBe("digestion");
    expect(p?.steps[0]?.text).toBe("For animals, a step in digestion is ingestion, which takes in food.");
    expect(p?.steps).toHaveLength(4);
  });

  it("does not read a list of features or a run split over two blocks as a process", () => {
    const features = [
      at("First, they typically have an elongate neck.", 0),
      at("Second, they have hollow bones.", 1),
      at("Finally, they are warm-blooded.", 2),
    ];
    expect(extractProcesses(features)).toEqual([]);
    const split = [at(NITROGEN[0]!, 0), at(NITROGEN[1]!, 1), at(NITROGEN[2]!, 0, "Other")];
    expect(extractProcesses(split)).toEqual([]);
    expect(stepText("Then it moves on.")).toBeNull();
  });

  it("reads the sub-headings of a 'Steps of X' heading as the steps, feature boxes aside", () => {
    const content = [
      "### Steps of Virus Infections",
      "",
      "A virus must use its host-cell processes to replicate.",
      "",
      "#### Attachment",
      "",
      "A virus attaches to a specific receptor site on the host cell membrane through attachment proteins.",
      "",
      "##### Link to Learning",
      "",
      "This video explains how influenza attacks the body.",
      "",
      "#### Entry",
      "",
      "Viruses may enter a host cell either with or without the viral capsid.",
      "",
      "#### Egress",
      "",
      "The last stage of viral replication is the release of the new virions produced in the host organism.",
      "",
      "### Bacteriophages",
      "",
      "Bacteriophages are viruses that infect bacteria.",
    ].join("\n");
    const chunk: IContextChunk = {
      ...PASSAGE,
      content,
      sectionPath: "Chapter 21: Viruses > 21.2 Virus Infections and Hosts",
    };
    const [p, ...rest] = extractHeadedProcesses(
      [{ content, key: `${DOC}:0` }],
      collectSentences([chunk]),
      FEATURE_BOX,
    );
    expect(rest).toHaveLength(0);
    expect(p?.name).toBe("virus infections");
    expect(p?.steps.map((s) => s.text)).toEqual([
      "A virus attaches to a specific receptor site on the host cell membrane through attachment proteins.",
      "Viruses may enter a host cell either with or without the viral capsid.",
      "A stage of viral replication is the release of the new virions produced in the host organism.",
    ]);
  });

  it("wrong orders are distinct and never the right one", () => {
    const orders = wrongOrders(4).map((o) => o.join());
    expect(new Set(orders).size).toBe(orders.length);
    expect(orders).not.toContain("0,1,2,3");
    expect(orders.length).toBeGreaterThanOrEqual(3);
  });
});

describe("classifications stated with their members", () => {
  it("reads two groups of one kind and pairs them", () => {
    const groups = extractGroups(
      FRUIT.map((t, i) => at(t, i, "Fruits")),
      buildKnowledge([PASSAGE]).enumerations,
    );
    expect(groups.map((g) => g.name)).toEqual(["fleshy fruits", "dry fruits"]);
    const [pair, ...more] = pairGroups(groups);
    expect(more).toHaveLength(0);
    expect(pair?.groups[1].members).toEqual(["rice", "wheat", "nuts"]);
  });

  it("refuses clause-like group names and groups sharing a member", () => {
    expect(groupName("Once a protein")).toBeNull();
    expect(groupName("Some of the plants they infect")).toBeNull();
    expect(groupName("Examples of disaccharides")).toBe("disaccharides");
    const g = (name: string, members: string[]) => ({ name, members, sentence: name, chunkKey: `${DOC}:0` });
    expect(
      pairGroups([
        g("fleshy fruits", ["grapes", "apples", "peaches"]),
        g("dry fruits", ["grapes", "rice", "nuts"]),
      ]),
    ).toEqual([]);
  });
});

describe("sequence and classify forms", () => {
  it("Understand MCQ: the jumbled steps' right order is the key", () => {
    const q = first("mcq", "Understand", "sequence-order") as IMcqQuestion;
    expect(q.bloomLevel).toBe("Understand");
    expect(q.promptText).toContain("P: ");
    // Shown as P=step 3, Q=step 1, R=step 4, S=step 2: the right order is Q → S → P → R.
    expect(q.options[q.correctIndex]).toBe("Q → S → P → R");
    expect(new Set(q.options).size).toBe(4);
    expect(q.contextRefs.map((r) => r.quote)).toContain(NITROGEN[0]);
  });

  it("Analyze MCQ: the step right after the failed one is the first that cannot follow", () => {
    const q = first("mcq", "Analyze", "sequence-break") as IMcqQuestion;
    expect(q.promptText).toContain("The ammonium is converted to nitrites");
    expect(q.options[q.correctIndex]).toBe("Nitrites are converted to nitrates by similar organisms");
    expect(q.options).toContain(
      "The ammonification process converts nitrogenous waste from dead animals into ammonium by certain bacteria and fungi",
    );
  });

  it("Analyze written: what stops when a step fails, by step number, without quoting the passage", () => {
    const q = first("short", "Analyze", "sequence-written");
    expect(q?.promptText).toMatch(
      /^These are the steps of the nitrogen cycle, in order: \(1\) .+ if step 2 did not take place\.$/,
    );
    expect(q?.promptText).not.toContain("“");
    if (q?.type === "short") {
      expect(q.suggestedAnswer).toContain("step 3 could not follow");
      expect((q.markingScheme ?? []).reduce((n, p) => n + p.marks, 0)).toBe(3);
    }
    const long = first("long", "Analyze", "sequence-written");
    expect(long?.promptText).toContain("jumbled order: (P) ");
    if (long?.type === "long") expect(long.suggestedAnswer).toMatch(/^The order is Q → S → P → R\./);
  });

  it("Understand MCQ: sorting into the stated groups; Analyze: a written sort whose scheme adds up", () => {
    const q = first("mcq", "Understand", "classify-sort") as IMcqQuestion;
    const key = q.options[q.correctIndex]!;
    const [fleshy, dry] = key.split("; ");
    expect(fleshy).toMatch(/^fleshy fruits: /);
    for (const m of ["rice", "wheat", "nuts"]) expect(fleshy).not.toContain(m);
    expect(dry).toMatch(/^dry fruits: /);
    const w = first("short", "Analyze", "classify-written");
    expect(w?.type).toBe("short");
    if (w?.type === "short") expect((w.markingScheme ?? []).reduce((n, p) => n + p.marks, 0)).toBe(3);
  });

  it("the support table counts processes and classifications at Understand and Analyze", () => {
    const rows = supportTable(buildKnowledge([PASSAGE]));
    const at = (type: string, level: string) =>
      rows.find((r) => r.type === type && r.level === level)?.count ?? 0;
    // Analyze: the process (sequence-break); Understand: the order, the sort and the examples.
    expect(at("mcq", "Analyze")).toBeGreaterThanOrEqual(1);
    expect(at("long", "Analyze")).toBeGreaterThanOrEqual(2);
    expect(at("mcq", "Understand")).toBeGreaterThanOrEqual(3);
  });
});

const P53 = [
  "### Regulation by p53",
  "",
  "The protein p53 halts the cell cycle when DNA is damaged. Human papillomavirus makes a protein, E6, that binds p53 and inactivates p53 so the cell cycle continues.",
  "",
  "#### Visual Connection",
  "",
  "Human papillomavirus can cause cervical cancer. What effect do you think E6 binding has on p53 activity?",
  "",
  "1. E6 activates p53",
  "2. E6 inactivates p53",
  "3. E6 mutates p53",
  "4. E6 binding marks p53 for degradation",
  "",
  "Answer: 2",
].join("\n");
const P53_CHUNK: IContextChunk = {
  ...PASSAGE,
  content: P53,
  sectionPath: "Chapter 10: Cell Reproduction > 10.3 Control of the Cell Cycle",
};

describe("the book's own questions", () => {
  it("parses only complete MCQs: a stem, four options and a stated key", () => {
    const q =
      "Which organelle makes ATP?\n\na. nucleus\nb. mitochondrion\nc. ribosome\nd. vacuole\n\nAnswer: (b)";
    expect(parseBookMcqs(q)).toEqual([
      {
        stem: "Which organelle makes ATP?",
        options: ["nucleus", "mitochondrion", "ribosome", "vacuole"],
        correctIndex: 1,
      },
    ]);
    expect(parseBookMcqs(q.replace("\n\nAnswer: (b)", ""))).toEqual([]);
    expect(parseBookMcqs(q.replace("\nd. vacuole", ""))).toEqual([]);
  });

  it("keeps a keyed question only when the lesson states the key and no distractor", () => {
    const [b, ...more] = bookMcqs(buildKnowledge([P53_CHUNK]));
    expect(more).toHaveLength(0);
    expect(b).toMatchObject({ box: "Visual Connection", section: "10.3", correctIndex: 1 });
    expect(b?.support.quote).toContain("inactivates p53");
    const rival = P53.replace(
      "so the cell cycle continues.",
      "so the cell cycle continues. In some strains, E6 mutates p53 in infected cervical cells.",
    );
    expect(bookMcqs(buildKnowledge([{ ...P53_CHUNK, content: rival }]))).toEqual([]);
    expect(bookMcqs(buildKnowledge([{ ...P53_CHUNK, content: P53.replace("Answer: 2", "") }]))).toEqual([]);
  });

  it("offers it attributed, in the book's order, and the gate lets it stand only at the level it demands", () => {
    const gen = createOfflineGenerator([P53_CHUNK], 1);
    const ctx = createGateContext([P53_CHUNK]);
    const verdicts: Record<string, boolean> = {};
    for (const level of ["Remember", "Analyze"] as const)
      for (const c of gen.candidates(slot("mcq", level), { used: new Set(), keyAt: 0 })) {
        if (c.form !== "book-question") continue;
        const q = c.question as IMcqQuestion;
        expect(q.promptText).toBe(
          "From the textbook (Visual Connection, 10.3): Human papillomavirus can cause cervical cancer. What effect do you think E6 binding has on p53 activity?",
        );
        expect(q.options[q.correctIndex]).toBe("E6 inactivates p53");
        expect(q.correctIndex).toBe(1);
        verdicts[level] = gateQuestion(q, level, ctx).passed;
      }
    expect(verdicts).toEqual({ Remember: true, Analyze: false });
  });
});
