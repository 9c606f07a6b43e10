import "server-only";
import { getConfig } from "@/lib/config/env";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { IPrincipal, TApiScope } from "@/types/auth.types";
import type { ERole } from "@/types/curriculum.types";
import { ensureProfile, findAccount } from "./accounts";
import { API_TOKEN_PREFIX, resolveApiToken } from "./api-tokens";
import { verifyAccessToken } from "./jwt";

export const SESSION_COOKIE = "pw_session";

function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const [k, ...rest] = part.trim().split("=");
    if (k === name) return decodeURIComponent(rest.join("="));
  }
  return null;
}

/** Resolves a JWT (session cookie or bearer) to a principal whose profile still exists. */
export async function principalFromJwt(token: string, via: IPrincipal["via"]): Promise<IPrincipal> {
  const claims = await verifyAccessToken(token);
  const db = await getDb();
  const account =
    getConfig().auth.issuer === "supabase"
      ? await ensureProfile(db, { id: claims.sub, email: claims.email, role: claims.appRole })
      : await findAccount(db, claims.sub);
  if (!account) throw new AppError("unauthorized", "This account no longer exists");
  return { userId: account.id, email: account.email, role: account.role, via, scopes: null };
}

/**
 * Who is calling: `Authorization: Bearer <API token | JWT>` first, then the session cookie.
 * Anything else is a 401.
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
      };
    }
    return principalFromJwt(token, "bearer-jwt");
  }
  const cookie = readCookie(request.headers.get("cookie"), SESSION_COOKIE);
  if (cookie) return principalFromJwt(cookie, "session");
  throw new AppError("unauthorized", "Sign in, or send 'Authorization: Bearer <token>'");
}

export function requireRole(principal: IPrincipal, roles: readonly ERole[]): void {
  if (!roles.includes(principal.role)) {
    throw new AppError("forbidden", `This needs the ${roles.join(" or ")} role`);
  }
}

/** API tokens carry scopes; sessions and user JWTs may do whatever their role allows. */
export function requireScope(principal: IPrincipal, scope: TApiScope): void {
  if (principal.scopes && !principal.scopes.includes(scope)) {
    throw new AppError("forbidden", `This token lacks the '${scope}' scope`);
  }
}

/** authenticate + role + scope in the order every handler needs. */
export async function authorize(
  request: Request,
  opts: { roles?: readonly ERole[]; scope?: TApiScope } = {},
): Promise<IPrincipal> {
  const principal = await authenticate(request);
  if (opts.roles) requireRole(principal, opts.roles);
  if (opts.scope) requireScope(principal, opts.scope);
  return principal;
}
