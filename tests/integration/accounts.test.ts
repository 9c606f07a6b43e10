import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as login } from "@/app/api/auth/login/route";
import { GET as me } from "@/app/api/auth/me/route";
import { POST as createPaper, GET as listPapers } from "@/app/api/papers/route";
import { POST as retryResource } from "@/app/api/resources/[id]/retry/route";
import { DELETE as deleteResource } from "@/app/api/resources/[id]/route";
import { POST as upload } from "@/app/api/resources/route";
import { POST as createToken } from "@/app/api/tokens/route";
import { POST as resetPassword } from "@/app/api/users/[id]/password/route";
import { DELETE as deleteUser, PATCH as updateUser } from "@/app/api/users/[id]/route";
import { DELETE as revokeUserToken } from "@/app/api/users/[id]/tokens/[tokenId]/route";
import { GET as listUserTokens } from "@/app/api/users/[id]/tokens/route";
import { GET as listUsers } from "@/app/api/users/route";
import { createAccount, disableAccount, setAccountRole } from "@/lib/auth/accounts";
import { createApiToken } from "@/lib/auth/api-tokens";
import { deleteAccount } from "@/lib/auth/lifecycle";
import { issueSession } from "@/lib/auth/sessions";
import { setSupabaseAdminFetchForProcess } from "@/lib/auth/supabase-admin";
import { buildConfig, getConfig, setConfigForProcess } from "@/lib/config/env";
import { drainIngestionQueue } from "@/lib/ingestion/queue";
import { getStorage } from "@/lib/storage";
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

/** The environment createTestEnv configured (for a test that changes one variable). */
const configEnv = () => ({
  DATABASE_URL: env.kind === "postgres" ? env.location : "",
  PAPERWISE_DATA_DIR: env.dataDir,
  PAPERWISE_SEED_DEMO: "false",
  PAPERWISE_LLM: "offline",
  PAPERWISE_EMBEDDER: "offline",
  PAPERWISE_LOG_LEVEL: "silent",
  PAPERWISE_JWT_SECRET: "test-secret-test-secret-test-secret-0123456789",
});

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
const patch = (token: string, id: string, json: unknown) =>
  updateUser(makeRequest("PATCH", `/api/users/${id}`, { token, json }), params({ id }));
const remove = (token: string, id: string, query: string) =>
  deleteUser(makeRequest("DELETE", `/api/users/${id}?${query}`, { token }), params({ id }));
const whoAmI = async (token: string) => (await me(makeRequest("GET", "/api/auth/me", { token }), {})).status;
const signIn = (email: string, password: string) =>
  login(makeRequest("POST", "/api/auth/login", { json: { email, password } }), {});

/** A fresh teacher with a password, a live session and an API token. */
async function person(email: string, password = "a-good-password") {
  const user = await createAccount(env.db, { email, password, role: "teacher" });
  const session = (await issueSession(env.db, user)).accessToken;
  const { token, row } = await createApiToken(env.db, {
    userId: user.id,
    name: "lms",
    scopes: ["papers:write", "resources:write"],
  });
  return { ...user, password, session, token, tokenId: row.id };
}

describe("account lifecycle: sessions end when the account changes", () => {
  it("a password reset ends the account's sessions; its API token stays", async () => {
    const p = await person("reset.me@school.example");
    expect(await whoAmI(p.session)).toBe(200);
    const res = await resetPassword(
      makeRequest("POST", `/api/users/${p.id}/password`, { token: env.admin.token }),
      params({ id: p.id }),
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.revoked).toEqual({ sessions: 1, tokens: 0 });
    expect(await whoAmI(p.session)).toBe(401);
    expect(await whoAmI(p.token)).toBe(200);
    expect((await signIn(p.email, body.password)).status).toBe(200);
  });

  it("a role change ends the account's sessions; the same role again ends nothing", async () => {
    const p = await person("promote.me@school.example");
    const same = await setRole(env.admin.token, p.id, "teacher");
    expect((await same.json()).revoked).toEqual({ sessions: 0, tokens: 0 });
    expect(await whoAmI(p.session)).toBe(200);
    const res = await setRole(env.admin.token, p.id, "admin");
    expect(res.status).toBe(200);
    expect((await res.json()).revoked.sessions).toBe(1);
    expect(await whoAmI(p.session)).toBe(401);
    // The token follows the role on every request.
    const meRes = await me(makeRequest("GET", "/api/auth/me", { token: p.token }), {});
    expect((await meRes.json()).user.role).toBe("admin");
    expect((await setRole(env.admin.token, p.id, "teacher")).status).toBe(200);
  });

  it("disabling ends sessions and tokens and refuses the password; re-enabling lets the password in only", async () => {
    const p = await person("leaver@school.example");
    const res = await patch(env.admin.token, p.id, { disabled: true });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.user.disabledAt).toEqual(expect.any(String));
    expect(body.revoked).toEqual({ sessions: 1, tokens: 1 });
    expect(await whoAmI(p.session)).toBe(401);
    expect(await whoAmI(p.token)).toBe(401);
    const refused = await signIn(p.email, p.password);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.message).toMatch(/disabled/);
    // A wrong password still reads as a wrong password: "disabled" is only for the owner.
    expect((await signIn(p.email, "not-it-at-all")).status).toBe(401);
    // A token minted for a disabled account (e.g. from the CLI) is refused too.
    const late = await createApiToken(env.db, { userId: p.id, name: "late", scopes: ["papers:read"] });
    expect(await whoAmI(late.token)).toBe(401);
    const listed = await (
      await listUsers(makeRequest("GET", "/api/users", { token: env.admin.token }), {})
    ).json();
    expect(listed.users.find((u: { id: string }) => u.id === p.id).disabledAt).toEqual(expect.any(String));

    const back = await patch(env.admin.token, p.id, { disabled: false });
    expect(back.status).toBe(200);
    expect((await back.json()).user.disabledAt).toBeNull();
    expect((await signIn(p.email, p.password)).status).toBe(200);
    expect(await whoAmI(p.session)).toBe(401);
    expect(await whoAmI(p.token)).toBe(401);
  });

  it("nobody disables themselves or the last enabled admin; bad bodies are 400 with paths", async () => {
    const self = await patch(env.admin.token, env.admin.id, { disabled: true });
    expect(self.status).toBe(409);
    expect((await self.json()).error.message).toMatch(/your own account/);
    expect((await patch(env.admin.token, env.admin.id, {})).status).toBe(400);
    const bad = await patch(env.admin.token, env.admin.id, { disabled: "yes" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.details[0].path).toBe("disabled");
    expect(
      (await patch(env.admin.token, "00000000-0000-4000-8000-000000000000", { disabled: true })).status,
    ).toBe(404);
  });

  it("the last enabled admin is never disabled, demoted or deleted (checked in the statements)", async () => {
    // Through the API the caller is itself an enabled admin, so only a race reaches these checks;
    // the lib functions are called here as another caller (the CLI, a concurrent request) would.
    const others = await env.db.query<{ id: string }>(
      "update profiles set disabled_at = now() where role = 'admin' and disabled_at is null and id <> $1 returning id",
      [env.admin.id],
    );
    try {
      await expect(disableAccount(env.db, env.teacher.id, env.admin.id)).rejects.toThrow(
        /only enabled admin/,
      );
      await expect(setAccountRole(env.db, env.admin.id, "teacher")).rejects.toThrow(/only admin/);
      await expect(
        deleteAccount(env.db, getStorage, {
          actorId: env.teacher.id,
          id: env.admin.id,
          privateData: "delete",
        }),
      ).rejects.toThrow(/only enabled admin/);
      expect((await env.db.query("select 1 from profiles where id = $1", [env.admin.id])).length).toBe(1);
    } finally {
      for (const o of others)
        await env.db.query("update profiles set disabled_at = null where id = $1", [o.id]);
    }
  });
});

describe("admins see and revoke any account's API tokens", () => {
  it("lists another account's tokens without secrets and revokes one", async () => {
    const p = await person("has.tokens@school.example");
    const res = await listUserTokens(
      makeRequest("GET", `/api/users/${p.id}/tokens`, { token: env.admin.token }),
      params({ id: p.id }),
    );
    expect(res.status).toBe(200);
    const { tokens } = await res.json();
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toMatchObject({ id: p.tokenId, name: "lms", revoked_at: null });
    expect(JSON.stringify(tokens)).not.toContain(p.token);
    const revoke = (id: string, tokenId: string, token = env.admin.token) =>
      revokeUserToken(
        makeRequest("DELETE", `/api/users/${id}/tokens/${tokenId}`, { token }),
        params({ id, tokenId }),
      );
    // The token must be that account's: another account's id is a 404.
    expect((await revoke(env.teacher.id, p.tokenId)).status).toBe(404);
    expect((await revoke(p.id, p.tokenId, env.teacher.token)).status).toBe(403);
    expect((await revoke(p.id, p.tokenId)).status).toBe(200);
    expect(await whoAmI(p.token)).toBe(401);
    const missing = await listUserTokens(
      makeRequest("GET", "/api/users/00000000-0000-4000-8000-000000000000/tokens", {
        token: env.admin.token,
      }),
      params({ id: "00000000-0000-4000-8000-000000000000" }),
    );
    expect(missing.status).toBe(404);
  });

  it("new tokens expire after PAPERWISE_TOKEN_DAYS (90) unless the request says otherwise", async () => {
    const make = async (json: unknown) => {
      const res = await createToken(
        makeRequest("POST", "/api/tokens", { token: env.teacher.token, json }),
        {},
      );
      expect(res.status).toBe(201);
      const { tokenInfo } = await res.json();
      return (new Date(tokenInfo.expires_at).getTime() - Date.now()) / 86_400_000;
    };
    expect(await make({ name: "default", scopes: ["papers:read"] })).toBeCloseTo(90, 1);
    expect(await make({ name: "null", scopes: ["papers:read"], expiresInDays: null })).toBeCloseTo(90, 1);
    expect(await make({ name: "week", scopes: ["papers:read"], expiresInDays: 7 })).toBeCloseTo(7, 1);
    const local = getConfig();
    setConfigForProcess(
      buildConfig({ ...process.env, NODE_ENV: "test", ...configEnv(), PAPERWISE_TOKEN_DAYS: "30" }),
    );
    try {
      expect(await make({ name: "env", scopes: ["papers:read"] })).toBeCloseTo(30, 1);
    } finally {
      setConfigForProcess(local);
    }
  });
});

describe("deleting an account: its data is transferred or deleted, as the admin chooses", () => {
  async function withData(email: string) {
    const p = await person(email);
    const priv = await uploadText(p.session, `${email}-private.md`, { visibility: "private" });
    expect(priv.status).toBe(202);
    await drainIngestionQueue();
    const paper = await createPaper(
      makeRequest("POST", "/api/papers", {
        token: p.session,
        json: {
          template: "unit-test-20",
          title: "Unit test",
          board: "OpenStax",
          grade: "11",
          subject: "Biology",
        },
      }),
      {},
    );
    expect(paper.status).toBe(201);
    await env.db.query(
      `insert into question_sets (user_id, board, grade, subject, title, request, generator, warnings)
       values ($1, 'OpenStax', '11', 'Biology', 'set', '{}'::jsonb, 'offline', '[]'::jsonb)`,
      [p.id],
    );
    // A shared resource they uploaded while an admin.
    await env.db.query("update profiles set role = 'admin' where id = $1", [p.id]);
    const shared = await uploadText(p.session, `${email}-shared.md`, { visibility: "shared" });
    expect(shared.status).toBe(202);
    await drainIngestionQueue();
    await env.db.query("update profiles set role = 'teacher' where id = $1", [p.id]);
    return {
      ...p,
      privateId: priv.body.ingestions[0].id as string,
      sharedId: shared.body.ingestions[0].id as string,
    };
  }
  const owner = async (table: string, id: string) =>
    (await env.db.query<{ user_id: string }>(`select user_id from ${table} where id = $1`, [id]))[0]?.user_id;

  it("refuses without a choice, for yourself, and for a missing or same transfer target", async () => {
    const p = await person("undecided@school.example");
    const none = await remove(env.admin.token, p.id, "");
    expect(none.status).toBe(400);
    expect((await none.json()).error.details[0].path).toBe("privateData");
    const noTarget = await remove(env.admin.token, p.id, "privateData=transfer");
    expect(noTarget.status).toBe(400);
    expect((await noTarget.json()).error.details[0].path).toBe("to");
    expect((await remove(env.admin.token, p.id, `privateData=transfer&to=${p.id}`)).status).toBe(400);
    expect(
      (await remove(env.admin.token, p.id, "privateData=transfer&to=00000000-0000-4000-8000-000000000000"))
        .status,
    ).toBe(400);
    const self = await remove(env.admin.token, env.admin.id, "privateData=delete");
    expect(self.status).toBe(409);
    expect((await remove(env.teacher.token, p.id, "privateData=delete")).status).toBe(403);
    expect(await whoAmI(p.session)).toBe(200);
  });

  it("transfer: resources, papers and question sets move to the chosen account", async () => {
    const p = await withData("transfer.me@school.example");
    const res = await remove(env.admin.token, p.id, `privateData=transfer&to=${env.teacher.id}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      deleted: p.id,
      privateData: "transfer",
      movedTo: env.teacher.id,
      moved: { resources: 2, papers: 1, questionSets: 1 },
      removed: { resources: 0, papers: 0, questionSets: 0 },
    });
    expect(await owner("ingestions", p.privateId)).toBe(env.teacher.id);
    expect(await owner("ingestions", p.sharedId)).toBe(env.teacher.id);
    const docs = await env.db.query<{ owner_id: string }>(
      "select owner_id from document_versions where ingestion_id = $1",
      [p.privateId],
    );
    expect(docs.map((d) => d.owner_id)).toEqual([env.teacher.id]);
    expect(
      (await env.db.query("select 1 from papers where user_id = $1", [env.teacher.id])).length,
    ).toBeGreaterThan(0);
    expect((await env.db.query("select 1 from profiles where id = $1", [p.id])).length).toBe(0);
    expect(await whoAmI(p.session)).toBe(401);
    expect(await whoAmI(p.token)).toBe(401);
    expect((await remove(env.admin.token, p.id, "privateData=delete")).status).toBe(404);
  });

  it("delete: private resources (and their files), papers and sets go; shared resources come to the admin", async () => {
    const p = await withData("delete.me@school.example");
    const [file] = await env.db.query<{ path: string }>("select path from ingestions where id = $1", [
      p.privateId,
    ]);
    const res = await remove(env.admin.token, p.id, "privateData=delete");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      privateData: "delete",
      movedTo: env.admin.id,
      moved: { resources: 1, papers: 0, questionSets: 0 },
      removed: { resources: 1, papers: 1, questionSets: 1 },
    });
    expect(await owner("ingestions", p.privateId)).toBeUndefined();
    expect(await owner("ingestions", p.sharedId)).toBe(env.admin.id);
    expect((await env.db.query("select 1 from papers where user_id = $1", [p.id])).length).toBe(0);
    await expect(getStorage().get("resources", file!.path)).rejects.toThrow();
  });
});

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

/** A Supabase-style access token (what Supabase Auth signs with the project's legacy secret). */
function supabaseJwt(
  sub: string,
  email: string,
  role: string,
  iss = "https://project.supabase.example/auth/v1",
) {
  return new SignJWT({ email, role: "authenticated", app_metadata: { role } })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(sub)
    .setAudience("authenticated")
    .setIssuer(iss)
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode("test-secret-test-secret-test-secret-0123456789"));
}

describe("accounts held by Supabase Auth", () => {
  it("disables (ban), re-enables (unban) and deletes through the admin API, and refuses the JWTs of a disabled account itself", async () => {
    const calls: { method: string; url: string; body: unknown }[] = [];
    setSupabaseAdminFetchForProcess(async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      const body = init?.body ? JSON.parse(String(init.body)) : null;
      calls.push({ method: init?.method ?? "GET", url, body });
      const id = url.split("/").pop();
      return Response.json({
        id,
        aud: "authenticated",
        role: "authenticated",
        email: "x@y.z",
        app_metadata: {},
        user_metadata: {},
        created_at: new Date().toISOString(),
      });
    });
    const local = getConfig();
    setConfigForProcess(
      buildConfig({
        ...configEnv(),
        NODE_ENV: "test",
        SUPABASE_URL: "https://project.supabase.example",
        SUPABASE_SERVICE_ROLE_KEY: "service-role-key",
        // Tokens signed in this suite use this same secret, so they verify as Supabase tokens.
        SUPABASE_JWT_SECRET: "test-secret-test-secret-test-secret-0123456789",
      }),
    );
    const adminJwt = await supabaseJwt(env.admin.id, env.admin.email, "admin");
    try {
      const person0 = await person("supa.teacher@school.example");
      const p = { ...person0, session: await supabaseJwt(person0.id, person0.email, "teacher") };
      expect(await whoAmI(p.session)).toBe(200);
      const off = await patch(adminJwt, p.id, { disabled: true });
      expect(off.status).toBe(200);
      expect((await off.json()).notice).toMatch(/Banned in Supabase Auth/);
      expect(calls.at(-1)).toMatchObject({
        method: "PUT",
        url: `https://project.supabase.example/auth/v1/admin/users/${p.id}`,
        body: { ban_duration: "876000h" },
      });
      // Supabase keeps its token valid until exp; Paperwise refuses it from now on.
      expect(await whoAmI(p.session)).toBe(401);
      const on = await patch(adminJwt, p.id, { disabled: false });
      expect(on.status).toBe(200);
      expect(calls.at(-1)?.body).toEqual({ ban_duration: "none" });
      expect(await whoAmI(p.session)).toBe(200);
      // Roles stay Supabase's to set.
      expect((await patch(adminJwt, p.id, { role: "admin" })).status).toBe(400);
      const gone = await remove(adminJwt, p.id, `privateData=transfer&to=${env.admin.id}`);
      expect(gone.status).toBe(200);
      expect((await gone.json()).notice).toMatch(/Supabase Auth/);
      expect(calls.at(-1)).toMatchObject({
        method: "DELETE",
        url: `https://project.supabase.example/auth/v1/admin/users/${p.id}`,
      });
      // Without the service-role key Paperwise still disables here, and says what it could not do.
      setConfigForProcess(
        buildConfig({
          ...configEnv(),
          NODE_ENV: "test",
          SUPABASE_JWT_SECRET: "test-secret-test-secret-test-secret-0123456789",
        }),
      );
      const q = await person("supa.nokey@school.example");
      const before = calls.length;
      const res = await patch(adminJwt, q.id, { disabled: true });
      expect(res.status).toBe(200);
      expect((await res.json()).notice).toMatch(/SUPABASE_SERVICE_ROLE_KEY/);
      expect(await whoAmI(q.session)).toBe(401);
      const refused = await remove(adminJwt, q.id, "privateData=delete");
      expect(refused.status).toBe(400);
      expect((await refused.json()).error.message).toMatch(/SUPABASE_SERVICE_ROLE_KEY/);
      expect(calls.length).toBe(before);
    } finally {
      setConfigForProcess(local);
      setSupabaseAdminFetchForProcess(null);
    }
  });
});
