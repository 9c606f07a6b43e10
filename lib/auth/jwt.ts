import "server-only";
import { errors, jwtVerify, SignJWT } from "jose";
import { AppError } from "@/lib/errors";
import type { ERole } from "@/types/curriculum.types";
import { getJwtSecret } from "./secret";

/** Supabase-shaped access-token claims: `sub`, `role: authenticated`, app role in `app_metadata`. */
export interface IAccessClaims {
  sub: string;
  email: string;
  appRole: ERole;
}

const AUDIENCE = "authenticated";
export const SESSION_TTL_SECONDS = 60 * 60 * 12;

export async function signAccessToken(
  claims: IAccessClaims,
  ttlSeconds = SESSION_TTL_SECONDS,
): Promise<string> {
  return new SignJWT({ email: claims.email, role: "authenticated", app_metadata: { role: claims.appRole } })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.sub)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(getJwtSecret());
}

/** Verifies signature, algorithm, audience and expiry; any failure is a 401 with a reason. */
export async function verifyAccessToken(token: string): Promise<IAccessClaims> {
  try {
    const { payload } = await jwtVerify(token, getJwtSecret(), { algorithms: ["HS256"], audience: AUDIENCE });
    const appMeta = payload.app_metadata as { role?: unknown } | undefined;
    const appRole = appMeta?.role === "admin" ? "admin" : "teacher";
    if (typeof payload.sub !== "string" || !/^[0-9a-f-]{36}$/i.test(payload.sub)) {
      throw new AppError("unauthorized", "Token has no valid subject");
    }
    return { sub: payload.sub, email: typeof payload.email === "string" ? payload.email : "", appRole };
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof errors.JWTExpired) throw new AppError("unauthorized", "Token expired; sign in again");
    throw new AppError("unauthorized", "Invalid token");
  }
}
