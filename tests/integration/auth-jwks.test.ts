import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, exportSPKI, generateKeyPair, type JWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as me } from "@/app/api/auth/me/route";
import { createJwtVerifier, remoteJwks } from "@/lib/auth/jwt";
import { AppError } from "@/lib/errors";
import { createTestEnv, type ITestEnv, makeRequest } from "../support/test-env";

/**
 * Supabase Auth access tokens signed with the project's asymmetric keys (ES256, RS256; JWKS at
 * `<SUPABASE_URL>/auth/v1/.well-known/jwks.json`) as well as the legacy HS256 secret, with key
 * rotation. The JWKS is served from 127.0.0.1 by this test: no network.
 */

const LEGACY_SECRET = "legacy-supabase-jwt-secret-0123456789-abcdef";
const USER = "7b0c1e4a-1d2f-4c3b-9a8e-5f6d7c8b9a01";

type TKey = { kid: string; alg: "ES256" | "RS256"; privateKey: CryptoKey; jwk: JWK };
async function makeKey(kid: string, alg: "ES256" | "RS256"): Promise<TKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: "sig" } };
}

let server: Server;
let base = "";
let published: JWK[] = [];
let fetches = 0;
let env: ITestEnv;
let es: TKey;
let rs: TKey;
let next: TKey;
let unpublished: TKey;

beforeAll(async () => {
  [es, rs, next, unpublished] = await Promise.all([
    makeKey("key-es", "ES256"),
    makeKey("key-rs", "RS256"),
    makeKey("key-next", "ES256"),
    makeKey("key-secret", "ES256"),
  ]);
  published = [es.jwk, rs.jwk];
  server = createServer((req, res) => {
    if (req.url !== "/auth/v1/.well-known/jwks.json") {
      res.writeHead(404).end();
      return;
    }
    fetches++;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: published }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The JWKS URL is derived from SUPABASE_URL, as for a real project.
  env = await createTestEnv({
    PAPERWISE_AUTH: "supabase",
    SUPABASE_URL: base,
    SUPABASE_JWT_SECRET: LEGACY_SECRET,
  });
});
afterAll(async () => {
  await env.close();
  await new Promise((resolve) => server.close(resolve));
});

function claims(overrides: Record<string, unknown> = {}) {
  return new SignJWT({
    email: "lms.teacher@school.example",
    role: "authenticated",
    app_metadata: { role: "teacher" },
    user_metadata: { full_name: "Asha Rao" },
    session_id: "3f1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b",
    ...overrides,
  })
    .setSubject(USER)
    .setAudience("authenticated")
    .setIssuer(`${base}/auth/v1`)
    .setIssuedAt();
}

const signWith = (key: TKey, kid = key.kid) =>
  claims().setProtectedHeader({ alg: key.alg, kid, typ: "JWT" }).setExpirationTime("1h").sign(key.privateKey);

const meWith = async (token: string) => {
  const res = await me(makeRequest("GET", "/api/auth/me", { token }), {});
  return { status: res.status, body: await res.json() };
};

describe("Supabase Auth tokens through a route handler", () => {
  it("accepts ES256 and RS256 tokens signed with the project's published keys", async () => {
    for (const key of [es, rs]) {
      const { status, body } = await meWith(await signWith(key));
      expect(status, key.alg).toBe(200);
      expect(body.user).toMatchObject({ id: USER, role: "teacher", displayName: "Asha Rao" });
    }
  });

  it("still accepts the legacy HS256 secret", async () => {
    const token = await claims()
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode(LEGACY_SECRET));
    expect((await meWith(token)).status).toBe(200);
  });

  it("refuses forgeries: unknown kid, unpublished key under a published kid, wrong secret, HS256 keyed with the public key, alg none, other issuer, no exp", async () => {
    const publicPem = new TextEncoder().encode(await exportSPKI((await generateKeyPair("RS256")).publicKey));
    const forged: [string, Promise<string> | string][] = [
      ["unknown kid", signWith(unpublished)],
      ["unpublished key, published kid", signWith(unpublished, es.kid)],
      [
        "wrong HS256 secret",
        claims()
          .setProtectedHeader({ alg: "HS256" })
          .setExpirationTime("1h")
          .sign(new TextEncoder().encode("x".repeat(48))),
      ],
      [
        "HS256 keyed with a public key",
        claims().setProtectedHeader({ alg: "HS256", kid: rs.kid }).setExpirationTime("1h").sign(publicPem),
      ],
      [
        "alg none",
        `${Buffer.from('{"alg":"none","kid":"key-es"}').toString("base64url")}.${Buffer.from(
          JSON.stringify({
            sub: USER,
            aud: "authenticated",
            exp: 9_999_999_999,
            app_metadata: { role: "admin" },
          }),
        ).toString("base64url")}.`,
      ],
      [
        "other issuer",
        claims()
          .setIssuer("https://evil.supabase.co/auth/v1")
          .setProtectedHeader({ alg: "ES256", kid: es.kid })
          .setExpirationTime("1h")
          .sign(es.privateKey),
      ],
      ["no exp", claims().setProtectedHeader({ alg: "ES256", kid: es.kid }).sign(es.privateKey)],
    ];
    for (const [label, token] of forged) {
      const { status } = await meWith(await token);
      expect(status, label).toBe(401);
    }
  });
});

describe("key rotation and caching", () => {
  const url = () => `${base}/auth/v1/.well-known/jwks.json`;
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it("fetches once, refetches once for a new kid, refuses a kid still unknown, and respects the cooldown", async () => {
    published = [es.jwk];
    fetches = 0;
    const verify = createJwtVerifier({ hsSecret: null, jwks: remoteJwks(url(), { cooldownMs: 300 }) });
    await expect(verify(await signWith(es))).resolves.toMatchObject({ sub: USER });
    await verify(await signWith(es));
    expect(fetches).toBe(1);

    // The project rotates: a new key is published and starts signing.
    published = [es.jwk, next.jwk];
    await wait(350);
    await expect(verify(await signWith(next))).resolves.toMatchObject({ sub: USER });
    expect(fetches).toBe(2);

    // Right after a fetch an unknown kid is refused without asking again (cooldown) ...
    await expect(verify(await signWith(unpublished))).rejects.toMatchObject({ code: "unauthorized" });
    expect(fetches).toBe(2);
    // ... after it, one refetch, and a kid that is still unknown is refused.
    await wait(350);
    await expect(verify(await signWith(unpublished))).rejects.toMatchObject({ code: "unauthorized" });
    expect(fetches).toBe(3);
    await expect(verify(await signWith(unpublished))).rejects.toBeInstanceOf(AppError);
    expect(fetches).toBe(3);
  });

  it("drops a retired key once the cached set is refreshed", async () => {
    published = [es.jwk, next.jwk];
    fetches = 0;
    const verify = createJwtVerifier({ hsSecret: null, jwks: remoteJwks(url(), { cacheMaxAgeMs: 200 }) });
    await verify(await signWith(es));
    published = [next.jwk];
    await wait(250);
    await expect(verify(await signWith(es))).rejects.toMatchObject({ code: "unauthorized" });
    await expect(verify(await signWith(next))).resolves.toMatchObject({ sub: USER });
    expect(fetches).toBe(2);
  });

  it("an unreachable JWKS is a 503 (our outage), not a 401", async () => {
    const verify = createJwtVerifier({
      hsSecret: null,
      jwks: remoteJwks("http://127.0.0.1:9/auth/v1/.well-known/jwks.json", { timeoutMs: 1000 }),
    });
    await expect(verify(await signWith(es))).rejects.toMatchObject({ code: "unavailable" });
  });

  it("an injected fetch serves the keys as well (no socket at all)", async () => {
    let calls = 0;
    const verify = createJwtVerifier({
      hsSecret: null,
      jwks: remoteJwks("https://project.supabase.co/auth/v1/.well-known/jwks.json", {
        fetch: async () => {
          calls++;
          return Response.json({ keys: [rs.jwk] });
        },
      }),
    });
    await expect(verify(await signWith(rs))).resolves.toMatchObject({ sub: USER });
    expect(calls).toBe(1);
  });
});
