/**
 * npm run fuzz:contract -- [--target http://127.0.0.1:3106] [--port 4106] [--rounds 3]
 *
 * A contract fuzz through a validating proxy: Stoplight Prism (`prism proxy`) sits between this
 * script and a running Paperwise server, checks every request and every response against the
 * server's own OpenAPI document, and reports violations in the `sl-violations` header. The script
 * signs in as the demo teacher and admin, then sends each operation well-formed requests (real ids,
 * the documented examples, required query values) and malformed ones (bad ids, unknown ids, wrong
 * bodies, missing query values, wrong content types), `rounds` times.
 *
 * It fails (exit 1) on any 5xx, any response violation, or any request violation on a request it
 * meant to be valid. Start the server first, e.g. `E2E_PORT=3106 node scripts/e2e-server.mjs`
 * (an embedded database with the demo accounts and chapters).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const TARGET = arg("target", "http://127.0.0.1:3106");
const PORT = Number(arg("port", "4106"));
const ROUNDS = Number(arg("rounds", "3"));
const PROXY = `http://127.0.0.1:${PORT}`;

type TOperation = {
  operationId: string;
  security?: unknown[];
  parameters?: { name: string; in: "path" | "query"; required?: boolean; schema: { minimum?: number } }[];
  requestBody?: { content: Record<string, { example?: unknown }> };
};
type TDoc = { paths: Record<string, Record<string, TOperation>> };
interface IViolation {
  location: string[];
  severity: string;
  message: string;
}

const stats = { requests: 0, status: new Map<number, number>(), fivexx: [] as string[] };
const requestViolations: string[] = [];
const responseViolations: string[] = [];

async function send(
  method: string,
  url: string,
  init: { token?: string; json?: unknown; body?: string; type?: string; valid: boolean },
): Promise<Response> {
  const headers: Record<string, string> = { origin: TARGET };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: string | undefined;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers["content-type"] = "application/json";
  } else if (init.body !== undefined) {
    body = init.body;
    headers["content-type"] = init.type ?? "text/plain";
  }
  const res = await fetch(`${PROXY}${url}`, { method, headers, body });
  await res.arrayBuffer();
  stats.requests++;
  stats.status.set(res.status, (stats.status.get(res.status) ?? 0) + 1);
  const label = `${method} ${url} → ${res.status}`;
  if (res.status >= 500) stats.fivexx.push(label);
  const raw = res.headers.get("sl-violations");
  if (raw) {
    for (const v of JSON.parse(raw) as IViolation[]) {
      if (v.severity !== "Error") continue;
      const where = v.location.join(".");
      const line = `${label}: ${where}: ${v.message}`;
      if (v.location[0] === "response") responseViolations.push(line);
      else if (init.valid) requestViolations.push(line);
    }
  }
  return res;
}

async function waitFor(url: string, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

async function login(email: string, password: string): Promise<string> {
  const res = await fetch(`${TARGET}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: TARGET },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json()) as { accessToken?: string };
  if (!body.accessToken) throw new Error(`Sign-in as ${email} failed (${res.status})`);
  return body.accessToken;
}

async function main() {
  await waitFor(`${TARGET}/api/health`, 60_000);
  const doc = (await (await fetch(`${TARGET}/api/openapi.json`)).json()) as TDoc;
  const dir = mkdtempSync(path.join(tmpdir(), "paperwise-prism-"));
  const file = path.join(dir, "openapi.json");
  // Prism resolves `servers` against the document; point it at the root of the target.
  writeFileSync(file, JSON.stringify({ ...doc, servers: [{ url: "/" }] }));
  const prism: ChildProcess = spawn(
    path.join(process.cwd(), "node_modules/.bin/prism"),
    ["proxy", file, TARGET, "--port", String(PORT), "--host", "127.0.0.1", "--errors", "false"],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  try {
    await waitFor(`${PROXY}/api/health`, 60_000);
    const teacher = await login("teacher@paperwise.local", "paperwise-teacher");
    const admin = await login("admin@paperwise.local", "paperwise-admin");

    // Real ids to fill path parameters with: a paper of the teacher's, a resource, a document.
    const created = (await (
      await fetch(`${TARGET}/api/papers`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${teacher}`, origin: TARGET },
        body: JSON.stringify({
          template: "unit-test-20",
          title: "Fuzz",
          board: "OpenStax",
          grade: "11",
          subject: "Biology",
        }),
      })
    ).json()) as { paper: { id: string; sections: { items: { id: string }[] }[] } };
    const resources = (await (
      await fetch(`${TARGET}/api/resources?limit=5`, { headers: { authorization: `Bearer ${teacher}` } })
    ).json()) as { items: { id: string }[] };
    const ids: Record<string, string> = {
      id: created.paper.id,
      itemId: "6f1c2e4a-1b2c-4d3e-8f40-123456789abc",
      documentId: "6f1c2e4a-1b2c-4d3e-8f40-123456789abc",
    };
    const resourceId = resources.items[0]?.id ?? ids.itemId!;

    for (let round = 0; round < ROUNDS; round++) {
      for (const [route, ops] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(ops)) {
          const M = method.toUpperCase();
          // Destructive or account-changing calls are left to the integration tests.
          if (
            M === "DELETE" ||
            (route.startsWith("/api/users") && M !== "GET") ||
            route === "/api/auth/logout"
          )
            continue;
          const token = op.security?.length ? (route.startsWith("/api/users") ? admin : teacher) : undefined;
          const fill = (value: (name: string) => string) =>
            route.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(value(name)));
          const real = fill((name) =>
            route.startsWith("/api/resources") ? resourceId : (ids[name] ?? ids.itemId!),
          );
          const required = (op.parameters ?? []).filter((p) => p.in === "query" && p.required);
          const query = required.length
            ? `?${required.map((p) => `${p.name}=${p.name === "format" ? "md" : (p.schema.minimum ?? 0)}`).join("&")}`
            : "";
          const example = op.requestBody?.content["application/json"]?.example;
          const multipart = op.requestBody && !op.requestBody.content["application/json"];
          // Well-formed: real ids, required query values, the documented example body.
          if (!multipart)
            await send(M, `${real}${query}`, {
              token,
              ...(op.requestBody ? { json: example ?? {} } : {}),
              valid: example !== undefined || !op.requestBody,
            });
          // Malformed and unknown: a bad id, an unknown id, a missing query value, a wrong body.
          if (route.includes("{")) {
            await send(M, `${fill(() => "not-a-uuid")}${query}`, {
              token,
              valid: false,
              ...(op.requestBody ? { json: {} } : {}),
            });
            await send(M, `${fill(() => "00000000-0000-4000-8000-000000000000")}${query}`, {
              token,
              valid: !op.requestBody,
              ...(op.requestBody ? { json: example ?? {} } : {}),
            });
          }
          if (required.length) await send(M, real, { token, valid: false });
          if (op.requestBody) {
            await send(M, `${real}${query}`, { token, json: { unexpected: [1, "x", null] }, valid: false });
            await send(M, `${real}${query}`, { token, body: "not json", type: "text/plain", valid: false });
          }
          if (token) await send(M, `${real}${query}`, { valid: false });
        }
      }
    }
  } finally {
    prism.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  }
  const statuses = [...stats.status.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}×${n}`);
  console.log(`requests: ${stats.requests} (${statuses.join(", ")})`);
  console.log(`5xx: ${stats.fivexx.length}`);
  console.log(`request violations on well-formed requests: ${requestViolations.length}`);
  console.log(`response violations: ${responseViolations.length}`);
  for (const line of [...stats.fivexx, ...requestViolations, ...responseViolations].slice(0, 40))
    console.log(`  ${line}`);
  const failed = stats.fivexx.length + requestViolations.length + responseViolations.length;
  process.exit(failed > 0 ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
