import path from "node:path";
import { createOpenAI } from "@ai-sdk/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as generate } from "@/app/api/generation/route";
import { POST as query } from "@/app/api/retrieval/query/route";
import { getEmbedder } from "@/lib/ai/embedder";
import { resetBreakersForProcess } from "@/lib/ai/provider-guard";
import { setLanguageModelForProcess } from "@/lib/ai/providers";
import { ingestFiles } from "@/lib/ingestion/ingest-files";
import { getStorage } from "@/lib/storage";
import { passageKey } from "@/types/generation.types";
import {
  type IPreparedStandIn,
  parseSlot,
  readPreparedDrafts,
  resolveCitations,
  startPreparedStandIn,
} from "../../eval/scripts/support/standin-model";
import { createTestEnv, type ITestEnv, makeRequest } from "../support/test-env";
import { finalQuestions, readGenerationStream } from "../support/ui-stream";

/**
 * The language-model path of `npm run bench:standin`, for one section: the real @ai-sdk/openai
 * client and route handlers, a stand-in on 127.0.0.1 answering each question prompt with the
 * draft prepared for the section, type and level (eval/generation/standin/answers.jsonl).
 */
const FILTERS = { board: "OpenStax", grade: "11", subject: "Physics" };
const SECTION = "physics:4.3";
let env: ITestEnv;
let model: IPreparedStandIn;
let context: { documentId: string; chunkIndex: number }[] = [];

beforeAll(async () => {
  const drafts = readPreparedDrafts(
    path.join(import.meta.dirname, "../../eval/generation/standin/answers.jsonl"),
  );
  model = await startPreparedStandIn(
    drafts.filter((d) => d.section === SECTION),
    process.env.STANDIN_CAPTURE,
  );
  model.current = SECTION;
  env = await createTestEnv();
  await ingestFiles(env.db, getStorage(), getEmbedder(), {
    userId: env.admin.id,
    inputs: [
      path.join(
        import.meta.dirname,
        "../../supabase/seed/demo/physics/ch04-forces-and-newtons-laws-of-motion.md",
      ),
    ],
    defaults: { ...FILTERS, resourceType: "textbook", visibility: "shared", chapterNumber: 4 },
    maxBytes: 10 * 1024 * 1024,
  });
  const res = await query(
    makeRequest("POST", "/api/retrieval/query", {
      token: env.teacher.token,
      json: {
        filters: { ...FILTERS, chapterNumber: 4 },
        query: "Newton's Second Law of Motion",
        topK: 8,
        enableRerank: false,
      },
    }),
    {},
  );
  expect(res.status).toBe(200);
  context = ((await res.json()) as { items: { documentId: string; chunkIndex: number }[] }).items.map(
    (i) => ({
      documentId: i.documentId,
      chunkIndex: i.chunkIndex,
    }),
  );
  // Generous: a loaded CI machine runs the gate between calls; the stand-in answers at once.
  setLanguageModelForProcess(
    createOpenAI({ baseURL: model.standIn.baseURL, apiKey: "test" }).chat("gpt-4o-mini"),
    20_000,
  );
});
afterAll(async () => {
  setLanguageModelForProcess(undefined);
  resetBreakersForProcess();
  await model.standIn.close();
  await env.close();
});

async function generateSet() {
  const res = await generate(
    makeRequest("POST", "/api/generation", {
      token: env.teacher.token,
      json: {
        filters: FILTERS,
        context,
        topic: "Newton's Second Law of Motion",
        blueprint: {
          items: [
            { type: "mcq", count: 1 },
            { type: "long", count: 1, marks: 5 },
          ],
          bloomTargets: ["Apply", "Create"],
        },
      },
    }),
    {},
  );
  expect(res.status).toBe(200);
  return finalQuestions((await readGenerationStream(res)).chunks);
}

describe("the language-model path with a capable stand-in model", () => {
  it("fills an Apply MCQ and a Create long answer with the model's drafts, citing the passages it was given", async () => {
    const before = model.prompts.length;
    const questions = await generateSet();
    const prompts = model.prompts.slice(before);
    expect(prompts.map((p) => `${p.type}/${p.level}`).sort()).toEqual(
      expect.arrayContaining(["long/Create", "mcq/Apply"]),
    );
    expect(prompts.every((p) => p.answered === "prepared")).toBe(true);
    expect(questions).toHaveLength(2);
    for (const q of questions) expect(q.source).toBe("llm");
    const long = questions.find((q) => q.type === "long");
    expect(long).toMatchObject({ bloomLevel: "Create", marks: 5 });
    expect(questions.find((q) => q.type === "mcq")?.bloomLevel).toBe("Apply");
    const given = new Set(context.map((c) => passageKey(c)));
    for (const q of questions) for (const r of q.contextRefs) expect(given.has(passageKey(r))).toBe(true);
  });

  it("reads the slot from the prompt and maps chunk citations onto the prompt's passage ids", () => {
    const prompt = [
      "Write a long-answer question with a suggestedAnswer …",
      "Bloom level: Create — Plan an investigation …",
      "The reviewer found these problems in your previous draft; write a different question that avoids them:\n- The model answer says things the cited passages do not.",
      '<passage id="doc-a:3" title="x">a</passage>\n<passage id="doc-a:7" title="x">b</passage>',
    ].join("\n\n");
    expect(parseSlot(prompt)).toEqual({
      type: "long",
      level: "Create",
      rewrite: true,
      feedback: ["The model answer says things the cited passages do not."],
    });
    expect(resolveCitations(["chunk:7", "chunk:9", "chunk:3"], prompt)).toEqual(["doc-a:7", "doc-a:3"]);
    expect(resolveCitations(["chunk:9"], prompt)).toEqual(["chunk:9"]);
  });
});
