import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as openapi } from "@/app/api/openapi.json/route";
import { POST as query } from "@/app/api/retrieval/query/route";
import { DELETE as revoke } from "@/app/api/tokens/[id]/route";
import { POST as createToken, GET as listTokens } from "@/app/api/tokens/route";
import { CONTRACTS } from "@/contracts";
import { setRateLimitForProcess } from "@/lib/http/rate-limit";
import { createTestEnv, type ITestEnv, makeRequest, params } from "../support/test-env";

let env: ITestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  setRateLimitForProcess(null);
  await env.close();
});

/** Every app/api/**\/route.ts with the HTTP methods it exports, as OpenAPI paths. */
function routeFiles(
  dir = path.join(import.meta.dirname, "../../app/api"),
  prefix = "/api",
): { path: string; file: string }[] {
  const out: { path: string; file: string }[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory())
      out.push(...routeFiles(full, `${prefix}/${name.replace(/^\[(.+)\]$/, "{$1}")}`));
    else if (name === "route.ts") out.push({ path: prefix, file: full });
  }
  return out;
}

describe("OpenAPI document", () => {
  it("is OpenAPI 3.1 and documents every route handler and method in the app", async () => {
    const doc = await (await openapi(makeRequest("GET", "/api/openapi.json"), {})).json();
    expect(doc.openapi).toBe("3.1.0");
    for (const { path: p, file } of routeFiles()) {
      const mod = (await import(file)) as Record<string, unknown>;
      const methods = ["GET", "POST", "DELETE", "PATCH", "PUT"].filter((m) => typeof mod[m] === "function");
      const documented = doc.paths[p.replace("{documentId}", "{id}")] ?? doc.paths[p];
      expect(documented, `${p} is missing from the OpenAPI document`).toBeDefined();
      for (const m of methods) expect(documented[m.toLowerCase()], `${m} ${p}`).toBeDefined();
    }
  });

  it("uses the same request schema the handler parses with", async () => {
    const doc = await (await openapi(makeRequest("GET", "/api/openapi.json"), {})).json();
    const declared = doc.paths["/api/retrieval/query"].post.requestBody.content["application/json"].schema;
    // A named component schema is referenced: follow the $ref to the component.
    const body = declared.$ref
      ? doc.components.schemas[String(declared.$ref).replace("#/components/schemas/", "")]
      : declared;
    expect(body.required).toEqual(expect.arrayContaining(["filters", "query"]));
    expect(body.properties.topK).toMatchObject({ minimum: 1, maximum: 50 });
    expect(body.additionalProperties).toBe(false);
    expect(CONTRACTS.every((c) => c.summary.length > 0)).toBe(true);
  });
});

describe("API tokens", () => {
  it("says in words what is missing when a token has no name or no scope", async () => {
    const res = await createToken(
      makeRequest("POST", "/api/tokens", { token: env.teacher.token, json: { name: "  ", scopes: [] } }),
      {},
    );
    expect(res.status).toBe(400);
    const details = (await res.json()).error.details as { path: string; message: string }[];
    expect(details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "name", message: "Give the token a name, e.g. School LMS" }),
        expect.objectContaining({ path: "scopes", message: "Choose at least one scope" }),
      ]),
    );
  });

  it("creates (shown once), lists without secrets, scopes, and revokes", async () => {
    const created = await createToken(
      makeRequest("POST", "/api/tokens", {
        token: env.teacher.token,
        json: { name: "LMS", scopes: ["generation:write"] },
      }),
      {},
    );
    expect(created.status).toBe(201);
    const { token, tokenInfo } = await created.json();
    const listed = await (
      await listTokens(makeRequest("GET", "/api/tokens", { token: env.teacher.token }), {})
    ).json();
    expect(JSON.stringify(listed)).not.toContain(token);
    expect(listed.tokens[0]).toMatchObject({ name: "LMS", scopes: ["generation:write"] });
    const wrongScope = await query(
      makeRequest("POST", "/api/retrieval/query", {
        token,
        json: { filters: { board: "a", grade: "b", subject: "c" }, query: "x" },
      }),
      {},
    );
    expect(wrongScope.status).toBe(403);
    expect((await wrongScope.json()).error.message).toMatch(/retrieval:read/);
    const tokensCannotMintTokens = await createToken(
      makeRequest("POST", "/api/tokens", { token, json: { name: "x", scopes: ["retrieval:read"] } }),
      {},
    );
    expect(tokensCannotMintTokens.status).toBe(403);
    const revoked = await revoke(
      makeRequest("DELETE", "/x", { token: env.teacher.token }),
      params({ id: tokenInfo.id }),
    );
    expect(revoked.status).toBe(200);
    const after = await query(
      makeRequest("POST", "/api/retrieval/query", {
        token,
        json: { filters: { board: "a", grade: "b", subject: "c" }, query: "x" },
      }),
      {},
    );
    expect(after.status).toBe(401);
  });
});

describe("rate limits", () => {
  it("answers 429 with Retry-After once a user exceeds the per-minute budget", async () => {
    setRateLimitForProcess(3);
    const ask = () =>
      query(
        makeRequest("POST", "/api/retrieval/query", {
          token: env.otherTeacher.token,
          json: { filters: { board: "a", grade: "b", subject: "c" }, query: "osmosis" },
        }),
        {},
      );
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await ask()).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await ask();
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await limited.json()).error.code).toBe("rate_limited");
    const other = await query(
      makeRequest("POST", "/api/retrieval/query", {
        token: env.teacher.token,
        json: { filters: { board: "a", grade: "b", subject: "c" }, query: "x" },
      }),
      {},
    );
    expect(other.status).toBe(200);
    setRateLimitForProcess(null);
  });
});
