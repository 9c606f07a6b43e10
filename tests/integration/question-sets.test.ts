import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as generate } from "@/app/api/generation/route";
import { GET as getSet } from "@/app/api/question-sets/[id]/route";
import { GET as listSets } from "@/app/api/question-sets/route";
import { PATCH as patchQuestion } from "@/app/api/questions/[id]/route";
import { QuestionSetSchema, QuestionSetSummarySchema } from "@/schema/generation.schema";
import { countChunks, ingestDemoChapter } from "../support/demo-data";
import { createTestEnv, type ITestEnv, makeRequest, params } from "../support/test-env";
import { readGenerationStream } from "../support/ui-stream";

// "Recent sets": the caller's generated sets, to reopen with their context, scope and review state.
const _DEMO = path.join(import.meta.dirname, "../../supabase/seed/demo/biology-2e/ch08-photosynthesis.md");
const FILTERS = { board: "OpenStax", grade: "11", subject: "Biology" };

let env: ITestEnv;
let docId: string;
const refs = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({ documentId: docId, chunkIndex: from + i }));

async function generateSet(json: Record<string, unknown>, token = env.teacher.token): Promise<string> {
  const res = await generate(makeRequest("POST", "/api/generation", { token, json }), {});
  expect(res.status).toBe(200);
  const { chunks } = await readGenerationStream(res);
  const set = (chunks as { type: string; data?: { setId: string } }[]).find((c) => c.type === "data-set");
  return set!.data!.setId;
}

async function list(query = "", token = env.teacher.token) {
  const res = await listSets(makeRequest("GET", `/api/question-sets${query}`, { token }), {});
  return { status: res.status, body: await res.json() };
}

let chunks = 0;
let first: string;
let second: string;
beforeAll(async () => {
  env = await createTestEnv();
  docId = await ingestDemoChapter(env, "ch08-photosynthesis.md", 8, "Photosynthesis");
  const n = await countChunks(env, docId);
  chunks = n;
  first = await generateSet({
    filters: { ...FILTERS, documentIds: [docId] },
    context: refs(Math.min(chunks, 40)),
    blueprint: {
      items: [
        { type: "mcq", count: 3 },
        { type: "short", count: 1 },
      ],
    },
    topic: "photosynthesis light reactions",
    seed: 3,
  });
  second = await generateSet({
    filters: { ...FILTERS, chapterNumber: 8 },
    context: refs(10, 10),
    blueprint: { items: [{ type: "short", count: 2 }] },
    seed: 4,
  });
  // A "Regenerate" of one card: its own one-question set, not a set of its own in the list.
  await generateSet({
    filters: FILTERS,
    context: refs(6),
    blueprint: { items: [{ type: "mcq", count: 1, bloomLevel: "Remember", marks: 1 }] },
    avoidPrompts: ["What is photosynthesis?"],
    seed: 5,
  });
});
afterAll(async () => {
  await env.close();
});

describe("GET /api/question-sets", () => {
  it("lists the caller's sets newest first with topic, scope, size and review counts", async () => {
    const set = await (
      await getSet(makeRequest("GET", "/x", { token: env.teacher.token }), params({ id: first }))
    ).json();
    const [q0, q1] = set.set.questions as { id: string }[];
    expect(set.set.questions.length).toBeGreaterThanOrEqual(2);
    const patch = (id: string, status: string) =>
      patchQuestion(
        makeRequest("PATCH", "/x", { token: env.teacher.token, json: { status } }),
        params({ id }),
      );
    expect((await patch(q0!.id, "approved")).status).toBe(200);
    expect((await patch(q1!.id, "rejected")).status).toBe(200);

    const { status, body } = await list();
    expect(status).toBe(200);
    const sets = body.sets.map((s: unknown) => QuestionSetSummarySchema.parse(s));
    expect(sets.map((s: { id: string }) => s.id)).toEqual([second, first]);
    const a = sets[1]!;
    expect(a).toMatchObject({
      topic: "photosynthesis light reactions",
      filters: { ...FILTERS, documentIds: [docId] },
      contextCount: Math.min(chunks, 40),
      questionCount: set.set.questions.length,
      approved: 1,
      rejected: 1,
    });
    expect(Date.parse(a.createdAt)).not.toBeNaN();
    expect(sets[0]).toMatchObject({
      topic: null,
      filters: { ...FILTERS, chapterNumber: 8 },
      contextCount: 10,
    });

    const one = await list("?limit=1");
    expect(one.body.sets.map((s: { id: string }) => s.id)).toEqual([second]);
  });

  it("shows a teacher only their own sets, and needs a signed-in caller", async () => {
    expect((await list("", env.otherTeacher.token)).body.sets).toEqual([]);
    const anon = await listSets(makeRequest("GET", "/api/question-sets"), {});
    expect(anon.status).toBe(401);
  });

  it("answers a bad limit with 400 and the field", async () => {
    for (const q of ["?limit=0", "?limit=51", "?limit=abc", "?other=1"]) {
      const { status, body } = await list(q);
      expect(status, q).toBe(400);
      expect(body.error.details.length).toBeGreaterThan(0);
    }
  });

  it("reads an old or odd stored request as absent fields, never a 500", async () => {
    await env.db.query(
      `insert into question_sets (user_id, board, grade, subject, title, request, generator)
       values ($1, 'OpenStax', '11', 'Biology', 'Odd', $2, 'offline')`,
      [env.teacher.id, JSON.stringify({ filters: "x", context: [1, { documentId: "no" }], topic: "  " })],
    );
    const { status, body } = await list();
    expect(status).toBe(200);
    expect(body.sets[0]).toMatchObject({
      title: "Odd",
      topic: null,
      filters: FILTERS,
      contextCount: 0,
      questionCount: 0,
    });
  });
});

describe("GET /api/question-sets/{id}", () => {
  it("gives back the set's topic, scope and passages, to reopen it", async () => {
    const res = await getSet(makeRequest("GET", "/x", { token: env.teacher.token }), params({ id: first }));
    const { set } = await res.json();
    expect(() => QuestionSetSchema.parse(set)).not.toThrow();
    expect(set.topic).toBe("photosynthesis light reactions");
    expect(set.filters).toEqual({ ...FILTERS, documentIds: [docId] });
    expect(set.context).toEqual(refs(Math.min(chunks, 40)));
  });
});
