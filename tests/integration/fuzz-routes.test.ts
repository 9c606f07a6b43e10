import { readdirSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "@/lib/auth/api-tokens";
import { issueSession } from "@/lib/auth/sessions";
import {
  createTestEnv,
  dbSnapshot,
  type ITestEnv,
  makeRequest,
  params,
  STACK_TRACE,
} from "../support/test-env";

/**
 * Every route handler in app/api, found on disk (so a new route is fuzzed without editing this
 * file), gets generic hostile requests: no or forged credentials, ids that are not ids, bodies
 * that are not what it expects (fast-check JSON values among them), prototype-pollution keys and
 * junk query strings. None may answer 5xx, leak a stack trace, answer an error that is not the
 * JSON error shape, or change the database when it refuses.
 */

type THandler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
interface IRoute {
  file: string;
  url: string;
  paramNames: string[];
  handlers: [string, THandler][];
}

const API_DIR = path.resolve(import.meta.dirname, "../../app/api");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? routeFiles(path.join(dir, e.name))
      : e.name === "route.ts"
        ? [path.join(dir, e.name)]
        : [],
  );
}

const FORGED =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIwMDAwMDAwMC0wMDAwLTAwMDAtMDAwMC0wMDAwMDAwMDAwMDAiLCJyb2xlIjoiYWRtaW4ifQ.c2lnbmF0dXJl";
const BAD_IDS = [
  "not-a-uuid",
  "00000000-0000-4000-8000-000000000000",
  "../../../etc/passwd",
  "' or 1=1 --",
  "x".repeat(5000),
  "\u0000\u202e\u200b😀",
];
const deep = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
const RAW_BODIES = [
  "{",
  "null",
  "[]",
  '"a string"',
  "42",
  deep(20_000),
  JSON.stringify({ __proto__: { admin: true }, constructor: { prototype: { role: "admin" } } }),
  JSON.stringify({ query: "a".repeat(200_000), filters: "x", id: 1, items: [null] }),
  "\u0000\u0001\u0002binary\uFFFD",
];
const JUNK_QUERY = "?limit=-1&offset=abc&q=%00%27%3B--&format=../../x&page=1e309&ids[]=1&ids[]=2";

/** Routes an API token may call whatever its scopes: public ones and the token's own identity. */
const UNSCOPED_OK = new Set([
  "GET /api/health",
  "GET /api/openapi.json",
  "GET /api/auth/me",
  "POST /api/auth/login",
  "POST /api/auth/logout",
]);

let env: ITestEnv;
let routes: IRoute[] = [];
let scopeless = "";
beforeAll(async () => {
  env = await createTestEnv({ PAPERWISE_RATE_LIMIT_PER_MIN: "0" });
  routes = await Promise.all(
    routeFiles(API_DIR).map(async (file) => {
      const rel = path.relative(API_DIR, path.dirname(file)).split(path.sep);
      const paramNames = rel.filter((s) => /^\[\w+\]$/.test(s)).map((s) => s.slice(1, -1));
      const mod = (await import(file)) as Record<string, unknown>;
      const handlers = METHODS.filter((m) => typeof mod[m] === "function").map(
        (m) => [m, mod[m] as THandler] as [string, THandler],
      );
      return { file: path.relative(API_DIR, file), url: `/api/${rel.join("/")}`, paramNames, handlers };
    }),
  );
  // A token with no scope at all: every route names the scope it needs, so it may call nothing.
  scopeless = (await createApiToken(env.db, { userId: env.teacher.id, name: "no scopes", scopes: [] })).token;
});
afterAll(async () => env.close());

describe("generic fuzzing of every route handler", () => {
  it("finds the route handlers on disk", () => {
    expect(routes.length).toBeGreaterThanOrEqual(25);
    expect(routes.flatMap((r) => r.handlers).length).toBeGreaterThanOrEqual(30);
  });

  it("answers hostile requests without 5xx, stack traces, malformed errors or database changes", async () => {
    const failures: string[] = [];
    let sent = 0;
    const statuses = new Map<number, number>();
    const send = async (label: string, route: IRoute, handler: THandler, req: Request, id: string) => {
      const before = await dbSnapshot(env.db);
      const ctx = params(Object.fromEntries(route.paramNames.map((p) => [p, id])));
      let res: Response;
      try {
        res = await handler(req, ctx);
      } catch (err) {
        failures.push(`${label}: threw ${String(err).slice(0, 120)}`);
        return;
      }
      sent++;
      const text = await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status >= 500) failures.push(`${label}: ${res.status} ${text.slice(0, 160)}`);
      if (STACK_TRACE.test(text)) failures.push(`${label}: stack trace leaked`);
      if (res.status >= 400) {
        let body: { ok?: unknown; error?: { message?: unknown } } = {};
        try {
          body = JSON.parse(text);
        } catch {
          failures.push(`${label}: ${res.status} is not JSON: ${text.slice(0, 80)}`);
        }
        if (body.ok !== false || typeof body.error?.message !== "string" || !body.error.message)
          failures.push(`${label}: unreadable error ${text.slice(0, 100)}`);
        if ((await dbSnapshot(env.db)) !== before)
          failures.push(`${label}: database changed on a refused request`);
      }
    };

    const randomBodies = fc.sample(fc.jsonValue({ maxDepth: 4 }), { numRuns: 30, seed: 20261123 });
    for (const route of routes) {
      // A fresh session per route: the logout route, fuzzed like any other, ends the one it is sent.
      const teacher = (
        await issueSession(env.db, { id: env.teacher.id, email: env.teacher.email, role: "teacher" })
      ).accessToken;
      for (const [method, handler] of route.handlers) {
        const at = `${method} ${route.url}`;
        const url = route.url.replace(/\[\w+\]/g, "x");
        const hasBody = BODY_METHODS.has(method);
        const json = hasBody ? { json: { query: "cell" } } : {};
        for (const cookie of ["pw_session=%E0%A4%A", "a=1; pw_session=%"]) {
          await send(
            `${at} malformed cookie`,
            route,
            handler,
            makeRequest(method, url, { ...json, headers: { cookie } }),
            BAD_IDS[1]!,
          );
        }
        if (method !== "GET") {
          const before = await dbSnapshot(env.db);
          const res = await handler(
            makeRequest(method, url, {
              ...json,
              headers: { cookie: `pw_session=${teacher}`, origin: "https://evil.example" },
            }),
            params(Object.fromEntries(route.paramNames.map((p) => [p, BAD_IDS[1]!]))),
          );
          sent++;
          if (res.status !== 403) failures.push(`${at} cross-site with the cookie: ${res.status}, not 403`);
          if ((await dbSnapshot(env.db)) !== before) failures.push(`${at} cross-site changed the database`);
        }
        {
          const res = await handler(
            makeRequest(method, url, { ...json, token: scopeless }),
            params(Object.fromEntries(route.paramNames.map((p) => [p, BAD_IDS[1]!]))),
          );
          sent++;
          const allowed = UNSCOPED_OK.has(at) ? res.status < 500 : res.status === 403;
          if (!allowed) failures.push(`${at} with a scope-less API token: ${res.status}`);
        }
        await send(`${at} without credentials`, route, handler, makeRequest(method, url, json), BAD_IDS[1]!);
        await send(
          `${at} forged token`,
          route,
          handler,
          makeRequest(method, url, { ...json, token: FORGED }),
          BAD_IDS[1]!,
        );
        if (route.paramNames.length > 0) {
          for (const id of BAD_IDS) {
            await send(
              `${at} id ${JSON.stringify(id.slice(0, 20))}`,
              route,
              handler,
              makeRequest(method, url, { ...json, token: teacher }),
              id,
            );
          }
        }
        if (method === "GET" || method === "DELETE") {
          await send(
            `${at} junk query`,
            route,
            handler,
            makeRequest(method, `${url}${JUNK_QUERY}`, { token: teacher }),
            BAD_IDS[0]!,
          );
        }
        if (!hasBody) continue;
        for (const [i, body] of RAW_BODIES.entries()) {
          await send(
            `${at} raw body #${i}`,
            route,
            handler,
            makeRequest(method, url, {
              token: teacher,
              body,
              headers: { "content-type": "application/json" },
            }),
            BAD_IDS[1]!,
          );
        }
        for (const [i, body] of randomBodies.entries()) {
          await send(
            `${at} random JSON #${i}`,
            route,
            handler,
            makeRequest(method, url, { token: teacher, json: body }),
            BAD_IDS[1]!,
          );
        }
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(800);
    // Most requests must get past authentication to the validation they are meant to probe.
    expect(statuses.get(400) ?? 0).toBeGreaterThan(sent / 2);
  }, 300_000);
});
