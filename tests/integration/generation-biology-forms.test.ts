import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as generate } from "@/app/api/generation/route";
import { getEmbedder } from "@/lib/ai/embedder";
import { ingestFiles } from "@/lib/ingestion/ingest-files";
import { getStorage } from "@/lib/storage";
import { createTestEnv, type ITestEnv, makeRequest } from "../support/test-env";
import { finalQuestions, readGenerationStream } from "../support/ui-stream";

const FILTERS = { board: "OpenStax", grade: "11", subject: "Biology" };
// A passage in the manner of Biology 2e: a process stated as ordered steps and two groups stated
// with their members, with no cause, relation or equation the older forms build from.
const NOTES = [
  "# Ecosystems",
  "",
  "## The Nitrogen Cycle",
  "",
  "First, the ammonification process converts nitrogenous waste from dead animals into ammonium by certain bacteria and fungi.",
  "Then, the ammonium is converted to nitrites by nitrifying bacteria through nitrification.",
  "Next, nitrites are converted to nitrates by similar organisms.",
  "Lastly, bacteria convert the nitrates into nitrogen gas during denitrification.",
  "",
  "## Fruits",
  "",
  "Fleshy fruits include berries, peaches, apples, and grapes.",
  "Dry fruits include rice, wheat, and nuts.",
  "",
  "## Regulation by p53",
  "",
  "The protein p53 halts the cell cycle when DNA is damaged. Human papillomavirus makes a protein, E6, that binds p53 and inactivates p53 so the cell cycle continues.",
  "",
  "### Visual Connection",
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

let env: ITestEnv;
let refs: { documentId: string; chunkIndex: number }[] = [];

beforeAll(async () => {
  env = await createTestEnv();
  const { writeFile, mkdtemp } = await import("node:fs/promises");
  const dir = await mkdtemp(path.join(env.dataDir, "bio-"));
  const file = path.join(dir, "nitrogen-and-fruits.md");
  await writeFile(file, NOTES);
  const [doc] = await ingestFiles(env.db, getStorage(), getEmbedder(), {
    userId: env.teacher.id,
    inputs: [file],
    defaults: { ...FILTERS, resourceType: "notes", visibility: "private" },
    maxBytes: 1024 * 1024,
  });
  const docId = doc!.ingestion!.document_id!;
  const rows = await env.db.query<{ chunk_index: number }>(
    "select chunk_index from document_chunks where document_id = $1 order by chunk_index",
    [docId],
  );
  refs = rows.map((r) => ({ documentId: docId, chunkIndex: r.chunk_index }));
});
afterAll(async () => {
  await env.close();
});

describe("POST /api/generation: sequence and classification items (offline)", () => {
  it("fills Understand and Analyze MCQs from a stated classification and process, citing the selection", async () => {
    const res = await generate(
      makeRequest("POST", "/api/generation", {
        token: env.teacher.token,
        json: {
          filters: FILTERS,
          context: refs,
          blueprint: {
            items: [{ type: "mcq", count: 3 }],
            bloomDistribution: { Understand: 1, Analyze: 2 },
            strictLevels: true,
          },
          seed: 5,
        },
      }),
      {},
    );
    expect(res.status).toBe(200);
    const { chunks } = await readGenerationStream(res);
    const finals = finalQuestions(chunks);
    const prompts = finals.map((q) => `${q.bloomLevel}: ${q.promptText}`);
    // Understand: the jumbled order, the sort or the example (classifying is Understand since
    // round 12); Analyze: what could not follow a failed step.
    expect(
      prompts.some((p) =>
        /^Understand: (The statements below describe steps of .+jumbled order|Sort .+ into two groups|Which of the following is (NOT )?an example of)/s.test(
          p,
        ),
      ),
      prompts.join("\n"),
    ).toBe(true);
    expect(
      prompts.some((p) => /^Analyze: In .+suppose this step did not take place/s.test(p)),
      prompts.join("\n"),
    ).toBe(true);
    for (const q of finals) for (const c of q.contextRefs) expect(c.documentId).toBe(refs[0]!.documentId);
  });

  it("offers the book's own keyed question, attributed, where its demand fits the slot", async () => {
    const res = await generate(
      makeRequest("POST", "/api/generation", {
        token: env.teacher.token,
        json: {
          filters: FILTERS,
          context: refs,
          blueprint: {
            items: [{ type: "mcq", count: 3 }],
            bloomDistribution: { Remember: 3 },
            strictLevels: true,
          },
          seed: 5,
        },
      }),
      {},
    );
    expect(res.status).toBe(200);
    const { chunks } = await readGenerationStream(res);
    const book = finalQuestions(chunks).filter((q) =>
      q.promptText.startsWith("From the textbook (Visual Connection"),
    );
    expect(book).toHaveLength(1);
    expect(book[0]).toMatchObject({
      type: "mcq",
      bloomLevel: "Remember",
      correctIndex: 1,
      options: expect.arrayContaining(["E6 inactivates p53"]),
    });
    expect(book[0]!.type === "mcq" && book[0]!.options[1]).toBe("E6 inactivates p53");
  });
});
