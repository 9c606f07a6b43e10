import mammoth from "mammoth";
import { extractText } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as exportRoute } from "@/app/api/papers/[id]/export/route";
import { POST as regenerate } from "@/app/api/papers/[id]/items/[itemId]/regenerate/route";
import { POST as swap } from "@/app/api/papers/[id]/items/[itemId]/swap/route";
import { POST as addItems } from "@/app/api/papers/[id]/items/route";
import { GET as pyqCheck } from "@/app/api/papers/[id]/pyq-check/route";
import { DELETE as deletePaper, GET as getPaperRoute, PUT as putPaper } from "@/app/api/papers/[id]/route";
import { POST as createPaper, GET as listPapers } from "@/app/api/papers/route";
import { GET as getSet } from "@/app/api/question-sets/[id]/route";
import { PATCH as patchQuestion } from "@/app/api/questions/[id]/route";
import type { IPaper, IPaperCheck } from "@/types/paper.types";
import { BIOLOGY, generateSet, ingestDemoChapter, ingestOne } from "../support/demo-data";
import { createTestEnv, type ITestEnv, makeRequest, params } from "../support/test-env";

let env: ITestEnv;
let docId: string;
let questionIds: { id: string; type: string; promptText: string; bloomLevel: string }[] = [];
let secondSet: { id: string; type: string; bloomLevel: string; promptText: string }[] = [];
let otherQuestionId: string;

const context = (n: number, from = 2) =>
  Array.from({ length: n }, (_, i) => ({ documentId: docId, chunkIndex: i + from }));

async function setQuestions(token: string, setId: string) {
  const res = await getSet(makeRequest("GET", "/x", { token }), params({ id: setId }));
  return (await res.json()).set.questions as {
    id: string;
    type: string;
    promptText: string;
    bloomLevel: string;
  }[];
}

beforeAll(async () => {
  env = await createTestEnv();
  docId = await ingestDemoChapter(env, "ch04-cell-structure.md", 4, "Cell Structure");
  // The whole demo chapter (cell structure holds the most material for written questions). The
  // offline generator leaves a slot empty rather than fill it with a form readers reject (a
  // chapter carries only a few MCQs it can write), so the paper's 6 MCQ, 4 short and 2 long
  // answers are collected from sets with different seeds.
  const [{ n: chunkCount }] = (await env.db.query<{ n: number }>(
    "select count(*)::int as n from document_chunks where document_id = $1",
    [docId],
  )) as [{ n: number }];
  const blueprint = {
    items: [
      { type: "mcq", count: 6 },
      { type: "short", count: 4, marks: 2 },
      // Long answers at Remember: "check the notes" is the written form this chapter carries most.
      { type: "long", count: 2, marks: 3, bloomLevel: "Remember" },
    ],
  };
  const want: Record<string, number> = { mcq: 6, short: 4, long: 2 };
  const picked: typeof questionIds = [];
  const missing = (type: string) => (want[type] ?? 0) - picked.filter((p) => p.type === type).length;
  for (let seed = 3; seed < 3 + 8 && picked.length < 12; seed++) {
    const set = await setQuestions(
      env.teacher.token,
      await generateSet(env.teacher.token, {
        filters: BIOLOGY,
        context: context(Math.min(60, chunkCount), 0),
        // Later sets ask only for what is still missing, so long answers get the passages too.
        blueprint: seed === 3 ? blueprint : { items: blueprint.items.filter((i) => missing(i.type) > 0) },
        seed,
      }),
    );
    for (const q of set)
      if (picked.filter((p) => p.type === q.type).length < (want[q.type] ?? 0)) picked.push(q);
  }
  questionIds = ["mcq", "short", "long"].flatMap((t) => picked.filter((q) => q.type === t));
  expect(questionIds.map((q) => q.type).join(",")).toBe(
    "mcq,mcq,mcq,mcq,mcq,mcq,short,short,short,short,long,long",
  );
  secondSet = await setQuestions(
    env.teacher.token,
    await generateSet(env.teacher.token, {
      filters: BIOLOGY,
      context: context(Math.min(60, chunkCount), 0),
      blueprint,
      seed: 11,
    }),
  );
  const other = await setQuestions(
    env.otherTeacher.token,
    await generateSet(env.otherTeacher.token, {
      filters: BIOLOGY,
      // The chapter's passages: with questions drawn only from the selection, 12 passages may
      // carry no MCQ at the default level.
      context: context(Math.min(60, chunkCount), 0),
      blueprint: { items: [{ type: "mcq", count: 1 }] },
      seed: 5,
    }),
  );
  otherQuestionId = other[0]!.id;
});
afterAll(async () => {
  await env.close();
});

type TPaperBody = { ok: boolean; paper: IPaper; check: IPaperCheck; added?: number; skipped?: number };

async function call<P extends Record<string, string>>(
  route: (r: Request, c: { params: Promise<P> }) => Promise<Response>,
  method: string,
  p: P,
  opts: { json?: unknown; token?: string; url?: string } = {},
) {
  const res = await route(
    makeRequest(method, opts.url ?? "/api/papers/x", {
      token: opts.token ?? env.teacher.token,
      json: opts.json,
    }),
    params(p),
  );
  const type = res.headers.get("content-type") ?? "";
  const body = type.includes("json") ? await res.json() : await res.arrayBuffer();
  return { status: res.status, body, headers: res.headers };
}

async function newPaper(template = "unit-test-20", token = env.teacher.token): Promise<IPaper> {
  const res = await createPaper(
    makeRequest("POST", "/api/papers", {
      token,
      json: { template, title: "Photosynthesis unit test", ...BIOLOGY, schoolName: "Green Valley School" },
    }),
    {},
  );
  expect(res.status).toBe(201);
  return (await res.json()).paper;
}

/** A new unit-test paper with every question of the first generated set added. */
async function filledPaper(): Promise<IPaper> {
  const res = await call(
    addItems,
    "POST",
    { id: (await newPaper()).id },
    { json: { questionIds: questionIds.map((q) => q.id) } },
  );
  return (res.body as TPaperBody).paper;
}

const update = (p: IPaper) => {
  const { id: _i, createdAt: _c, updatedAt: _u, ...rest } = p;
  return { ...rest, blueprint: p.blueprint ?? null };
};

describe("papers API", () => {
  it("creates papers from templates with sections and a blueprint", async () => {
    const board = await newPaper("board-80");
    expect(board.totalMarks).toBe(80);
    expect(board.sections.map((s) => [s.name, s.questionType, s.marksPerQuestion])).toEqual([
      ["Section A", "mcq", 1],
      ["Section B", "short", 2],
      ["Section C", "short", 3],
      ["Section D", "long", 5],
      ["Section E", "long", 4],
    ]);
    expect(board.blueprint?.bloomBands).toBeDefined();
    const blank = await newPaper("blank");
    expect(blank.sections).toHaveLength(1);
    expect(blank.blueprint).toBeUndefined();
    const list = await (
      await listPapers(makeRequest("GET", "/api/papers", { token: env.teacher.token }), {})
    ).json();
    expect(list.papers.map((p: { id: string }) => p.id)).toEqual(
      expect.arrayContaining([board.id, blank.id]),
    );
    const others = await (
      await listPapers(makeRequest("GET", "/api/papers", { token: env.otherTeacher.token }), {})
    ).json();
    expect(others.papers.map((p: { id: string }) => p.id)).not.toContain(board.id);
  });

  it("copies generated questions into matching sections; later edits to the set do not change the paper", async () => {
    const paper = await newPaper();
    const res = await call(
      addItems,
      "POST",
      { id: paper.id },
      { json: { questionIds: questionIds.map((q) => q.id) } },
    );
    expect(res.status).toBe(200);
    const body = res.body as TPaperBody;
    expect(body.added).toBe(12);
    const [a, b, c] = body.paper.sections;
    expect(a!.items.every((i) => i.question.type === "mcq" && i.marks === 1)).toBe(true);
    expect(b!.items.every((i) => i.question.type === "short" && i.marks === 2)).toBe(true);
    expect(c!.items.every((i) => i.question.type === "long" && i.marks === 3)).toBe(true);
    const first = a!.items[0]!;
    expect(first.question.chapter).toBe("4 · Cell Structure");
    expect(first.question.citations[0]?.documentId).toBe(docId);
    for (const item of c!.items) {
      const scheme = item.question.markingScheme ?? [];
      if (scheme.length > 0) expect(scheme.reduce((s, p) => s + p.marks, 0)).toBe(3);
    }
    expect(body.check.countedMarks).toBe(6 + 8 + 6);
    // Adding the same questions again does not double them.
    const again = await call(
      addItems,
      "POST",
      { id: paper.id },
      { json: { questionIds: [questionIds[0]!.id] } },
    );
    expect((again.body as TPaperBody).skipped).toBe(1);
    // Editing the generated question afterwards leaves the paper's copy alone.
    const edited = await patchQuestion(
      makeRequest("PATCH", "/x", {
        token: env.teacher.token,
        json: { promptText: "An edited stem about stomata?" },
      }),
      params({ id: first.question.sourceQuestionId! }),
    );
    expect(edited.status).toBe(200);
    const reread = (await call(getPaperRoute, "GET", { id: paper.id })).body as TPaperBody;
    expect(reread.paper.sections[0]!.items[0]!.question.promptText).toBe(first.question.promptText);
  });

  it("rejects questions the caller may not use, and wrong sections", async () => {
    const paper = await newPaper();
    const foreign = await call(
      addItems,
      "POST",
      { id: paper.id },
      { json: { questionIds: [otherQuestionId] } },
    );
    expect(foreign.status).toBe(403);
    expect(JSON.stringify(foreign.body)).not.toContain("stack");
    const mcqSection = paper.sections[0]!.id;
    const longQ = questionIds.find((q) => q.type === "long")!;
    const wrong = await call(
      addItems,
      "POST",
      { id: paper.id },
      { json: { questionIds: [longQ.id], sectionId: mcqSection } },
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toMatch(/holds mcq questions/);
    const unknown = await call(addItems, "POST", { id: paper.id }, { json: { questionIds: ["nope"] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details[0].path).toBe("questionIds.0");
  });

  it("saves whole papers atomically with optimistic concurrency and clear validation errors", async () => {
    const paper = await filledPaper();
    const body = update(structuredClone(paper));
    body.sections[0]!.items.reverse();
    body.title = "Reordered";
    const ok = await call(putPaper, "PUT", { id: paper.id }, { json: body });
    expect(ok.status).toBe(200);
    expect((ok.body as TPaperBody).paper.version).toBe(paper.version + 1);
    expect((ok.body as TPaperBody).paper.sections[0]!.items[0]!.id).toBe(paper.sections[0]!.items.at(-1)!.id);
    const stale = await call(putPaper, "PUT", { id: paper.id }, { json: body });
    expect(stale.status).toBe(409);
    expect(stale.body.error.message).toMatch(/changed elsewhere/);

    const bad = structuredClone({ ...body, version: paper.version + 1 });
    bad.sections[0]!.items[0]!.marks = 0;
    bad.sections[1]!.name = "";
    bad.sections[2]!.attemptAny = 9;
    const mcq = bad.sections[0]!.items[1]!;
    mcq.question.correctIndex = 7;
    const invalid = await call(putPaper, "PUT", { id: paper.id }, { json: { ...bad, extra: 1 } });
    expect(invalid.status).toBe(400);
    const paths = invalid.body.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(
      expect.arrayContaining(["sections.0.items.0.marks", "sections.1.name", "sections.2.attemptAny"]),
    );
    // Nothing of the rejected request was stored.
    const after = (await call(getPaperRoute, "GET", { id: paper.id })).body as TPaperBody;
    expect(after.paper.title).toBe("Reordered");
    expect(after.paper.version).toBe(paper.version + 1);
  });

  it("exports only papers whose marks add up; every format reads back", async () => {
    const filled = await filledPaper();
    // 20-mark template: 6 MCQ × 1 + 4 short × 2 + 2 long × 3 = 20 → ready; out of 25 → not.
    const check = (await call(getPaperRoute, "GET", { id: filled.id })).body as TPaperBody;
    expect(check.check.countedMarks).toBe(20);
    expect(check.check.problems).toEqual([]);
    const wrongTotal = await call(
      putPaper,
      "PUT",
      { id: filled.id },
      { json: { ...update(filled), totalMarks: 25 } },
    );
    expect(wrongTotal.status).toBe(200);
    const notReady = await call(exportRoute, "GET", { id: filled.id }, { url: "/x?format=pdf" });
    expect(notReady.status).toBe(400);
    expect(notReady.body.error.message).toMatch(/add up to 20 marks but the paper is out of 25/);
    // As a draft it exports, marked DRAFT, with what is unmet; the LMS formats take no drafts.
    const draftMd = await call(exportRoute, "GET", { id: filled.id }, { url: "/x?format=md&draft=true" });
    expect(draftMd.status).toBe(200);
    expect(draftMd.headers.get("content-disposition")).toMatch(/filename="?draft-/);
    const draftText = new TextDecoder().decode(draftMd.body as ArrayBuffer);
    expect(draftText).toMatch(/^# DRAFT — /m);
    expect(draftText).toContain("Still unmet: The questions add up to 20 marks but the paper is out of 25");
    const draftPdf = await call(exportRoute, "GET", { id: filled.id }, { url: "/x?format=pdf&draft=true" });
    expect(draftPdf.status).toBe(200);
    const draftPdfText = (
      await extractText(new Uint8Array((draftPdf.body as ArrayBuffer).slice(0)), { mergePages: true })
    ).text as string;
    expect(draftPdfText).toContain("DRAFT");
    const draftQti = await call(exportRoute, "GET", { id: filled.id }, { url: "/x?format=qti&draft=true" });
    expect(draftQti.status).toBe(400);
    expect(draftQti.body.error.details[0].path).toBe("format");
    const badDraft = await call(exportRoute, "GET", { id: filled.id }, { url: "/x?format=pdf&draft=yes" });
    expect(badDraft.status).toBe(400);
    expect(badDraft.body.error.details[0].path).toBe("draft");
    const fixed = await call(
      putPaper,
      "PUT",
      { id: filled.id },
      {
        json: { ...update(filled), version: filled.version + 1 },
      },
    );
    expect(fixed.status).toBe(200);

    const pdf = await call(exportRoute, "GET", { id: filled.id }, { url: "/x?format=pdf" });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toMatch(/attachment; filename="?.+\.pdf"?/);
    const text = (await extractText(new Uint8Array((pdf.body as ArrayBuffer).slice(0)), { mergePages: true }))
      .text as string;
    const squash = (s: string) => s.replace(/\s+/g, "");
    expect(squash(text)).toContain(squash("Photosynthesis unit test"));
    for (const s of filled.sections)
      for (const i of s.items) expect(squash(text)).toContain(squash(i.question.promptText));

    const docx = await call(exportRoute, "GET", { id: filled.id }, { url: "/x?format=docx&part=answer-key" });
    expect(docx.status).toBe(200);
    const raw = (await mammoth.extractRawText({ buffer: Buffer.from(docx.body as ArrayBuffer) })).value;
    expect(raw).toContain("Answer key");
    for (const f of ["md", "gift", "qti", "moodle"]) {
      const res = await call(exportRoute, "GET", { id: filled.id }, { url: `/x?format=${f}` });
      expect(res.status).toBe(200);
    }
    const again = await call(exportRoute, "GET", { id: filled.id }, { url: "/x?format=pdf" });
    expect(Buffer.from(again.body as ArrayBuffer).equals(Buffer.from(pdf.body as ArrayBuffer))).toBe(true);

    const unknown = await call(exportRoute, "GET", { id: filled.id }, { url: "/x?format=exe" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details[0].path).toBe("format");
    const foreign = await call(
      exportRoute,
      "GET",
      { id: filled.id },
      { url: "/x?format=pdf", token: env.otherTeacher.token },
    );
    expect(foreign.status).toBe(404);
  });

  it("keeps other users out of a paper entirely", async () => {
    const paper = await newPaper();
    const t = env.otherTeacher.token;
    expect((await call(getPaperRoute, "GET", { id: paper.id }, { token: t })).status).toBe(404);
    expect((await call(putPaper, "PUT", { id: paper.id }, { token: t, json: update(paper) })).status).toBe(
      404,
    );
    expect((await call(deletePaper, "DELETE", { id: paper.id }, { token: t })).status).toBe(404);
    expect(
      (await call(addItems, "POST", { id: paper.id }, { token: t, json: { questionIds: [otherQuestionId] } }))
        .status,
    ).toBe(404);
    expect((await call(pyqCheck, "GET", { id: paper.id }, { token: t })).status).toBe(404);
    // A PUT may not smuggle in a reference to someone else's question.
    const body = update(paper);
    body.sections[0]!.items.push({
      id: crypto.randomUUID(),
      marks: 1,
      question: {
        type: "mcq",
        bloomLevel: "Remember",
        difficulty: "easy",
        promptText: "Which pigment is green?",
        options: ["Chlorophyll", "Carotene", "Xanthophyll", "Melanin"],
        correctIndex: 0,
        citations: [],
        sourceQuestionId: otherQuestionId,
      },
    });
    expect((await call(putPaper, "PUT", { id: paper.id }, { json: body })).status).toBe(403);
    expect((await call(getPaperRoute, "GET", { id: "../etc" })).status).toBe(400);
    expect((await call(getPaperRoute, "GET", { id: paper.id }, { token: "forged.jwt.token" })).status).toBe(
      401,
    );
    expect((await call(deletePaper, "DELETE", { id: paper.id })).status).toBe(200);
    expect((await call(getPaperRoute, "GET", { id: paper.id })).status).toBe(404);
  });

  it("swaps a question for a similar one and regenerates one in place", async () => {
    const paper = await filledPaper();
    // A similar question not already in the paper (the offline generator repeats itself on one chapter).
    const inPaper = new Set(paper.sections.flatMap((sec) => sec.items.map((i) => i.question.promptText)));
    const target = paper.sections[0]!.items.find((i) =>
      secondSet.some(
        (q) => q.type === "mcq" && q.bloomLevel === i.question.bloomLevel && !inPaper.has(q.promptText),
      ),
    );
    if (target) {
      const swapped = await call(swap, "POST", { id: paper.id, itemId: target.id }, { json: {} });
      expect(swapped.status).toBe(200);
      const q = (swapped.body as TPaperBody).paper.sections[0]!.items.find(
        (i) => i.id === target.id,
      )!.question;
      expect(q.sourceQuestionId).not.toBe(target.question.sourceQuestionId);
      expect(q.bloomLevel).toBe(target.question.bloomLevel);
      expect(q.type).toBe("mcq");
    }
    const current = ((await call(getPaperRoute, "GET", { id: paper.id })).body as TPaperBody).paper;
    // Regenerate items in turn until one is rewritten: the offline generator refuses to repeat a
    // fact the paper already asks (a 422 that says why, and the paper is unchanged), and a chapter
    // carries only so many facts per type and level.
    const items = current.sections.flatMap((sec, si) => sec.items.map((it, ii) => ({ it, si, ii })));
    let res: Awaited<ReturnType<typeof call>> | undefined;
    let at = items[0]!;
    for (const candidate of items) {
      at = candidate;
      res = await call(
        regenerate,
        "POST",
        { id: paper.id, itemId: candidate.it.id },
        { json: { version: current.version } },
      );
      if (res.status !== 422) break;
      expect(res.body.error.message).toMatch(/left empty|different question/);
    }
    expect(res!.status, JSON.stringify(res!.body)).toBe(200);
    const item = at.it;
    const fresh = (res!.body as TPaperBody).paper.sections[at.si]!.items[at.ii]!;
    expect(fresh.id).toBe(item.id);
    expect(fresh.marks).toBe(item.marks);
    expect(fresh.question.type).toBe(item.question.type);
    expect(fresh.question.promptText).not.toBe(item.question.promptText);
    const stale = await call(
      regenerate,
      "POST",
      { id: paper.id, itemId: item.id },
      { json: { version: current.version } },
    );
    expect(stale.status).toBe(409);
    const missing = await call(swap, "POST", { id: paper.id, itemId: crypto.randomUUID() }, { json: {} });
    expect(missing.status).toBe(404);
  });

  it("flags items that are near-duplicates of the teacher's past-paper questions", async () => {
    const paper = await filledPaper();
    const before = await call(pyqCheck, "GET", { id: paper.id });
    expect(before.status).toBe(200);
    expect(before.body.matches).toEqual({});
    const reused = paper.sections[1]!.items[0]!;
    await ingestOne(env, {
      userId: env.teacher.id,
      markdown: {
        name: "pyq-2023.md",
        text: [
          "# Biology board examination 2023",
          "",
          "1. Name the organelle in which photosynthesis takes place in plant cells.",
          `2. ${reused.question.promptText.replace(/\?$/, "")} (3 marks)`,
          "3. Why do desert plants open their stomata at night? Give two reasons.",
        ].join("\n"),
      },
      defaults: { ...BIOLOGY, resourceType: "pyq", visibility: "private" },
    });
    const after = await call(pyqCheck, "GET", { id: paper.id });
    expect(after.body.pyqChunks).toBeGreaterThan(0);
    expect(Object.keys(after.body.matches)).toContain(reused.id);
    expect(after.body.matches[reused.id].score).toBeGreaterThanOrEqual(0.6);
    // Another teacher's paper does not see this teacher's private past paper.
    const theirs = await newPaper("unit-test-20", env.otherTeacher.token);
    const theirCheck = await call(pyqCheck, "GET", { id: theirs.id }, { token: env.otherTeacher.token });
    expect(theirCheck.body.pyqChunks).toBe(0);
  });
});
