import "server-only";
import { getConfig } from "@/lib/config/env";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { assertSameOrigin, isSafeMethod } from "@/lib/http/origin";
import { type IPrincipal, SCOPE_IMPLIES, type TApiScope } from "@/types/auth.types";
import type { ERole } from "@/types/curriculum.types";
import { ensureProfile } from "./accounts";
import { API_TOKEN_PREFIX, resolveApiToken } from "./api-tokens";
import { verifyAccessToken } from "./jwt";
import { findSessionAccount } from "./sessions";

export const SESSION_COOKIE = "pw_session";

/** The session cookie's Set-Cookie value (an empty value with max-age 0 clears it). */
export function sessionCookie(value: string, maxAgeSec: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSec}${secure ? "; Secure" : ""}`;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Our cookie's value; a value that is not valid percent-encoding is a bad credential, not a crash. */
export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const [k, ...rest] = part.trim().split("=");
    if (k !== name) continue;
    try {
      return decodeURIComponent(rest.join("="));
    } catch {
      throw new AppError("unauthorized", "Malformed session cookie; sign in again");
    }
  }
  return null;
}

/**
 * Resolves a JWT (session cookie or bearer) to a principal. A local token must name a live
 * session (not revoked by logout, not expired); a Supabase token's session is Supabase's to end.
 */
export async function principalFromJwt(token: string, via: IPrincipal["via"]): Promise<IPrincipal> {
  const claims = await verifyAccessToken(token);
  const db = await getDb();
  if (getConfig().auth.issuer === "supabase") {
    const account = await ensureProfile(db, {
      id: claims.sub,
      email: claims.email,
      role: claims.appRole,
      displayName: claims.displayName,
    });
    return {
      userId: account.id,
      email: account.email,
      role: account.role,
      via,
      scopes: null,
      sessionId: null,
    };
  }
  if (!claims.sessionId || !UUID_RE.test(claims.sessionId)) {
    throw new AppError("unauthorized", "This token belongs to no session; sign in again");
  }
  const account = await findSessionAccount(db, claims.sessionId, claims.sub);
  if (!account) throw new AppError("unauthorized", "This session has ended; sign in again");
  return {
    userId: account.id,
    email: account.email,
    role: account.role,
    via,
    scopes: null,
    sessionId: claims.sessionId,
  };
}

/**
 * Who is calling: `Authorization: Bearer <API token | JWT>` first, then the session cookie.
 * Anything else is a 401. A cookie is sent by the browser on its own, so a state change that
 * rides on one must come from our own pages (Origin / Sec-Fetch-Site); a bearer header cannot be
 * added by another site and needs no such check.
 */
export async function authenticate(request: Request): Promise<IPrincipal> {
  const header = request.headers.get("authorization");
  if (header) {
    const match = /^Bearer\s+(\S{10,4096})\s*$/i.exec(header);
    if (!match) throw new AppError("unauthorized", "Authorization header must be 'Bearer <token>'");
    const token = match[1]!;
    if (token.startsWith(API_TOKEN_PREFIX)) {
      const resolved = await resolveApiToken(await getDb(), token);
      return {
        userId: resolved.userId,
        email: resolved.email,
        role: resolved.role,
        via: "api-token",
        scopes: resolved.scopes,
        sessionId: null,
      };
    }
    return principalFromJwt(token, "bearer-jwt");
  }
  const cookie = readCookie(request.headers.get("cookie"), SESSION_COOKIE);
  if (cookie) {
    if (!isSafeMethod(request.method)) assertSameOrigin(request);
    return principalFromJwt(cookie, "session");
  }
  throw new AppError("unauthorized", "Sign in, or send 'Authorization: Bearer <token>'");
}

export function requireRole(principal: IPrincipal, roles: readonly ERole[]): void {
  if (!roles.includes(principal.role)) {
    throw new AppError("forbidden", `This needs the ${roles.join(" or ")} role`);
  }
}

/** Whether granted scopes cover `needed`, directly or through a write scope that includes it. */
export function scopesAllow(granted: readonly TApiScope[], needed: TApiScope): boolean {
  return granted.some((s) => s === needed || (SCOPE_IMPLIES[s]?.includes(needed) ?? false));
}

/** API tokens carry scopes; sessions and user JWTs may do whatever their role allows. */
export function requireScope(principal: IPrincipal, scope: TApiScope): void {
  if (principal.scopes && !scopesAllow(principal.scopes, scope)) {
    throw new AppError("forbidden", `This token lacks the '${scope}' scope`);
  }
}

export interface IAuthorizeOptions {
  /**
   * The API-token scope this route needs — every route names one, reads included. `null` only
   * where a token's scopes are irrelevant (its own identity) or tokens are refused outright.
   */
  scope: TApiScope | null;
  roles?: readonly ERole[];
}

/** authenticate + role + scope in the order every handler needs. */
export async function authorize(request: Request, opts: IAuthorizeOptions): Promise<IPrincipal> {
  const principal = await authenticate(request);
  if (opts.roles) requireRole(principal, opts.roles);
  if (opts.scope) requireScope(principal, opts.scope);
  return principal;
}
