import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/generation/offline/forms/common";
import { spotTheError, statementMcq } from "@/lib/generation/offline/forms/statements";
import { buildKnowledge } from "@/lib/generation/offline/knowledge";
import type { EBloomLevel } from "@/types/bloom.types";
import type { IContextChunk, ISlot, TQuestion } from "@/types/generation.types";

const slot = (type: "mcq" | "short" | "long", bloomLevel: EBloomLevel, marks = 1): ISlot =>
  ({ id: "s", index: 0, type, bloomLevel, marks, difficulty: "medium" }) as ISlot;

function build(form: { build: typeof statementMcq.build }, chunks: IContextChunk[], s: ISlot): TQuestion[] {
  const kb = buildKnowledge(chunks);
  return [...form.build({ kb, slot: s, random: mulberry32(3), keyAt: 1, used: new Set() })];
}

const DEMO = readFileSync(
  path.join(import.meta.dirname, "../../supabase/seed/demo/biology-2e/ch04-cell-structure.md"),
  "utf8",
);
/** The demo chapter's section 4.3 from one of its headings to its end. */
const SECTION = DEMO.slice(DEMO.indexOf("## 4.3"), DEMO.indexOf("## 4.4"));
const from = (heading: string) => SECTION.slice(SECTION.indexOf(heading));
const CENTRAL_VACUOLE = from("#### The Central Vacuole").slice(
  0,
  from("#### The Central Vacuole").indexOf("### Section"),
);

describe("statement lead-ins name what all four statements are about", () => {
  // One passage as the chunker cuts it: it runs from "Peroxisomes" to "The Central Vacuole", and
  // its section path names its LAST heading (the teacher e2e screenshot: "statements about central
  // vacuole" over peroxisomes and the centrosome).
  const passage = {
    documentId: "demo",
    chunkIndex: 7,
    title: "Biology 2e",
    content: from("### Peroxisomes"),
    sectionPath:
      "Chapter 4: Cell Structure > 4.3 Eukaryotic Cells > Animal Cells versus Plant Cells > The Central Vacuole",
  } as IContextChunk;

  it("never names a sub-heading that some of the statements are not under", () => {
    const questions = [
      ...build(statementMcq, [passage], slot("mcq", "Remember")),
      ...build(spotTheError, [passage], slot("short", "Remember", 3)),
    ];
    const about = (q: TQuestion) =>
      /(?:about|notes on) (?:the )?(.+?)(?: is NOT correct\?| is correct\?|:)/.exec(q.promptText)?.[1];
    expect(questions.map(about)).toContain("eukaryotic cells");
    for (const q of questions) {
      // Only statements that all sit under "The Central Vacuole" may be offered as about it.
      if (about(q) === "central vacuole")
        for (const r of q.contextRefs) expect(CENTRAL_VACUOLE).toContain(r.quote);
      expect(["eukaryotic cells", "central vacuole", "chloroplasts"]).toContain(about(q));
    }
    // The notes drawn from one block keep its heading.
    expect(questions.map(about)).toContain("central vacuole");
  });
});
