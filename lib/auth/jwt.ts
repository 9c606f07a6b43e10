import "server-only";
import {
  createRemoteJWKSet,
  customFetch,
  errors,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
  SignJWT,
} from "jose";
import { getConfig } from "@/lib/config/env";
import { AppError } from "@/lib/errors";
import type { ERole } from "@/types/curriculum.types";
import { getJwtSecret } from "./secret";

/**
 * Supabase-shaped access-token claims: `sub`, `role: authenticated`, app role in `app_metadata`,
 * and `session_id` (the session row it belongs to; Supabase's tokens carry the same claim).
 */
export interface IAccessClaims {
  sub: string;
  email: string;
  appRole: ERole;
  sessionId: string | null;
  /** A display name from Supabase's `user_metadata` (full_name or name), when there is one. */
  displayName?: string;
}

const AUDIENCE = "authenticated";
export const SESSION_TTL_SECONDS = 60 * 60 * 12;

/** Signs a local session token; `sessionId` names its row in `auth_sessions` (see sessions.ts). */
export async function signAccessToken(
  claims: Omit<IAccessClaims, "sessionId" | "displayName"> & { sessionId: string },
  ttlSeconds = SESSION_TTL_SECONDS,
): Promise<string> {
  return new SignJWT({
    email: claims.email,
    role: "authenticated",
    app_metadata: { role: claims.appRole },
    session_id: claims.sessionId,
  })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.sub)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(getJwtSecret());
}

export interface IJwtVerifierOptions {
  /** HS256 secret (local sessions, or Supabase's legacy JWT secret); null refuses HS256. */
  hsSecret: Uint8Array | null;
  /** Resolver for ES256/RS256 keys (Supabase's JWKS); null refuses asymmetric tokens. */
  jwks: JWTVerifyGetKey | null;
  /** Expected `iss`, when known. */
  issuer?: string | null;
}

export interface IRemoteJwksOptions {
  /** After a fetch, how long an unknown `kid` is refused without asking again (default 30 s). */
  cooldownMs?: number;
  /** How long fetched keys are trusted before they are fetched again (default 10 min). */
  cacheMaxAgeMs?: number;
  timeoutMs?: number;
  /** Tests inject a fetch; production uses the global one. */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
}

/**
 * The project's signing keys, fetched on first use and cached. A token whose `kid` is not in the
 * cache makes jose fetch the set once more (rotation), unless the last fetch was within the
 * cooldown; a `kid` still unknown after that is refused. Keys never come from the token itself.
 */
export function remoteJwks(url: string, opts: IRemoteJwksOptions = {}): JWTVerifyGetKey {
  return createRemoteJWKSet(new URL(url), {
    cooldownDuration: opts.cooldownMs ?? 30_000,
    cacheMaxAge: opts.cacheMaxAgeMs ?? 600_000,
    timeoutDuration: opts.timeoutMs ?? 5_000,
    ...(opts.fetch ? { [customFetch]: opts.fetch } : {}),
  });
}

const ASYMMETRIC = ["ES256", "RS256"] as const;

/**
 * Verifies signature, algorithm, audience, issuer (when configured) and expiry; a token without
 * `exp` is refused, so no token lives forever. Any failure is a 401 with a reason.
 */
export function createJwtVerifier(opts: IJwtVerifierOptions): (token: string) => Promise<IAccessClaims> {
  const algorithms = [...(opts.hsSecret ? ["HS256"] : []), ...(opts.jwks ? ASYMMETRIC : [])];
  // The key follows from the header's algorithm: the HS secret only ever for HS256, JWKS keys
  // only for ES256/RS256, so a token cannot pick a key of the other kind.
  const getKey: JWTVerifyGetKey = async (header, token) => {
    if (header.alg === "HS256" && opts.hsSecret) return opts.hsSecret;
    if (opts.jwks && (ASYMMETRIC as readonly string[]).includes(header.alg)) return opts.jwks(header, token);
    throw new errors.JOSEAlgNotAllowed(`Unexpected algorithm ${header.alg}`);
  };
  return async (token) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, getKey, {
        algorithms,
        audience: AUDIENCE,
        requiredClaims: ["exp", "sub"],
        ...(opts.issuer ? { issuer: opts.issuer } : {}),
      }));
    } catch (err) {
      if (err instanceof errors.JWTExpired)
        throw new AppError("unauthorized", "Token expired; sign in again");
      if (err instanceof errors.JWTClaimValidationFailed && err.claim === "exp") {
        throw new AppError("unauthorized", "Token has no expiry; sign in again");
      }
      // A JWKS that cannot be reached (timeout, network error) is our outage, not a bad token.
      if (err instanceof errors.JWKSTimeout || !(err instanceof errors.JOSEError)) {
        throw new AppError("unavailable", "Could not fetch the token signing keys; try again shortly");
      }
      throw new AppError("unauthorized", "Invalid token");
    }
    if (typeof payload.sub !== "string" || !/^[0-9a-f-]{36}$/i.test(payload.sub)) {
      throw new AppError("unauthorized", "Token has no valid subject");
    }
    const appMeta = payload.app_metadata as { role?: unknown } | undefined;
    const userMeta = payload.user_metadata as { full_name?: unknown; name?: unknown } | undefined;
    const name = userMeta?.full_name ?? userMeta?.name;
    return {
      sub: payload.sub,
      email: typeof payload.email === "string" ? payload.email : "",
      appRole: appMeta?.role === "admin" ? "admin" : "teacher",
      sessionId: typeof payload.session_id === "string" ? payload.session_id : null,
      ...(typeof name === "string" && name.trim() ? { displayName: name.trim().slice(0, 120) } : {}),
    };
  };
}

let verifier: ((token: string) => Promise<IAccessClaims>) | null = null;
let verifierConfig: object | null = null;

/**
 * The verifier for the configured issuer: local sessions, or Supabase Auth (legacy secret and/or
 * JWKS). Built once per configuration, so the JWKS cache lives as long as the process.
 */
export function verifyAccessToken(token: string): Promise<IAccessClaims> {
  const config = getConfig();
  if (!verifier || verifierConfig !== config) {
    const { auth } = config;
    verifierConfig = config;
    verifier =
      auth.issuer === "supabase"
        ? createJwtVerifier({
            hsSecret: auth.jwtSecret ? new TextEncoder().encode(auth.jwtSecret) : null,
            jwks: auth.jwksUrl ? remoteJwks(auth.jwksUrl) : null,
            issuer: auth.tokenIssuer,
          })
        : createJwtVerifier({ hsSecret: getJwtSecret(), jwks: null });
  }
  return verifier(token);
}

/** Drops the cached verifier (and its key cache), e.g. after the local secret changed. */
export function resetJwtVerifier(): void {
  verifier = null;
}
