import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PATCH as patchQuestion } from "@/app/api/questions/[id]/route";
import { GET as searchQuestions } from "@/app/api/questions/route";
import { BIOLOGY, generateSet, ingestDemoChapter } from "../support/demo-data";
import { createTestEnv, type ITestEnv, makeRequest, params } from "../support/test-env";

/**
 * "Add questions from your sets" (GET /api/questions) lists a regenerated question once: the
 * latest version, with the versions it replaced under `earlierVersions` (issue 29 item 4).
 */
type TRow = { id: string; status: string; earlierVersions?: { id: string; promptText: string }[] };

let env: ITestEnv;
let context: { documentId: string; chunkIndex: number }[];

async function list(token = env.teacher.token): Promise<TRow[]> {
  const res = await searchQuestions(makeRequest("GET", "/api/questions", { token }), params({}));
  expect(res.status).toBe(200);
  return (await res.json()).questions;
}

/** A one-MCQ set (what Regenerate saves), replacing `replaces` when given; its question's id. */
async function oneQuestion(seed: number, replaces?: string, token = env.teacher.token): Promise<string> {
  const setId = await generateSet(token, {
    filters: BIOLOGY,
    context,
    blueprint: { items: [{ type: "mcq", count: 1 }] },
    seed,
    ...(replaces ? { replaces } : {}),
  });
  const [row] = await env.db.query<{ id: string }>("select id from questions where set_id = $1", [setId]);
  if (!row) throw new Error("the set saved no question");
  return row.id;
}

beforeAll(async () => {
  env = await createTestEnv();
  const docId = await ingestDemoChapter(env, "ch04-cell-structure.md", 4, "Cells");
  context = Array.from({ length: 30 }, (_, i) => ({ documentId: docId, chunkIndex: i }));
});
afterAll(async () => {
  await env.close();
});

describe("regenerated questions in GET /api/questions", () => {
  it("lists the latest version once, with its earlier versions newest first", async () => {
    const first = await oneQuestion(3);
    const second = await oneQuestion(4, first);
    const third = await oneQuestion(5, second);
    const other = await oneQuestion(6);
    const [stored] = await env.db.query<{ replaces: string | null }>(
      "select s.request->>'replaces' as replaces from question_sets s join questions q on q.set_id = s.id where q.id = $1",
      [third],
    );
    expect(stored?.replaces).toBe(second);

    const rows = await list();
    const ids = rows.map((r) => r.id);
    expect(ids).toContain(third);
    expect(ids).toContain(other);
    expect(ids).not.toContain(first);
    expect(ids).not.toContain(second);
    const latest = rows.find((r) => r.id === third)!;
    expect(latest.earlierVersions?.map((v) => v.id)).toEqual([second, first]);
    expect(latest.earlierVersions?.every((v) => v.promptText.length > 0)).toBe(true);
    expect(rows.find((r) => r.id === other)!.earlierVersions).toBeUndefined();

    // Rejecting the latest brings back the version before it (with its own history).
    const res = await patchQuestion(
      makeRequest("PATCH", "/x", { token: env.teacher.token, json: { status: "rejected" } }),
      params({ id: third }),
    );
    expect(res.status).toBe(200);
    const after = await list();
    expect(after.map((r) => r.id)).not.toContain(third);
    expect(after.find((r) => r.id === second)?.earlierVersions?.map((v) => v.id)).toEqual([first]);
  });

  it("counts only the caller's own sets: another teacher naming a question does not hide it", async () => {
    const mine = await oneQuestion(7);
    const theirs = await oneQuestion(8, mine, env.otherTeacher.token);
    expect((await list()).map((r) => r.id)).toContain(mine);
    const theirRows = await list(env.otherTeacher.token);
    const row = theirRows.find((r) => r.id === theirs);
    expect(row).toBeDefined();
    // The other teacher cannot read the teacher's question through the chain either.
    expect(row?.earlierVersions).toBeUndefined();
  });
});
