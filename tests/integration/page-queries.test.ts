import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getPaperRoute } from "@/app/api/papers/[id]/route";
import { POST as createPaper, GET as listPapersRoute } from "@/app/api/papers/route";
import { GET as listResourcesRoute } from "@/app/api/resources/route";
import { GET as facetsRoute } from "@/app/api/retrieval/facets/route";
import { pageQueries } from "@/lib/query/page-queries";
import { prefetchForUser } from "@/lib/query/prefetch";
import { BIOLOGY, ingestOne } from "../support/demo-data";
import { createTestEnv, type ITestEnv, makeRequest, params } from "../support/test-env";

let env: ITestEnv;
let paperId: string;

beforeAll(async () => {
  env = await createTestEnv();
  await ingestOne(env, {
    userId: env.teacher.id,
    markdown: {
      name: "osmosis.md",
      text: "# Osmosis\n\nOsmosis is the movement of water across a membrane.",
    },
    defaults: {
      ...BIOLOGY,
      resourceType: "notes",
      visibility: "private",
      chapterNumber: 5,
      chapterName: "Membranes",
    },
  });
  const created = await createPaper(
    makeRequest("POST", "/api/papers", {
      token: env.teacher.token,
      json: { template: "unit-test-20", title: "Unit test", ...BIOLOGY },
    }),
    {},
  );
  paperId = (await created.json()).paper.id;
});
afterAll(() => env.close());

/** What a page puts in the query cache for this user, by query key. */
async function cached(userId: string, queries: Parameters<typeof prefetchForUser>[2]) {
  const state = await prefetchForUser(env.db, userId, queries);
  return new Map(state.queries.map((q) => [JSON.stringify(q.queryKey), q.state.data]));
}

describe("server-loaded page data (lib/query/page-queries.ts)", () => {
  it("is what the matching route answers, under the hook's key, for the same user", async () => {
    const token = env.teacher.token;
    const queries = [
      pageQueries.facets(),
      pageQueries.papers(),
      pageQueries.paper(paperId),
      pageQueries.resources(),
    ];
    const data = await cached(env.teacher.id, queries);
    const routes = [
      await facetsRoute(makeRequest("GET", "/api/retrieval/facets", { token }), {}),
      await listPapersRoute(makeRequest("GET", "/api/papers", { token }), {}),
      await getPaperRoute(makeRequest("GET", `/api/papers/${paperId}`, { token }), params({ id: paperId })),
      await listResourcesRoute(makeRequest("GET", "/api/resources?limit=200", { token }), {}),
    ];
    for (const [i, res] of routes.entries()) {
      expect(res.status).toBe(200);
      expect(data.get(JSON.stringify(queries[i]!.queryKey))).toEqual(await res.json());
    }
    // The teacher's private notes and paper are really in there (not two empty answers agreeing).
    expect(JSON.stringify(data.get(JSON.stringify(pageQueries.resources().queryKey)))).toContain(
      "osmosis.md",
    );
    expect(JSON.stringify(data.get(JSON.stringify(pageQueries.papers().queryKey)))).toContain(paperId);
  });

  it("leaves out what the user may not see, so the client asks the API and shows its error", async () => {
    const data = await cached(env.otherTeacher.id, [
      pageQueries.paper(paperId),
      pageQueries.paper("not-a-uuid"),
      pageQueries.resources(),
    ]);
    expect(data.has(JSON.stringify(pageQueries.paper(paperId).queryKey))).toBe(false);
    expect(data.has(JSON.stringify(pageQueries.paper("not-a-uuid").queryKey))).toBe(false);
    expect(JSON.stringify(data.get(JSON.stringify(pageQueries.resources().queryKey)))).not.toContain(
      "osmosis.md",
    );
  });
});
