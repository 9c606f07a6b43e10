import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as login } from "@/app/api/auth/login/route";
import { POST as logout } from "@/app/api/auth/logout/route";
import { GET as me } from "@/app/api/auth/me/route";
import { POST as generation } from "@/app/api/generation/route";
import { POST as generationStop } from "@/app/api/generation/stop/route";
import { POST as generationSupport } from "@/app/api/generation/support/route";
import { GET as health } from "@/app/api/health/route";
import { GET as openapi } from "@/app/api/openapi.json/route";
import { GET as exportPaper } from "@/app/api/papers/[id]/export/route";
import { POST as regenerate } from "@/app/api/papers/[id]/items/[itemId]/regenerate/route";
import { POST as swap } from "@/app/api/papers/[id]/items/[itemId]/swap/route";
import { POST as addItems } from "@/app/api/papers/[id]/items/route";
import { GET as pyqCheck } from "@/app/api/papers/[id]/pyq-check/route";
import { DELETE as deletePaper, GET as getPaper, PUT as putPaper } from "@/app/api/papers/[id]/route";
import { POST as createPaper, GET as listPapers } from "@/app/api/papers/route";
import { GET as getSet } from "@/app/api/question-sets/[id]/route";
import { GET as listSets } from "@/app/api/question-sets/route";
import { PATCH as patchQuestion } from "@/app/api/questions/[id]/route";
import { GET as searchQuestions } from "@/app/api/questions/route";
import { GET as chunks } from "@/app/api/resources/[id]/chunks/route";
import { GET as resourceFile } from "@/app/api/resources/[id]/file/route";
import { POST as retry } from "@/app/api/resources/[id]/retry/route";
import { DELETE as deleteResource, GET as getResource } from "@/app/api/resources/[id]/route";
import { GET as listResources, POST as upload } from "@/app/api/resources/route";
import { POST as enhance } from "@/app/api/retrieval/enhance-query/route";
import { GET as facets } from "@/app/api/retrieval/facets/route";
import { POST as query } from "@/app/api/retrieval/query/route";
import { GET as sourcePassage } from "@/app/api/sources/[documentId]/passage/route";
import { GET as source } from "@/app/api/sources/[documentId]/route";
import { DELETE as revokeToken } from "@/app/api/tokens/[id]/route";
import { POST as createToken, GET as listTokens } from "@/app/api/tokens/route";
import { POST as resetPassword } from "@/app/api/users/[id]/password/route";
import { DELETE as deleteUser, PATCH as updateUser } from "@/app/api/users/[id]/route";
import { DELETE as revokeUserToken } from "@/app/api/users/[id]/tokens/[tokenId]/route";
import { GET as listUserTokens } from "@/app/api/users/[id]/tokens/route";
import { POST as createUser, GET as listUsers } from "@/app/api/users/route";
import { CONTRACTS } from "@/contracts";
import { createApiToken } from "@/lib/auth/api-tokens";
import { paperToUpdate } from "@/lib/papers/store";
import { EXPORT_FORMATS } from "@/schema/enums.schema";
import type { IPaper } from "@/types/paper.types";
import { BIOLOGY, generateSet, ingestDemoChapter } from "../support/demo-data";
import { createTestEnv, type ITestEnv, makeRequest, params } from "../support/test-env";

/**
 * Every route's real answers, validated against the OpenAPI document the server publishes, by an
 * independent JSON Schema validator (Ajv, draft 2020-12 as OpenAPI 3.1 uses): the document must
 * describe what the code answers, not what the zod schemas that generated it think.
 */

type TDoc = {
  components: object;
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >;
};

let env: ITestEnv;
let doc: TDoc;
let docId: string;
let ingestionId: string;
let setId: string;
let questionIds: string[] = [];
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat("binary", true);
const validators = new Map<string, ValidateFunction>();
/** "GET /api/papers/{id}" of every operation answered with a documented success. */
const covered = new Set<string>();

/** Checks a real response against the document: status documented, content type, body schema. */
async function conforms(method: string, path: string, res: Response): Promise<Response> {
  const operation = doc.paths[path]?.[method.toLowerCase()];
  expect(operation, `${method} ${path} is not in the document`).toBeDefined();
  const documented = operation!.responses[String(res.status)];
  expect(documented, `${method} ${path} answered ${res.status}, which is not documented`).toBeDefined();
  const type = (res.headers.get("content-type") ?? "").split(";")[0]!.trim();
  const content = documented!.content ?? {};
  if ("application/json" in content) {
    expect(type).toBe("application/json");
    const key = `${method} ${path} ${res.status}`;
    let validate = validators.get(key);
    if (!validate) {
      // Named schemas are `$ref`s into the document's components: compile with them at the root.
      validate = ajv.compile({ ...content["application/json"]!.schema, components: doc.components });
      validators.set(key, validate);
    }
    const body = await res.clone().json();
    expect(validate(body), `${key}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  } else if ("text/event-stream" in content) {
    expect(type).toBe("text/event-stream");
  } else {
    // A file: one of the types the document lists for it (what a validating proxy checks).
    expect(Object.keys(content), `${method} ${path} sent ${type}`).toContain(type);
  }
  if (res.ok) covered.add(`${method} ${path}`);
  return res;
}

const t = () => env.teacher.token;
const a = () => env.admin.token;

beforeAll(async () => {
  env = await createTestEnv();
  doc = (await (await openapi(makeRequest("GET", "/api/openapi.json"), {})).json()) as TDoc;
  docId = await ingestDemoChapter(env, "ch04-cell-structure.md", 4);
  const [row] = await env.db.query<{ id: string }>("select ingestion_id as id from documents where id = $1", [
    docId,
  ]);
  ingestionId = row!.id;
  setId = await generateSet(t(), {
    filters: BIOLOGY,
    context: Array.from({ length: 30 }, (_, i) => ({ documentId: docId, chunkIndex: i })),
    blueprint: {
      items: [
        { type: "mcq", count: 2 },
        { type: "short", count: 1, marks: 2 },
        { type: "long", count: 1, marks: 3 },
      ],
    },
    seed: 3,
  });
  // A second set from the same passages, so "swap for a similar question" finds one.
  await generateSet(t(), {
    filters: BIOLOGY,
    context: Array.from({ length: 30 }, (_, i) => ({ documentId: docId, chunkIndex: i })),
    blueprint: {
      items: [
        { type: "mcq", count: 6 },
        { type: "short", count: 3, marks: 2 },
        { type: "long", count: 2, marks: 3 },
      ],
    },
    seed: 11,
    // Answer shapes are under test, not grounding: the section gives the swap its similar question.
    useSection: true,
  });
}, 120_000);
afterAll(async () => {
  await env.close();
});

describe("the OpenAPI document against real responses (Ajv)", () => {
  it("system and auth", async () => {
    await conforms("GET", "/api/health", await health(makeRequest("GET", "/api/health"), {}));
    await conforms("GET", "/api/openapi.json", await openapi(makeRequest("GET", "/api/openapi.json"), {}));
    const signedIn = await login(
      makeRequest("POST", "/api/auth/login", {
        json: { email: "teacher@paperwise.local", password: "paperwise-teacher" },
      }),
      {},
    );
    await conforms("POST", "/api/auth/login", signedIn);
    const wrong = await login(
      makeRequest("POST", "/api/auth/login", {
        json: { email: "teacher@paperwise.local", password: "nope" },
      }),
      {},
    );
    await conforms("POST", "/api/auth/login", wrong);
    await conforms("GET", "/api/auth/me", await me(makeRequest("GET", "/api/auth/me", { token: t() }), {}));
    await conforms("GET", "/api/auth/me", await me(makeRequest("GET", "/api/auth/me"), {}));
    const { accessToken } = await signedIn.clone().json();
    await conforms(
      "POST",
      "/api/auth/logout",
      await logout(makeRequest("POST", "/api/auth/logout", { token: accessToken }), {}),
    );
  });

  it("tokens and users", async () => {
    const created = await conforms(
      "POST",
      "/api/tokens",
      await createToken(
        makeRequest("POST", "/api/tokens", { token: t(), json: { name: "LMS", scopes: ["retrieval:read"] } }),
        {},
      ),
    );
    const { tokenInfo, token } = await created.json();
    await conforms(
      "GET",
      "/api/tokens",
      await listTokens(makeRequest("GET", "/api/tokens", { token: t() }), {}),
    );
    await conforms("GET", "/api/tokens", await listTokens(makeRequest("GET", "/api/tokens", { token }), {}));
    await conforms(
      "DELETE",
      "/api/tokens/{id}",
      await revokeToken(makeRequest("DELETE", "/x", { token: t() }), params({ id: tokenInfo.id })),
    );
    await conforms(
      "GET",
      "/api/users",
      await listUsers(makeRequest("GET", "/api/users", { token: a() }), {}),
    );
    const user = await conforms(
      "POST",
      "/api/users",
      await createUser(
        makeRequest("POST", "/api/users", {
          token: a(),
          json: { email: "new@school.example", role: "teacher" },
        }),
        {},
      ),
    );
    const { user: created2 } = await user.json();
    await conforms(
      "PATCH",
      "/api/users/{id}",
      await updateUser(
        makeRequest("PATCH", "/x", { token: a(), json: { role: "admin" } }),
        params({ id: created2.id }),
      ),
    );
    await conforms(
      "POST",
      "/api/users/{id}/password",
      await resetPassword(makeRequest("POST", "/x", { token: a() }), params({ id: created2.id })),
    );
    await conforms(
      "PATCH",
      "/api/users/{id}",
      await updateUser(
        makeRequest("PATCH", "/x", { token: t(), json: { role: "admin" } }),
        params({ id: created2.id }),
      ),
    );
    // Account lifecycle: disable, the account's tokens, revoke one, delete (transfer).
    const { token: theirs, row } = await createApiToken(env.db, {
      userId: created2.id,
      name: "lms",
      scopes: ["papers:read"],
    });
    expect(theirs).toMatch(/^pw_/);
    await conforms(
      "GET",
      "/api/users/{id}/tokens",
      await listUserTokens(makeRequest("GET", "/x", { token: a() }), params({ id: created2.id })),
    );
    await conforms(
      "DELETE",
      "/api/users/{id}/tokens/{tokenId}",
      await revokeUserToken(
        makeRequest("DELETE", "/x", { token: a() }),
        params({ id: created2.id, tokenId: row.id }),
      ),
    );
    await conforms(
      "PATCH",
      "/api/users/{id}",
      await updateUser(
        makeRequest("PATCH", "/x", { token: a(), json: { disabled: true } }),
        params({ id: created2.id }),
      ),
    );
    await conforms(
      "DELETE",
      "/api/users/{id}",
      await deleteUser(
        makeRequest("DELETE", `/x?privateData=transfer&to=${env.admin.id}`, { token: a() }),
        params({ id: created2.id }),
      ),
    );
    await conforms(
      "DELETE",
      "/api/users/{id}",
      await deleteUser(
        makeRequest("DELETE", "/x?privateData=keep", { token: a() }),
        params({ id: created2.id }),
      ),
    );
  });

  it("retrieval", async () => {
    const json = { filters: BIOLOGY, query: "What does the cell membrane do?", topK: 5 };
    await conforms(
      "POST",
      "/api/retrieval/query",
      await query(makeRequest("POST", "/api/retrieval/query", { token: t(), json }), {}),
    );
    await conforms(
      "POST",
      "/api/retrieval/query",
      await query(makeRequest("POST", "/api/retrieval/query", { token: t(), json: { query: 1 } }), {}),
    );
    await conforms(
      "POST",
      "/api/retrieval/enhance-query",
      await enhance(
        makeRequest("POST", "/api/retrieval/enhance-query", {
          token: t(),
          json: { rawQuery: "cell membrane", filters: BIOLOGY, bloomTargets: ["Analyze"] },
        }),
        {},
      ),
    );
    await conforms(
      "GET",
      "/api/retrieval/facets",
      await facets(makeRequest("GET", "/api/retrieval/facets", { token: t() }), {}),
    );
  });

  it("generation and saved questions", async () => {
    const support = await conforms(
      "POST",
      "/api/generation/support",
      await generationSupport(
        makeRequest("POST", "/api/generation/support", {
          token: t(),
          json: { context: Array.from({ length: 30 }, (_, i) => ({ documentId: docId, chunkIndex: i })) },
        }),
        {},
      ),
    );
    expect(support.status).toBe(200);
    expect((await support.json()).support).toHaveLength(18);
    await conforms(
      "POST",
      "/api/generation/support",
      await generationSupport(
        makeRequest("POST", "/api/generation/support", { token: t(), json: { context: [] } }),
        {},
      ),
    );
    const stream = await generation(
      makeRequest("POST", "/api/generation", {
        token: t(),
        json: {
          filters: BIOLOGY,
          context: Array.from({ length: 30 }, (_, i) => ({ documentId: docId, chunkIndex: i })),
          blueprint: { items: [{ type: "mcq", count: 1 }] },
        },
      }),
      {},
    );
    await conforms("POST", "/api/generation", stream);
    await conforms(
      "POST",
      "/api/generation/stop",
      await generationStop(
        makeRequest("POST", "/api/generation/stop", {
          token: t(),
          json: { runId: "0b8f3a52-3c4d-4e5f-9a6b-7c8d9e0f1a2b" },
        }),
        {},
      ),
    );
    await conforms(
      "POST",
      "/api/generation/stop",
      await generationStop(
        makeRequest("POST", "/api/generation/stop", { token: t(), json: { runId: "x" } }),
        {},
      ),
    );
    // Every event matches the documented GenerationStreamEvent, and the stream ends with [DONE].
    const events = (await stream.text())
      .split("\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => l.slice("data: ".length));
    expect(events.at(-1)).toBe("[DONE]");
    const validateEvent = ajv.compile({
      $ref: "#/components/schemas/GenerationStreamEvent",
      components: doc.components,
    });
    const types = new Set<string>();
    for (const e of events.slice(0, -1)) {
      const event = JSON.parse(e) as { type: string };
      types.add(event.type);
      expect(validateEvent(event), `${e.slice(0, 200)}: ${ajv.errorsText(validateEvent.errors)}`).toBe(true);
    }
    expect([...types]).toEqual(expect.arrayContaining(["data-question", "data-progress", "data-set"]));
    const set = await conforms(
      "GET",
      "/api/question-sets/{id}",
      await getSet(makeRequest("GET", "/x", { token: t() }), params({ id: setId })),
    );
    const setBody = (await set.json()).set as { createdAt: string; questions: { id: string }[] };
    expect(Number.isNaN(Date.parse(setBody.createdAt))).toBe(false);
    expect(setBody).not.toHaveProperty("created_at");
    questionIds = setBody.questions.map((q) => q.id);
    await conforms(
      "PATCH",
      "/api/questions/{id}",
      await patchQuestion(
        makeRequest("PATCH", "/x", { token: t(), json: { status: "approved" } }),
        params({ id: questionIds[0]! }),
      ),
    );
    await conforms(
      "PATCH",
      "/api/questions/{id}",
      await patchQuestion(
        makeRequest("PATCH", "/x", { token: t(), json: {} }),
        params({ id: questionIds[0]! }),
      ),
    );
    await conforms(
      "GET",
      "/api/questions",
      await searchQuestions(makeRequest("GET", "/api/questions?type=mcq", { token: t() }), {}),
    );
    const recent = await conforms(
      "GET",
      "/api/question-sets",
      await listSets(makeRequest("GET", "/api/question-sets?limit=5", { token: t() }), {}),
    );
    const listed = (await recent.json()).sets as { id: string; approved: number }[];
    expect(listed.find((x) => x.id === setId)).toMatchObject({ approved: 1 });
  });

  it("papers", async () => {
    const created = await conforms(
      "POST",
      "/api/papers",
      await createPaper(
        makeRequest("POST", "/api/papers", {
          token: t(),
          json: { template: "blank", title: "Cells", ...BIOLOGY, totalMarks: 7 },
        }),
        {},
      ),
    );
    const { paper } = (await created.json()) as { paper: IPaper };
    const id = paper.id;
    await conforms(
      "GET",
      "/api/papers",
      await listPapers(makeRequest("GET", "/api/papers", { token: t() }), {}),
    );
    const added = await conforms(
      "POST",
      "/api/papers/{id}/items",
      await addItems(makeRequest("POST", "/x", { token: t(), json: { questionIds } }), params({ id })),
    );
    const addedBody = (await added.json()) as { paper: IPaper; check: { countedMarks: number } };
    const withItems = addedBody.paper;
    const item = withItems.sections.flatMap((s) => s.items)[0]!;
    await conforms(
      "GET",
      "/api/papers/{id}",
      await getPaper(makeRequest("GET", "/x", { token: t() }), params({ id })),
    );
    // Total marks set to what the items add up to, so the paper can be exported below.
    const update = {
      ...paperToUpdate(withItems),
      totalMarks: addedBody.check.countedMarks,
    };
    await conforms(
      "PUT",
      "/api/papers/{id}",
      await putPaper(makeRequest("PUT", "/x", { token: t(), json: update }), params({ id })),
    );
    // What GET returns is accepted back as it is: read-only id, createdAt and updatedAt ignored.
    const loaded = (await (await getPaper(makeRequest("GET", "/x", { token: t() }), params({ id }))).json())
      .paper as IPaper;
    const roundTrip = await conforms(
      "PUT",
      "/api/papers/{id}",
      await putPaper(makeRequest("PUT", "/x", { token: t(), json: loaded }), params({ id })),
    );
    expect(roundTrip.status).toBe(200);
    expect((await roundTrip.json()).paper.createdAt).toBe(loaded.createdAt);
    // The same version again is stale now: 409.
    await conforms(
      "PUT",
      "/api/papers/{id}",
      await putPaper(makeRequest("PUT", "/x", { token: t(), json: update }), params({ id })),
    );
    // Items without a similar question answer 404 (documented); one with a match swaps.
    let version = (await (await getPaper(makeRequest("GET", "/x", { token: t() }), params({ id }))).json())
      .paper.version as number;
    for (const candidate of withItems.sections.flatMap((sec) => sec.items)) {
      const swapped = await conforms(
        "POST",
        "/api/papers/{id}/items/{itemId}/swap",
        await swap(
          makeRequest("POST", "/x", { token: t(), json: { version } }),
          params({ id, itemId: candidate.id }),
        ),
      );
      if (swapped.ok) {
        version = (await swapped.json()).paper.version;
        break;
      }
    }
    // An item whose level the passages cannot carry again answers a documented error; one that can, succeeds.
    for (const candidate of [
      item,
      ...withItems.sections.flatMap((sec) => sec.items).filter((x) => x !== item),
    ]) {
      const regenerated = await conforms(
        "POST",
        "/api/papers/{id}/items/{itemId}/regenerate",
        await regenerate(
          makeRequest("POST", "/x", { token: t(), json: {} }),
          params({ id, itemId: candidate.id }),
        ),
      );
      if (regenerated.ok) break;
    }
    await conforms(
      "GET",
      "/api/papers/{id}/pyq-check",
      await pyqCheck(makeRequest("GET", "/x", { token: t() }), params({ id })),
    );
    for (const format of EXPORT_FORMATS) {
      await conforms(
        "GET",
        "/api/papers/{id}/export",
        await exportPaper(makeRequest("GET", `/x?format=${format}`, { token: t() }), params({ id })),
      );
    }
    await conforms(
      "GET",
      "/api/papers/{id}/export",
      await exportPaper(makeRequest("GET", "/x?format=rtf", { token: t() }), params({ id })),
    );
    await conforms(
      "DELETE",
      "/api/papers/{id}",
      await deletePaper(makeRequest("DELETE", "/x", { token: t() }), params({ id })),
    );
    await conforms(
      "GET",
      "/api/papers/{id}",
      await getPaper(makeRequest("GET", "/x", { token: t() }), params({ id })),
    );
  });

  // Last but one: the retry re-ingests the shared chapter, which replaces its document.
  it("resources", async () => {
    const form = new FormData();
    form.set("file", new File(["# Notes\n\nOsmosis moves water across a membrane."], "notes.md"));
    for (const [k, v] of Object.entries({ ...BIOLOGY, visibility: "private", resourceType: "notes" }))
      form.set(k, v);
    const uploaded = await conforms(
      "POST",
      "/api/resources",
      await upload(
        new Request("http://localhost/api/resources", {
          method: "POST",
          headers: { authorization: `Bearer ${t()}` },
          body: form,
        }),
        {},
      ),
    );
    const [mine] = (await uploaded.json()).ingestions as { id: string }[];
    await conforms(
      "GET",
      "/api/resources",
      await listResources(makeRequest("GET", "/api/resources?limit=5", { token: t() }), {}),
    );
    await conforms(
      "GET",
      "/api/resources/{id}",
      await getResource(makeRequest("GET", "/x", { token: t() }), params({ id: ingestionId })),
    );
    await conforms(
      "GET",
      "/api/resources/{id}/chunks",
      await chunks(makeRequest("GET", "/x?limit=3", { token: t() }), params({ id: ingestionId })),
    );
    const file = await conforms(
      "GET",
      "/api/resources/{id}/file",
      await resourceFile(makeRequest("GET", "/x", { token: t() }), params({ id: ingestionId })),
    );
    expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(0);
    await conforms(
      "GET",
      "/api/sources/{documentId}",
      await source(makeRequest("GET", "/x", { token: t() }), params({ documentId: docId })),
    );
    await conforms(
      "GET",
      "/api/sources/{documentId}",
      await source(makeRequest("GET", "/x", { token: t() }), params({ documentId: "not-a-uuid" })),
    );
    await conforms(
      "GET",
      "/api/sources/{documentId}/passage",
      await sourcePassage(makeRequest("GET", "/x?chunk=0", { token: t() }), params({ documentId: docId })),
    );
    await conforms(
      "GET",
      "/api/sources/{documentId}/passage",
      await sourcePassage(
        makeRequest("GET", "/x?chunk=99999", { token: t() }),
        params({ documentId: docId }),
      ),
    );
    // The document says `chunk` is required: without it, a 400 naming the field.
    const noChunk = await conforms(
      "GET",
      "/api/sources/{documentId}/passage",
      await sourcePassage(makeRequest("GET", "/x", { token: t() }), params({ documentId: docId })),
    );
    expect(noChunk.status).toBe(400);
    expect((await noChunk.json()).error.details[0].path).toBe("chunk");
    await conforms(
      "POST",
      "/api/resources/{id}/retry",
      await retry(makeRequest("POST", "/x", { token: a() }), params({ id: ingestionId })),
    );
    await conforms(
      "DELETE",
      "/api/resources/{id}",
      await deleteResource(makeRequest("DELETE", "/x", { token: t() }), params({ id: mine!.id })),
    );
    await conforms(
      "GET",
      "/api/resources/{id}",
      await getResource(makeRequest("GET", "/x", { token: t() }), params({ id: mine!.id })),
    );
  });

  it("covered a documented success of every contract", () => {
    const missing = CONTRACTS.map((c) => `${c.method} ${c.path}`).filter((op) => !covered.has(op));
    expect(missing, missing.join(", ")).toEqual([]);
    expect(Object.values(doc.paths).flatMap((p) => Object.keys(p))).toHaveLength(CONTRACTS.length);
  });
});
