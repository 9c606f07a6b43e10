import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as me } from "@/app/api/auth/me/route";
import { GET as listPapers } from "@/app/api/papers/route";
import { POST as retryResource } from "@/app/api/resources/[id]/retry/route";
import { DELETE as deleteResource } from "@/app/api/resources/[id]/route";
import { POST as upload } from "@/app/api/resources/route";
import { PATCH as updateUser } from "@/app/api/users/[id]/route";
import { drainIngestionQueue } from "@/lib/ingestion/queue";
import { createTestEnv, type ITestEnv, makeRequest, params } from "../support/test-env";

/**
 * Issue 27: accounts an admin can control and logins no one else can lock. Runs on PGlite and on
 * the real PostgreSQL (vitest.config.ts lists it among the Postgres suites).
 */
let env: ITestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => env.close());

const META = { board: "OpenStax", grade: "11", subject: "Biology", resourceType: "textbook" };
const TEXT =
  "# Osmosis\n\nWater moves across a semipermeable membrane from low to high solute concentration.\n";

async function uploadText(token: string, name: string, fields: Record<string, string> = {}) {
  const f = new FormData();
  for (const [k, v] of Object.entries({ ...META, ...fields })) f.set(k, v);
  f.append("file", new Blob([`${TEXT}\n${name}\n`], { type: "text/markdown" }), name);
  const res = await upload(makeRequest("POST", "/api/resources", { token, body: f }), {});
  return { status: res.status, body: await res.json() };
}

const setRole = (token: string, id: string, role: string) =>
  updateUser(makeRequest("PATCH", `/api/users/${id}`, { token, json: { role } }), params({ id }));

describe("shared resources need the admin role at the time of the request", () => {
  it("refuses a demoted admin's delete and retry of a shared resource they uploaded", async () => {
    const second = await env.db.query<{ id: string }>(
      "insert into profiles (email, role) values ('admin2@school.example', 'admin') returning id",
    );
    const adminId = second[0]!.id;
    const { issueSession } = await import("@/lib/auth/sessions");
    const token = (await issueSession(env.db, { id: adminId, email: "admin2@school.example", role: "admin" }))
      .accessToken;
    const up = await uploadText(token, "shared-by-admin2.md", { visibility: "shared" });
    expect(up.status).toBe(202);
    const id = up.body.ingestions[0].id as string;
    await drainIngestionQueue();

    // The first admin demotes the second; the second signs in again (a role change ends sessions).
    expect((await setRole(env.admin.token, adminId, "teacher")).status).toBe(200);
    const fresh = (
      await issueSession(env.db, { id: adminId, email: "admin2@school.example", role: "teacher" })
    ).accessToken;
    const del = await deleteResource(
      makeRequest("DELETE", `/api/resources/${id}`, { token: fresh }),
      params({ id }),
    );
    expect(del.status).toBe(403);
    expect((await del.json()).error.message).toMatch(/curriculum admin/);
    const retry = await retryResource(
      makeRequest("POST", `/api/resources/${id}/retry`, { token: fresh }),
      params({ id }),
    );
    expect(retry.status).toBe(403);
    expect((await env.db.query("select 1 from ingestions where id = $1", [id])).length).toBe(1);

    // Their private resources stay theirs to change.
    const mine = await uploadText(fresh, "private-of-admin2.md", { visibility: "private" });
    expect(mine.status).toBe(202);
    const mineId = mine.body.ingestions[0].id as string;
    await drainIngestionQueue();
    const ok = await deleteResource(
      makeRequest("DELETE", `/api/resources/${mineId}`, { token: fresh }),
      params({ id: mineId }),
    );
    expect(ok.status).toBe(200);
    // A current admin may change the shared one.
    const byAdmin = await deleteResource(
      makeRequest("DELETE", `/api/resources/${id}`, { token: env.admin.token }),
      params({ id }),
    );
    expect(byAdmin.status).toBe(200);
  });
});

describe("HTTP hygiene", () => {
  it("answers authenticated JSON, and errors, with Cache-Control: no-store", async () => {
    const ok = await me(makeRequest("GET", "/api/auth/me", { token: env.teacher.token }), {});
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("no-store");
    const papers = await listPapers(makeRequest("GET", "/api/papers", { token: env.teacher.token }), {});
    expect(papers.headers.get("cache-control")).toBe("no-store");
    const anonymous = await me(makeRequest("GET", "/api/auth/me"), {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("cache-control")).toBe("no-store");
  });

  it("refuses file names with bidi and other invisible format characters, naming the character", async () => {
    for (const [name, code] of [
      ["invoice\u202Egpj.exe.md", "U+202E"],
      ["notes\u200E.md", "U+200E"],
      ["ch1\u2066x\u2069.md", "U+2066"],
      ["zero\u200Bwidth.md", "U+200B"],
      ["bell\u0007.md", "U+0007"],
    ] as const) {
      const res = await uploadText(env.teacher.token, name, { visibility: "private" });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ path: "file.0", message: expect.stringContaining(code) }]);
    }
    // Letters of any script are fine, and the limit is per file.
    const ok = await uploadText(env.teacher.token, "प्रकाश-संश्लेषण.md", { visibility: "private" });
    expect(ok.status).toBe(202);
    await drainIngestionQueue();
  });
});
