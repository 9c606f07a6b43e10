import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as login } from "@/app/api/auth/login/route";
import { POST as resetPassword } from "@/app/api/users/[id]/password/route";
import { PATCH as updateUser } from "@/app/api/users/[id]/route";
import { POST as createUser, GET as listUsers } from "@/app/api/users/route";
import { createApiToken } from "@/lib/auth/api-tokens";
import { buildConfig, getConfig, setConfigForProcess } from "@/lib/config/env";
import { createTestEnv, dbSnapshot, type ITestEnv, makeRequest, params } from "../support/test-env";

let env: ITestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => env.close());

const list = (token?: string) => listUsers(makeRequest("GET", "/api/users", { token }), {});
const create = (token: string | undefined, json: unknown) =>
  createUser(makeRequest("POST", "/api/users", { token, json }), {});
const setRole = (token: string, id: string, json: unknown) =>
  updateUser(makeRequest("PATCH", `/api/users/${id}`, { token, json }), params({ id }));
const signIn = (email: string, password: string) =>
  login(makeRequest("POST", "/api/auth/login", { json: { email, password } }), {});

describe("accounts API (local accounts)", () => {
  it("lets an admin add a teacher with a generated password that signs in", async () => {
    const res = await create(env.admin.token, { email: "New.Teacher@School.example", role: "teacher" });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.user).toMatchObject({ email: "new.teacher@school.example", role: "teacher" });
    expect(body.password).toMatch(/^[\w-]{16}$/);
    expect((await signIn("new.teacher@school.example", body.password)).status).toBe(200);

    const listed = await (await list(env.admin.token)).json();
    expect(listed.mode).toBe("local");
    const row = listed.users.find((u: { email: string }) => u.email === "new.teacher@school.example");
    expect(row).toMatchObject({ role: "teacher", hasPassword: true });
    // Admins first, and no password hash ever leaves the server.
    expect(listed.users[0].role).toBe("admin");
    expect(JSON.stringify(listed)).not.toMatch(/argon2|password_hash/);
  });

  it("keeps a chosen password, refuses duplicates and bad input with field paths", async () => {
    const ok = await create(env.admin.token, {
      email: "chosen@school.example",
      role: "admin",
      password: "a-chosen-password",
    });
    expect(ok.status).toBe(201);
    expect((await ok.json()).password).toBeUndefined();
    expect((await signIn("chosen@school.example", "a-chosen-password")).status).toBe(200);

    const dup = await create(env.admin.token, { email: "CHOSEN@school.example", role: "teacher" });
    expect(dup.status).toBe(409);

    const before = await dbSnapshot(env.db);
    const bad = await create(env.admin.token, { email: "nope", role: "principal", password: "short", x: 1 });
    expect(bad.status).toBe(400);
    const paths = (await bad.json()).error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(["email", "role", "password"]));
    expect(await dbSnapshot(env.db)).toBe(before);
  });

  it("changes roles, and never demotes the last admin", async () => {
    const [target] = await env.db.query<{ id: string }>("select id from profiles where email = $1", [
      "new.teacher@school.example",
    ]);
    const promoted = await setRole(env.admin.token, target!.id, { role: "admin" });
    expect(promoted.status).toBe(200);
    expect((await promoted.json()).user.role).toBe("admin");
    expect((await setRole(env.admin.token, target!.id, { role: "teacher" })).status).toBe(200);
    expect((await setRole(env.admin.token, target!.id, { role: "owner" })).status).toBe(400);
    expect(
      (await setRole(env.admin.token, "00000000-0000-4000-8000-000000000000", { role: "admin" })).status,
    ).toBe(404);

    // Demote every other admin, then the last one must stay.
    const admins = await env.db.query<{ id: string }>(
      "select id from profiles where role = 'admin' and id <> $1",
      [env.admin.id],
    );
    for (const a of admins)
      expect((await setRole(env.admin.token, a.id, { role: "teacher" })).status).toBe(200);
    const last = await setRole(env.admin.token, env.admin.id, { role: "teacher" });
    expect(last.status).toBe(409);
    expect((await last.json()).error.message).toMatch(/only admin/);
  });

  it("resets a password to a generated one; the old one stops working", async () => {
    const res = await resetPassword(
      makeRequest("POST", `/api/users/${env.otherTeacher.id}/password`, { token: env.admin.token }),
      params({ id: env.otherTeacher.id }),
    );
    expect(res.status).toBe(200);
    const { password } = await res.json();
    expect((await signIn(env.otherTeacher.email, "paperwise-teacher2")).status).toBe(401);
    expect((await signIn(env.otherTeacher.email, password)).status).toBe(200);
  });

  it("is for signed-in admins only: 401 anonymous, 403 teachers and API tokens", async () => {
    expect((await list()).status).toBe(401);
    expect((await list(env.teacher.token)).status).toBe(403);
    expect((await create(env.teacher.token, { email: "x@school.example", role: "admin" })).status).toBe(403);
    expect((await setRole(env.teacher.token, env.teacher.id, { role: "admin" })).status).toBe(403);
    const { token } = await createApiToken(env.db, {
      userId: env.admin.id,
      name: "lms",
      scopes: ["retrieval:read", "resources:write"],
      expiresInDays: 1,
    });
    const viaToken = await create(token, { email: "y@school.example", role: "admin" });
    expect(viaToken.status).toBe(403);
    expect((await viaToken.json()).error.message).toMatch(/API tokens cannot manage accounts/);
  });
});

describe("accounts API with Supabase Auth", () => {
  it("lists accounts but refuses changes: they live in Supabase Auth", async () => {
    const local = getConfig();
    setConfigForProcess(
      buildConfig({
        NODE_ENV: "test",
        PAPERWISE_DATA_DIR: env.dataDir,
        PAPERWISE_LOG_LEVEL: "silent",
        PAPERWISE_LLM: "offline",
        PAPERWISE_EMBEDDER: "offline",
        // Tokens signed in this suite use this same secret, so they verify as Supabase tokens.
        SUPABASE_JWT_SECRET: "test-secret-test-secret-test-secret-0123456789",
      }),
    );
    try {
      const listed = await list(env.admin.token);
      expect(listed.status).toBe(200);
      expect((await listed.json()).mode).toBe("supabase");
      const refused = await create(env.admin.token, { email: "z@school.example", role: "teacher" });
      expect(refused.status).toBe(400);
      expect((await refused.json()).error.message).toMatch(/Supabase Auth/);
    } finally {
      setConfigForProcess(local);
    }
  });
});
