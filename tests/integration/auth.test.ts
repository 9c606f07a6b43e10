import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as login } from "@/app/api/auth/login/route";
import { GET as me } from "@/app/api/auth/me/route";
import { createApiToken, revokeApiToken } from "@/lib/auth/api-tokens";
import { createTestEnv, type ITestEnv, makeRequest } from "../support/test-env";

let env: ITestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => env.close());

describe("POST /api/auth/login", () => {
  it("signs a demo teacher in, sets an httpOnly session cookie and returns a working bearer token", async () => {
    const res = await login(
      makeRequest("POST", "/api/auth/login", {
        json: { email: "teacher@paperwise.local", password: "paperwise-teacher" },
      }),
      {},
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toMatch(/^pw_session=.+HttpOnly; SameSite=Lax/);
    const body = await res.json();
    expect(body.user).toMatchObject({ email: "teacher@paperwise.local", role: "teacher" });
    const meRes = await me(makeRequest("GET", "/api/auth/me", { token: body.accessToken }), {});
    expect(meRes.status).toBe(200);
    expect((await meRes.json()).user.id).toBe(body.user.id);
  });

  it("accepts the session cookie as well as the bearer header", async () => {
    const res = await me(
      makeRequest("GET", "/api/auth/me", { headers: { cookie: `pw_session=${env.admin.token}` } }),
      {},
    );
    expect(res.status).toBe(200);
    expect((await res.json()).user.role).toBe("admin");
  });

  it("gives the same 401 for a wrong password and an unknown email", async () => {
    for (const json of [
      { email: "teacher@paperwise.local", password: "nope" },
      { email: "nobody@paperwise.local", password: "paperwise-teacher" },
    ]) {
      const res = await login(makeRequest("POST", "/api/auth/login", { json }), {});
      expect(res.status).toBe(401);
      expect((await res.json()).error).toEqual({ code: "unauthorized", message: "Wrong email or password" });
    }
  });

  it("rejects malformed bodies with 400 and field paths", async () => {
    const res = await login(
      makeRequest("POST", "/api/auth/login", { json: { email: "not-an-email", extra: 1 } }),
      {},
    );
    expect(res.status).toBe(400);
    const body = await res.json();
    const paths = body.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(["email", "password"]));
    const bad = await login(
      makeRequest("POST", "/api/auth/login", {
        body: "{oops",
        headers: { "content-type": "application/json" },
      }),
      {},
    );
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toBe("Malformed JSON body");
  });
});

describe("bearer tokens", () => {
  it("401s without credentials, with garbage, with another secret's JWT and with an expired JWT", async () => {
    const forged = await new SignJWT({ role: "authenticated", app_metadata: { role: "admin" } })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(env.admin.id)
      .setAudience("authenticated")
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("another-secret-another-secret-another-secret"));
    const expired = await new SignJWT({ role: "authenticated", app_metadata: { role: "admin" } })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(env.admin.id)
      .setAudience("authenticated")
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode("test-secret-test-secret-test-secret-0123456789"));
    const cases: [Record<string, string>, RegExp][] = [
      [{}, /Sign in/],
      [{ authorization: "Basic abc" }, /Bearer/],
      [{ authorization: "Bearer not.a.jwt.at.all" }, /Invalid token/],
      [{ authorization: `Bearer ${forged}` }, /Invalid token/],
      [{ authorization: `Bearer ${expired}` }, /expired/],
    ];
    for (const [headers, message] of cases) {
      const res = await me(makeRequest("GET", "/api/auth/me", { headers }), {});
      expect(res.status).toBe(401);
      expect((await res.json()).error.message).toMatch(message);
    }
  });

  it("API tokens work until revoked and carry their scopes", async () => {
    const { token, row } = await createApiToken(env.db, {
      userId: env.teacher.id,
      name: "lms",
      scopes: ["retrieval:read"],
    });
    expect(token).toMatch(/^pw_/);
    const [stored] = await env.db.query<{ token_hash: string }>(
      "select token_hash from api_tokens where id = $1",
      [row.id],
    );
    expect(stored!.token_hash).not.toContain(token);
    const ok = await me(makeRequest("GET", "/api/auth/me", { token }), {});
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ via: "api-token", scopes: ["retrieval:read"] });
    await revokeApiToken(env.db, env.teacher.id, row.id);
    const revoked = await me(makeRequest("GET", "/api/auth/me", { token }), {});
    expect(revoked.status).toBe(401);
    expect((await revoked.json()).error.message).toMatch(/revoked/);
  });

  it("expired API tokens are refused", async () => {
    const { token, row } = await createApiToken(env.db, {
      userId: env.teacher.id,
      name: "old",
      scopes: ["retrieval:read"],
    });
    await env.db.query("update api_tokens set expires_at = now() - interval '1 day' where id = $1", [row.id]);
    const res = await me(makeRequest("GET", "/api/auth/me", { token }), {});
    expect(res.status).toBe(401);
    expect((await res.json()).error.message).toMatch(/expired/);
  });
});
