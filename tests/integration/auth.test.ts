import { jwtVerify, SignJWT } from "jose";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as login } from "@/app/api/auth/login/route";
import { POST as logout } from "@/app/api/auth/logout/route";
import { GET as me } from "@/app/api/auth/me/route";
import { authenticatePassword } from "@/lib/auth/accounts";
import { createApiToken, revokeApiToken } from "@/lib/auth/api-tokens";
import {
  ACCOUNT_PACE_SEC,
  ACCOUNT_SOFT_LIMIT,
  FREE_PAIR_FAILURES,
  MAX_PAIR_DELAY_SEC,
  pairDelaySeconds,
} from "@/lib/auth/login-throttle";
import { setRateLimitForProcess } from "@/lib/http/rate-limit";
import { PEER_HEADER, peerHeaderValue } from "@/lib/http/server-guard";
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

const SECRET = new TextEncoder().encode("test-secret-test-secret-test-secret-0123456789");
const signIn = async (email: string, password: string, headers: Record<string, string> = {}) =>
  login(makeRequest("POST", "/api/auth/login", { json: { email, password }, headers }), {});

describe("revocable sessions (finding 11)", () => {
  it("logout ends the session: the same JWT stops working as bearer and as cookie", async () => {
    const res = await signIn("teacher@paperwise.local", "paperwise-teacher");
    const { accessToken } = await res.json();
    const asBearer = () => me(makeRequest("GET", "/api/auth/me", { token: accessToken }), {});
    const asCookie = () =>
      me(makeRequest("GET", "/api/auth/me", { headers: { cookie: `pw_session=${accessToken}` } }), {});
    expect((await asBearer()).status).toBe(200);
    const out = await logout(
      makeRequest("POST", "/api/auth/logout", {
        headers: { cookie: `pw_session=${accessToken}`, origin: "http://localhost" },
      }),
      {},
    );
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toMatch(/pw_session=;.*Max-Age=0/);
    for (const res of [await asBearer(), await asCookie()]) {
      expect(res.status).toBe(401);
      expect((await res.json()).error.message).toMatch(/session has ended/);
    }
    // Other sessions of the same user are untouched.
    expect((await me(makeRequest("GET", "/api/auth/me", { token: env.teacher.token }), {})).status).toBe(200);
  });

  it("logout with a bearer token ends that session; logout without one just clears the cookie", async () => {
    const { accessToken } = await (await signIn("teacher@paperwise.local", "paperwise-teacher")).json();
    expect((await logout(makeRequest("POST", "/api/auth/logout", { token: accessToken }), {})).status).toBe(
      200,
    );
    expect((await me(makeRequest("GET", "/api/auth/me", { token: accessToken }), {})).status).toBe(401);
    expect((await logout(makeRequest("POST", "/api/auth/logout"), {})).status).toBe(200);
  });

  it("refuses JWTs without exp, without a session, with someone else's or an unknown session", async () => {
    const [live] = await env.db.query<{ id: string }>(
      "select id from auth_sessions where user_id = $1 and revoked_at is null limit 1",
      [env.admin.id],
    );
    const base = () =>
      new SignJWT({ email: "admin@paperwise.local", role: "authenticated", app_metadata: { role: "admin" } })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(env.admin.id)
        .setAudience("authenticated");
    const cases: [string, Promise<string>, RegExp][] = [
      ["no exp", base().setIssuedAt().sign(SECRET), /no expiry/],
      ["no session", base().setExpirationTime("1h").sign(SECRET), /no session/],
      [
        "unknown session",
        new SignJWT({ app_metadata: { role: "admin" }, session_id: "00000000-0000-4000-8000-000000000000" })
          .setProtectedHeader({ alg: "HS256" })
          .setSubject(env.admin.id)
          .setAudience("authenticated")
          .setExpirationTime("1h")
          .sign(SECRET),
        /session has ended/,
      ],
      [
        "another user's session",
        new SignJWT({ app_metadata: { role: "admin" }, session_id: live!.id })
          .setProtectedHeader({ alg: "HS256" })
          .setSubject(env.teacher.id)
          .setAudience("authenticated")
          .setExpirationTime("1h")
          .sign(SECRET),
        /session has ended/,
      ],
      [
        "not a uuid",
        new SignJWT({ session_id: "' or 1=1 --" })
          .setProtectedHeader({ alg: "HS256" })
          .setSubject(env.admin.id)
          .setAudience("authenticated")
          .setExpirationTime("1h")
          .sign(SECRET),
        /no session/,
      ],
    ];
    for (const [label, token, message] of cases) {
      const res = await me(makeRequest("GET", "/api/auth/me", { token: await token }), {});
      expect(res.status, label).toBe(401);
      expect((await res.json()).error.message, label).toMatch(message);
    }
  });

  it("a session past its expiry in the table is over even if the JWT were still valid", async () => {
    const { accessToken } = await (await signIn("admin@paperwise.local", "paperwise-admin")).json();
    const { payload } = await jwtVerify(accessToken, SECRET);
    await env.db.query("update auth_sessions set expires_at = now() - interval '1 second' where id = $1", [
      payload.session_id,
    ]);
    expect((await me(makeRequest("GET", "/api/auth/me", { token: accessToken }), {})).status).toBe(401);
  });
});

describe("malformed session cookies (finding 10)", () => {
  it("a cookie that is not valid percent-encoding is a 401, not a 500", async () => {
    for (const cookie of ["pw_session=%E0%A4%A", "pw_session=%", "other=1; pw_session=%zz"]) {
      const res = await me(makeRequest("GET", "/api/auth/me", { headers: { cookie } }), {});
      expect(res.status, cookie).toBe(401);
      expect((await res.json()).error.message).toMatch(/Malformed session cookie/);
    }
  });
});

describe("login throttling that an attacker cannot turn on the owner (finding 4, issue 27)", () => {
  // Fresh counters: in memory (PGlite) and in the shared table (the Postgres pass keeps them there).
  beforeEach(async () => {
    setRateLimitForProcess(null);
    await env.db.query("delete from paperwise_rate_limits");
  });
  afterEach(() => vi.useRealTimers());
  const from = (ip: string) => ({ [PEER_HEADER]: peerHeaderValue(ip) });
  /** Moves the clock (what the limiters read) forward; the database and argon2 are unaffected. */
  const later = (sec: number) => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + sec * 1000);
  };

  it("slows one (account, address) pair progressively, and the owner from another address still gets in", async () => {
    const guess = (i: number) => signIn("teacher2@paperwise.local", `wrong-${i}`, from("203.0.113.66"));
    for (let i = 0; i < FREE_PAIR_FAILURES; i++) expect((await guess(i)).status).toBe(401);
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const refused = await guess(100 + i);
      expect(refused.status).toBe(429);
      expect((await refused.json()).error.code).toBe("rate_limited");
      const wait = Number(refused.headers.get("retry-after"));
      waits.push(wait);
      later(wait + 0.1);
      expect((await guess(200 + i)).status).toBe(401);
    }
    expect(waits).toEqual([1, 2, 4, 8]);
    expect(pairDelaySeconds(40)).toBe(MAX_PAIR_DELAY_SEC);
    // Even the right password waits at that address …
    expect(
      (await signIn("teacher2@paperwise.local", "paperwise-teacher2", from("203.0.113.66"))).status,
    ).toBe(429);
    // … but the owner anywhere else signs in at once (before, the account was locked for 15 min).
    expect(
      (await signIn("teacher2@paperwise.local", "paperwise-teacher2", from("198.51.100.20"))).status,
    ).toBe(200);
    // Another account from the guessing address is not slowed either.
    expect((await signIn("teacher@paperwise.local", "paperwise-teacher", from("203.0.113.66"))).status).toBe(
      200,
    );
  });

  it("a correct password clears the pair's count and delay", async () => {
    const at = from("192.0.2.44");
    for (let i = 0; i < FREE_PAIR_FAILURES; i++)
      expect((await signIn("admin@paperwise.local", "wrong", at)).status).toBe(401);
    later(1.1);
    expect((await signIn("admin@paperwise.local", "paperwise-admin", at)).status).toBe(200);
    for (let i = 0; i < FREE_PAIR_FAILURES; i++)
      expect((await signIn("admin@paperwise.local", "wrong", at)).status).toBe(401);
  });

  it("unknown emails are counted like known ones (a 429 does not reveal which accounts exist)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < FREE_PAIR_FAILURES + 1; i++)
      statuses.push((await signIn("nobody@paperwise.local", "x", from("192.0.2.45"))).status);
    expect(statuses.at(-1)).toBe(429);
  });

  it("paces an account guessed from many addresses, except from addresses its owner signed in from", async () => {
    const email = "teacher@paperwise.local";
    // The owner's usual place.
    expect((await signIn(email, "paperwise-teacher", from("198.51.100.1"))).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < ACCOUNT_SOFT_LIMIT + 5; i++)
      statuses.push((await signIn(email, `guess-${i}`, from(`203.0.113.${100 + i}`))).status);
    // Up to the soft limit every address fails normally; past it, one attempt per pace window.
    expect(statuses.slice(0, ACCOUNT_SOFT_LIMIT - 1).every((s) => s === 401)).toBe(true);
    const paced = await signIn(email, "paperwise-teacher", from("203.0.113.250"));
    expect(paced.status).toBe(429);
    expect(Number(paced.headers.get("retry-after"))).toBeLessThanOrEqual(ACCOUNT_PACE_SEC);
    // The owner's known address is never paced …
    const ownerRes = await signIn(email, "paperwise-teacher", from("198.51.100.1"));
    expect(ownerRes.status).toBe(200);
    // … and from a new one they get in after the short wait.
    later(ACCOUNT_PACE_SEC + 0.1);
    expect((await signIn(email, "paperwise-teacher", from("203.0.113.250"))).status).toBe(200);
  });

  it("throttles an address that guesses across many accounts, not other addresses", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 52; i++)
      statuses.push((await signIn(`spray${i}@example.com`, "Summer2026!", from("203.0.113.9"))).status);
    expect(statuses.slice(0, 50).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(50)).toEqual([429, 429]);
    expect((await signIn("teacher@paperwise.local", "paperwise-teacher", from("203.0.113.9"))).status).toBe(
      429,
    );
    expect((await signIn("teacher@paperwise.local", "paperwise-teacher", from("198.51.100.7"))).status).toBe(
      200,
    );
  });

  it("without trusted proxies, made-up X-Forwarded-For addresses share one bucket", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const forged = { "x-forwarded-for": `10.${i}.0.1` };
      statuses.push((await signIn(`xff${i}@example.com`, "Summer2026!", forged)).status);
    }
    // The probe's 60 logins with 60 made-up addresses were never throttled; now the 51st is.
    expect(statuses.slice(0, 50).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(50).every((s) => s === 429)).toBe(true);
  });
});

describe("constant-cost login (finding 5)", () => {
  it("an unknown email costs the same password check as a known one", async () => {
    const time = async (email: string) => {
      const t = performance.now();
      await authenticatePassword(env.db, email, "not-the-password").catch(() => undefined);
      return performance.now() - t;
    };
    await time("teacher@paperwise.local");
    const known: number[] = [];
    const unknown: number[] = [];
    // Interleaved, alternating which goes first, so load on the machine affects both sides alike.
    for (let i = 0; i < 20; i++) {
      if (i % 2) known.push(await time("teacher@paperwise.local"));
      unknown.push(await time(`nobody-${i}@paperwise.local`));
      if (!(i % 2)) known.push(await time("teacher@paperwise.local"));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const ratio = median(unknown) / median(known);
    // Before: 9.3 ms vs 28 ms (ratio 0.33, the hash skipped). Now both verify one argon2id hash;
    // the bounds leave room for a busy machine, not for a skipped hash.
    expect(ratio).toBeGreaterThan(0.6);
    expect(ratio).toBeLessThan(1.67);
  });
});
