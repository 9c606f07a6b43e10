import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as enhance } from "@/app/api/retrieval/enhance-query/route";
import { GET as facets } from "@/app/api/retrieval/facets/route";
import { POST as query } from "@/app/api/retrieval/query/route";
import { FacetsResponseSchema, type TFacetResource } from "@/schema/retrieval.schema";
import { BIOLOGY, seedDemoWithPrivateNotes } from "../support/demo-data";
import { createTestEnv, type ITestEnv, makeRequest } from "../support/test-env";

// The scope's Resource subset (Board → Class → Subject → Resource subset), through the routes.
const FILTERS = BIOLOGY;

let env: ITestEnv;
beforeAll(async () => {
  env = await createTestEnv();
  await seedDemoWithPrivateNotes(env, "My soil notes");
});
afterAll(async () => {
  await env.close();
});

async function resourcesOf(token: string): Promise<TFacetResource[]> {
  const res = await facets(makeRequest("GET", "/api/retrieval/facets", { token }), {});
  expect(res.status).toBe(200);
  const body = FacetsResponseSchema.parse(await res.json());
  return body.boards[0]!.grades[0]!.subjects[0]!.resources;
}

async function ask(body: unknown, token = env.teacher.token) {
  const res = await query(makeRequest("POST", "/api/retrieval/query", { token, json: body }), {});
  return { status: res.status, body: await res.json() };
}

describe("migration 20261126440000", () => {
  it("leaves one paperwise_hybrid_search, with the resource subset as its 16th parameter", async () => {
    const rows = await env.db.query<{ args: string }>(
      `select pg_get_function_identity_arguments(p.oid) as args from pg_proc p
       where p.proname = 'paperwise_hybrid_search'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.args).toMatch(/p_heading_weight double precision, p_document_ids uuid\[\]$/);
  });
});

describe("facets: the subject's resources", () => {
  it("lists each visible resource with its kind, chapter and book, textbooks first by chapter", async () => {
    const mine = await resourcesOf(env.teacher.token);
    expect(mine.map((r) => [r.resourceType, r.chapterNumber, r.group])).toEqual([
      ["textbook", 4, "Biology 2e"],
      ["textbook", 5, "Biology 2e"],
      ["textbook", 8, "Biology 2e"],
      ["notes", 31, "My soil notes"],
    ]);
    expect(mine[1]!.title).toBe("Biology 2e — Ch 5 Structure and Function of Plasma Membranes");
    expect(mine[1]!.chapterName).toBe("Structure and Function of Plasma Membranes");
    // Another teacher does not see the private notes.
    const theirs = await resourcesOf(env.otherTeacher.token);
    expect(theirs.map((r) => r.chapterNumber)).toEqual([4, 5, 8]);
  });
});

describe("POST /api/retrieval/query with documentIds", () => {
  it("searches only the chosen resources", async () => {
    const resources = await resourcesOf(env.teacher.token);
    const ch5 = resources.find((r) => r.chapterNumber === 5)!;
    const ch8 = resources.find((r) => r.chapterNumber === 8)!;
    const whole = await ask({ filters: FILTERS, query: "How do cells take in water and make energy?" });
    expect(whole.status).toBe(200);
    const wholeDocs = new Set(whole.body.items.map((i: { documentId: string }) => i.documentId));
    expect(wholeDocs.size).toBeGreaterThan(1);

    const subset = await ask({
      filters: { ...FILTERS, documentIds: [ch5.id, ch8.id] },
      query: "How do cells take in water and make energy?",
    });
    expect(subset.status).toBe(200);
    expect(subset.body.items.length).toBeGreaterThan(0);
    for (const item of subset.body.items) expect([ch5.id, ch8.id]).toContain(item.documentId);
    expect(subset.body.debug.scopeChunks).toBeLessThan(whole.body.debug.scopeChunks);

    // A question about chapter 5 asked of chapter 8 only finds chapter 8 passages (or refuses).
    const only8 = await ask({ filters: { ...FILTERS, documentIds: [ch8.id] }, query: "fluid mosaic model" });
    expect(only8.status).toBe(200);
    for (const item of only8.body.items) expect(item.chapterNumber).toBe(8);
  });

  it("a resource the caller cannot see, or of another subject, adds nothing", async () => {
    const notes = (await resourcesOf(env.teacher.token)).find((r) => r.resourceType === "notes")!;
    const { status, body } = await ask(
      { filters: { ...FILTERS, documentIds: [notes.id] }, query: "soil nutrients" },
      env.otherTeacher.token,
    );
    expect(status).toBe(200);
    expect(body.items).toEqual([]);
    const other = await ask({
      filters: { board: "OpenStax", grade: "11", subject: "Physics", documentIds: [notes.id] },
      query: "soil nutrients",
    });
    expect(other.status).toBe(200);
    expect(other.body.items).toEqual([]);
  });

  it("answers a malformed subset with 400 and the field path", async () => {
    const cases: [unknown, string][] = [
      [{ filters: { ...FILTERS, documentIds: [] }, query: "osmosis" }, "filters.documentIds"],
      [{ filters: { ...FILTERS, documentIds: ["not-a-uuid"] }, query: "osmosis" }, "filters.documentIds.0"],
      [{ filters: { ...FILTERS, documentIds: "x" }, query: "osmosis" }, "filters.documentIds"],
    ];
    for (const [json, field] of cases) {
      const { status, body } = await ask(json);
      expect(status).toBe(400);
      expect(body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    }
  });

  it("the enhancer reads the same subset", async () => {
    const ch8 = (await resourcesOf(env.teacher.token)).find((r) => r.chapterNumber === 8)!;
    const res = await enhance(
      makeRequest("POST", "/api/retrieval/enhance-query", {
        token: env.teacher.token,
        json: { rawQuery: "light reactions", filters: { ...FILTERS, documentIds: [ch8.id] } },
      }),
      {},
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.enhancedQuery).toMatch(/light reactions/);
  });
});
