import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listChunks } from "@/app/api/resources/[id]/chunks/route";
import { DELETE as deleteResource, GET as getResource } from "@/app/api/resources/[id]/route";
import { GET as listResources, POST as upload } from "@/app/api/resources/route";
import { GET as sourcePassage } from "@/app/api/sources/[documentId]/passage/route";
import { drainIngestionQueue } from "@/lib/ingestion/queue";
import { makeDocx, makePdf, PNG_BYTES } from "../support/make-fixtures";
import { createTestEnv, type ITestEnv, makeRequest, params } from "../support/test-env";

const CHAPTER = path.join(import.meta.dirname, "../fixtures/openstax/ch31-soil-and-plant-nutrition.md");

let env: ITestEnv;
beforeAll(async () => {
  env = await createTestEnv({ PAPERWISE_MAX_UPLOAD_MB: "2" });
});
afterAll(async () => env.close());

const META = { board: "OpenStax", grade: "11", subject: "Biology", resourceType: "textbook" };

function form(
  files: { name: string; bytes: Uint8Array; type?: string }[],
  fields: Record<string, string> = META,
): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  for (const file of files)
    f.append("file", new Blob([file.bytes as BlobPart], { type: file.type ?? "" }), file.name);
  return f;
}

async function post(token: string | undefined, body: FormData) {
  const res = await upload(makeRequest("POST", "/api/resources", { token, body }), {});
  return { status: res.status, body: await res.json() };
}

async function status(token: string, id: string) {
  const res = await getResource(makeRequest("GET", `/api/resources/${id}`, { token }), params({ id }));
  return { status: res.status, body: await res.json() };
}

describe("resource API", () => {
  let mdId = "";

  it("ingests a Markdown chapter, a PDF and a DOCX through the route into chunks", async () => {
    const md = new Uint8Array(await readFile(CHAPTER));
    const pdf = await makePdf([
      [
        "Chapter 2: Forces",
        "",
        "2.1 Newton's First Law",
        "An object at rest stays at rest unless a net force acts on it.",
      ],
      ["Inertia is the tendency of a body to resist changes in its motion.", "Mass is a measure of inertia."],
      ["2.2 Newton's Second Law", "The net force on a body equals its mass times its acceleration, F = ma."],
    ]);
    const docx = await makeDocx([
      { heading: 1, text: "Chapter 3: Motion" },
      { heading: 2, text: "3.1 Speed and velocity" },
      { paragraph: "Speed is the distance travelled per unit time. Velocity is speed in a given direction." },
      { bullets: ["Average speed = total distance / total time", "Velocity has a direction"] },
    ]);
    const res = await post(
      env.admin.token,
      form([
        { name: "ch31.md", bytes: md },
        { name: "forces.pdf", bytes: pdf, type: "application/pdf" },
        { name: "motion.docx", bytes: docx },
      ]),
    );
    expect(res.status).toBe(202);
    expect(res.body.ingestions).toHaveLength(3);
    expect(res.body.ingestions.map((i: { mimeType: string }) => i.mimeType)).toEqual([
      "text/markdown",
      "application/pdf",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ]);
    await drainIngestionQueue();
    for (const ing of res.body.ingestions) {
      const s = await status(env.admin.token, ing.id);
      expect(s.body.ingestion.status, s.body.ingestion.error ?? "").toBe("ready");
      expect(s.body.ingestion.chunkCount).toBeGreaterThan(0);
      expect(s.body.ingestion.embeddingModel).toBe("paperwise-offline-v1");
    }
    mdId = res.body.ingestions[0].id;
    const pdfDoc = res.body.ingestions[1];
    const pdfStatus = await status(env.admin.token, pdfDoc.id);
    expect(pdfStatus.body.ingestion.pageCount).toBe(3);
    const chunks = await env.db.query<{ page_start: number; page_end: number; content: string }>(
      "select c.page_start, c.page_end, c.content from document_chunks c join documents d on d.id = c.document_id where d.ingestion_id = $1 order by chunk_index",
      [pdfDoc.id],
    );
    expect(chunks.some((c) => c.content.includes("F = ma") && c.page_end === 3)).toBe(true);
    // Markdown has no pages: its passages carry none (no "p. 1" on every citation).
    const mdPages = await env.db.query<{ page_start: number | null; page_end: number | null }>(
      "select c.page_start, c.page_end from document_chunks c join documents d on d.id = c.document_id where d.ingestion_id = $1",
      [mdId],
    );
    expect(mdPages.length).toBeGreaterThan(0);
    expect(mdPages.every((c) => c.page_start === null && c.page_end === null)).toBe(true);
    const [counts] = await env.db.query<{ chunks: number; docs: number }>(
      "select (select count(*)::int from document_chunks) as chunks, (select count(*)::int from documents) as docs",
    );
    expect(counts!.docs).toBe(3);
    expect(counts!.chunks).toBeGreaterThan(10);
  });

  it("splits a multi-chapter PDF into one resource per detected chapter, keeping page numbers", async () => {
    const pdf = await makePdf([
      [
        "Chapter 1: Cells",
        "",
        "Cells are the basic units of life. Every organism is made of one or more cells.",
        "Some organisms are single cells; others are built from trillions of cells working together.",
      ],
      [
        "The cell membrane controls what enters and leaves the cell through its lipid bilayer.",
        "Proteins in the membrane act as channels, pumps and receptors for signals from outside.",
      ],
      [
        "Chapter 2: Energy",
        "",
        "Organisms capture energy from food or light and store it as chemical energy in bonds.",
        "Plants capture light energy in their chloroplasts and store it in sugar molecules.",
      ],
      [
        "Cellular respiration releases stored energy in small steps that the cell can use.",
        "The energy is carried by ATP, a small molecule that powers most cellular processes.",
      ],
    ]);
    const res = await post(
      env.admin.token,
      form([{ name: "book.pdf", bytes: pdf }], { ...META, splitChapters: "true" }),
    );
    expect(res.status).toBe(202);
    expect(
      res.body.ingestions.map((i: { chapterNumber: number }) => i.chapterNumber),
      JSON.stringify(res.body).slice(0, 400),
    ).toEqual([1, 2]);
    expect(res.body.ingestions.map((i: { chapterName: string }) => i.chapterName)).toEqual([
      "Cells",
      "Energy",
    ]);
    await drainIngestionQueue();
    const second = await status(env.admin.token, res.body.ingestions[1].id);
    expect(second.body.ingestion.status, second.body.ingestion.error ?? "").toBe("ready");
    const [pages] = await env.db.query<{ min: number; max: number }>(
      "select min(c.page_start) as min, max(c.page_end) as max from document_chunks c join documents d on d.id = c.document_id where d.ingestion_id = $1",
      [res.body.ingestions[1].id],
    );
    expect(pages).toEqual({ min: 3, max: 4 });
  });

  it("treats the same bytes with the same metadata as a duplicate, not a second copy", async () => {
    const before = await env.db.query<{ n: number }>("select count(*)::int as n from document_chunks");
    const md = new Uint8Array(await readFile(CHAPTER));
    const res = await post(env.admin.token, form([{ name: "again.md", bytes: md }]));
    expect(res.status).toBe(200);
    expect(res.body.ingestions[0]).toMatchObject({ id: mdId, duplicate: true });
    await drainIngestionQueue();
    const after = await env.db.query<{ n: number }>("select count(*)::int as n from document_chunks");
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it("previews chunks with pages and sections", async () => {
    const res = await listChunks(
      makeRequest("GET", `/api/resources/${mdId}/chunks?limit=5`, { token: env.teacher.token }),
      params({ id: mdId }),
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.items).toHaveLength(5);
    expect(body.items[1].sectionPath).toMatch(/31\.\d/);
  });

  it("opens a source at the cited passage with its neighbours, behind auth and visibility", async () => {
    const documentId: string = (await status(env.admin.token, mdId)).body.ingestion.documentId;
    const get = async (query: string, token?: string) => {
      const res = await sourcePassage(
        makeRequest("GET", `/api/sources/${documentId}/passage?${query}`, { token }),
        params({ documentId }),
      );
      return { status: res.status, body: await res.json() };
    };
    const ok = await get("chunk=3&around=1", env.teacher.token);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, chunkIndex: 3, mimeType: "text/markdown" });
    expect(ok.body.items.map((c: { chunkIndex: number }) => c.chunkIndex)).toEqual([2, 3, 4]);
    expect(ok.body.items[1].content.length).toBeGreaterThan(0);
    expect((await get("chunk=0&around=0", env.teacher.token)).body.items).toHaveLength(1);
    expect((await get("chunk=3")).status).toBe(401);
    const far = await get("chunk=99999", env.teacher.token);
    expect(far.status).toBe(404);
    expect(far.body.error.message).toMatch(/Chunk 99999/);
    const bad = await get("chunk=x", env.teacher.token);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.error)).toContain("chunk");
    const other = "00000000-0000-4000-8000-000000000000";
    const missing = await sourcePassage(
      makeRequest("GET", `/api/sources/${other}/passage?chunk=0`, { token: env.teacher.token }),
      params({ documentId: other }),
    );
    expect(missing.status).toBe(404);
  });

  it("rejects bad uploads with the right status and a reason", async () => {
    const cases: [string | undefined, FormData, number, RegExp][] = [
      [undefined, form([{ name: "a.md", bytes: new TextEncoder().encode("# Hi\n\ntext") }]), 401, /Sign in/],
      [env.admin.token, form([{ name: "photo.pdf", bytes: PNG_BYTES }]), 415, /PDF, DOCX, Markdown or text/],
      [env.admin.token, form([{ name: "empty.md", bytes: new Uint8Array(0) }]), 400, /empty/],
      [
        env.admin.token,
        form([{ name: "big.txt", bytes: new Uint8Array(3 * 1024 * 1024).fill(97) }]),
        413,
        /limit/,
      ],
      [
        env.admin.token,
        form([{ name: "a.md", bytes: new TextEncoder().encode("# A\n\nb") }], {
          grade: "11",
          subject: "Bio",
        }),
        400,
        /metadata/,
      ],
      [env.admin.token, form([], META), 400, /No file/],
    ];
    for (const [token, body, code, message] of cases) {
      const res = await post(token, body);
      expect(res.status, JSON.stringify(res.body)).toBe(code);
      expect(res.body.ok).toBe(false);
      expect(res.body.error.message).toMatch(message);
    }
    const missing = await post(
      env.admin.token,
      form([{ name: "a.md", bytes: new TextEncoder().encode("# A\n\nb") }], { grade: "11", subject: "Bio" }),
    );
    expect(missing.body.error.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: "board" })]),
    );
  });

  it("marks a corrupt PDF failed with a readable reason and leaves no document behind", async () => {
    const bytes = new TextEncoder().encode("%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage without xref");
    const res = await post(env.admin.token, form([{ name: "broken.pdf", bytes }]));
    expect(res.status).toBe(202);
    await drainIngestionQueue();
    const s = await status(env.admin.token, res.body.ingestions[0].id);
    expect(s.body.ingestion.status).toBe("failed");
    expect(s.body.ingestion.error).toMatch(/PDF/i);
    expect(s.body.ingestion.documentId).toBeNull();
  });

  it("lets only admins publish shared resources, and keeps private ones private", async () => {
    const bytes = new TextEncoder().encode("# My notes\n\nOsmosis moves water across a membrane.");
    const shared = await post(
      env.teacher.token,
      form([{ name: "n.md", bytes }], { ...META, resourceType: "notes" }),
    );
    expect(shared.status).toBe(403);
    const mine = await post(
      env.teacher.token,
      form([{ name: "n.md", bytes }], { ...META, resourceType: "notes", visibility: "private" }),
    );
    expect(mine.status).toBe(202);
    await drainIngestionQueue();
    const id = mine.body.ingestions[0].id;
    expect((await status(env.teacher.token, id)).status).toBe(200);
    expect((await status(env.otherTeacher.token, id)).status).toBe(404);
    // Another teacher cannot read a private source's passages either.
    const privateDoc: string = (await status(env.teacher.token, id)).body.ingestion.documentId;
    const hidden = await sourcePassage(
      makeRequest("GET", `/api/sources/${privateDoc}/passage?chunk=0`, { token: env.otherTeacher.token }),
      params({ documentId: privateDoc }),
    );
    expect(hidden.status).toBe(404);
    const list = await listResources(
      makeRequest("GET", "/api/resources", { token: env.otherTeacher.token }),
      {},
    );
    const ids = (await list.json()).items.map((i: { id: string }) => i.id);
    expect(ids).toContain(mdId);
    expect(ids).not.toContain(id);
    const del = await deleteResource(
      makeRequest("DELETE", `/api/resources/${id}`, { token: env.otherTeacher.token }),
      params({ id }),
    );
    expect(del.status).toBe(404);
  });

  it("deletes a resource with its chunks and stored original", async () => {
    const before = await status(env.admin.token, mdId);
    const row = await env.db.query<{ path: string }>("select path from ingestions where id = $1", [mdId]);
    const file = path.join(env.dataDir, "storage", "resources", row[0]!.path);
    await expect(stat(file)).resolves.toBeTruthy();
    const teacherDelete = await deleteResource(
      makeRequest("DELETE", `/api/resources/${mdId}`, { token: env.teacher.token }),
      params({ id: mdId }),
    );
    expect(teacherDelete.status).toBe(403);
    const res = await deleteResource(
      makeRequest("DELETE", `/api/resources/${mdId}`, { token: env.admin.token }),
      params({ id: mdId }),
    );
    expect(res.status).toBe(200);
    const [left] = await env.db.query<{ n: number }>(
      "select count(*)::int as n from document_chunks where document_id = $1",
      [before.body.ingestion.documentId],
    );
    expect(left!.n).toBe(0);
    await expect(stat(file)).rejects.toThrow();
    expect((await status(env.admin.token, mdId)).status).toBe(404);
    const bad = await status(env.admin.token, "../../etc/passwd");
    expect(bad.status).toBe(400);
  });
});
