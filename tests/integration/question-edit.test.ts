import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as addItems } from "@/app/api/papers/[id]/items/route";
import { POST as createPaper } from "@/app/api/papers/route";
import { GET as getSet } from "@/app/api/question-sets/[id]/route";
import { PATCH as patchQuestion } from "@/app/api/questions/[id]/route";
import { GET as searchQuestions } from "@/app/api/questions/route";
import { BIOLOGY, generateSet, ingestDemoChapter } from "../support/demo-data";
import { createTestEnv, type ITestEnv, makeRequest, params } from "../support/test-env";

type TSaved = {
  id: string;
  type: string;
  promptText: string;
  marks: number;
  bloomLevel: string;
  options?: string[];
  correctIndex?: number;
  distractorRationales?: string[];
  markingScheme?: { point: string; marks: number }[];
  edited?: boolean;
  checkAnswer?: boolean;
  status: string;
};

let env: ITestEnv;
let setId: string;

async function questions(token = env.teacher.token): Promise<TSaved[]> {
  const res = await getSet(makeRequest("GET", "/x", { token }), params({ id: setId }));
  return (await res.json()).set.questions;
}

async function patch(id: string, json: unknown, token = env.teacher.token) {
  const res = await patchQuestion(makeRequest("PATCH", "/x", { token, json }), params({ id }));
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  env = await createTestEnv();
  const docId = await ingestDemoChapter(env, "ch04-cell-structure.md", 4, "Cells");
  const [{ n }] = (await env.db.query<{ n: number }>(
    "select count(*)::int as n from document_chunks where document_id = $1",
    [docId],
  )) as [{ n: number }];
  setId = await generateSet(env.teacher.token, {
    filters: BIOLOGY,
    context: Array.from({ length: Math.min(60, n) }, (_, i) => ({ documentId: docId, chunkIndex: i })),
    blueprint: {
      items: [
        { type: "mcq", count: 2 },
        { type: "long", count: 1, marks: 3 },
      ],
    },
    seed: 3,
  });
});
afterAll(async () => {
  await env.close();
});

describe("editing a saved question by hand (PATCH /api/questions/{id})", () => {
  it("edits an MCQ's options and key, marks it edited and asks to check the key until confirmed", async () => {
    const mcq = (await questions()).find((q) => q.type === "mcq")!;
    expect(mcq.edited).toBeUndefined();
    const options = [...mcq.options!];
    const key = mcq.correctIndex!;
    const wrong = (key + 1) % options.length;
    options[wrong] = "A fixed distractor";
    const res = await patch(mcq.id, { options, bloomLevel: "Understand" });
    expect(res.status).toBe(200);
    expect(res.body.question).toMatchObject({
      options,
      edited: true,
      checkAnswer: true,
      bloomLevel: "Understand",
    });
    // The unchanged wrong options keep their rationales; the new one has none yet.
    expect(res.body.question.distractorRationales).toHaveLength(options.length - 1);

    const confirmed = await patch(mcq.id, { checkAnswer: false, correctIndex: key });
    expect(confirmed.body.question).toMatchObject({ checkAnswer: false, edited: true, correctIndex: key });
    // Saved with the set: a reload shows the edit.
    const reread = (await questions()).find((q) => q.id === mcq.id)!;
    expect(reread).toMatchObject({ options, correctIndex: key, edited: true, checkAnswer: false });

    const stem = await patch(mcq.id, { promptText: `${mcq.promptText} (edited)` });
    expect(stem.body.question.checkAnswer).toBe(true);
  });

  it("refuses two identical options, a key outside the options and fields of another type, naming the field", async () => {
    const [mcq, other] = (await questions()).filter((q) => q.type === "mcq");
    const same = [...mcq!.options!];
    same[1] = same[0]!.toUpperCase();
    const dup = await patch(mcq!.id, { options: same });
    expect(dup.status).toBe(422);
    expect(dup.body.error.details[0].path).toBe("options.1");
    expect(dup.body.error.message).toMatch(/exactly one right answer/);
    const outside = await patch(other!.id, { options: other!.options!.slice(0, 2), correctIndex: 3 });
    expect(outside.status).toBe(422);
    expect(outside.body.error.details[0].path).toBe("correctIndex");
    const wrongType = await patch(mcq!.id, { suggestedAnswer: "An answer" });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.details[0].path).toBe("suggestedAnswer");
    const empty = await patch(mcq!.id, { options: ["A", " "] });
    expect(empty.status).toBe(400);
  });

  it("keeps a long answer's marking points adding up to its marks", async () => {
    const long = (await questions()).find((q) => q.type === "long")!;
    const off = await patch(long.id, {
      marks: 4,
      markingScheme: [
        { point: "Names the organelle", marks: 1 },
        { point: "Explains its role", marks: 2 },
      ],
    });
    expect(off.status).toBe(422);
    expect(off.body.error.message).toBe("The marking points add up to 3 marks; the question carries 4");
    expect(off.body.error.details[0].path).toBe("markingScheme");
    const ok = await patch(long.id, {
      marks: 4,
      suggestedAnswer: "The mitochondrion makes ATP by respiration.",
      markingScheme: [
        { point: "Names the organelle", marks: 2 },
        { point: "Explains its role", marks: 2 },
      ],
    });
    expect(ok.status).toBe(200);
    // No stem or option change: nothing to re-check.
    expect(ok.body.question).toMatchObject({
      marks: 4,
      edited: true,
      suggestedAnswer: expect.stringMatching(/ATP/),
    });
    expect(ok.body.question.checkAnswer).toBeUndefined();
    expect((await patch(long.id, { options: ["a", "b"] })).status).toBe(400);
  });

  it("copies the edit and its review state into a paper, and keeps other teachers out", async () => {
    const mcq = (await questions()).find((q) => q.type === "mcq" && q.checkAnswer)!;
    expect(mcq).toBeDefined();
    const created = await createPaper(
      makeRequest("POST", "/api/papers", {
        token: env.teacher.token,
        json: { template: "blank", title: "Edited", totalMarks: 5, ...BIOLOGY },
      }),
      {},
    );
    const paper = (await created.json()).paper;
    const added = await addItems(
      makeRequest("POST", "/x", {
        token: env.teacher.token,
        json: { questionIds: [mcq.id], version: paper.version },
      }),
      params({ id: paper.id }),
    );
    const body = await added.json();
    const q = body.paper.sections.flatMap((s: { items: { question: unknown }[] }) => s.items)[0].question;
    expect(q).toMatchObject({
      promptText: mcq.promptText,
      options: mcq.options,
      edited: true,
      checkAnswer: true,
    });
    expect((await patch(mcq.id, { checkAnswer: false }, env.otherTeacher.token)).status).toBe(404);
  });

  it("lists each saved question with its set's subject, so a paper of another subject can ask first", async () => {
    const res = await searchQuestions(
      makeRequest("GET", "/api/questions", { token: env.teacher.token }),
      params({}),
    );
    const rows = (await res.json()).questions as { subject: string }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.subject))).toEqual(new Set([BIOLOGY.subject]));
  });
});
