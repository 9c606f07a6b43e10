import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { getConfig } from "@/lib/config/env";
import type { ISqlExecutor } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { IApiTokenInfo, TApiScope } from "@/types/auth.types";

export const API_TOKEN_PREFIX = "pw_";

export function hashApiToken(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export interface ICreateApiTokenParams {
  userId: string;
  name: string;
  scopes: TApiScope[];
  /** Omitted or null: `PAPERWISE_TOKEN_DAYS` (90 by default; 0 there means no expiry). */
  expiresInDays?: number | null;
}

/** Creates a token; the secret is returned once and only its hash is stored. */
export async function createApiToken(
  db: ISqlExecutor,
  params: ICreateApiTokenParams,
): Promise<{ token: string; row: IApiTokenInfo }> {
  const token = `${API_TOKEN_PREFIX}${randomBytes(24).toString("base64url")}`;
  const days = params.expiresInDays ?? getConfig().tokenDays;
  const expires = days > 0 ? new Date(Date.now() + days * 86_400_000).toISOString() : null;
  const [row] = await db.query<IApiTokenInfo>(
    `insert into api_tokens (user_id, name, token_hash, prefix, scopes, expires_at)
     values ($1, $2, $3, $4, $5, $6)
     returning id, name, prefix, scopes, expires_at, revoked_at, last_used_at, created_at`,
    [params.userId, params.name, hashApiToken(token), token.slice(0, 10), params.scopes, expires],
  );
  return { token, row: row! };
}

export function listApiTokens(db: ISqlExecutor, userId: string): Promise<IApiTokenInfo[]> {
  return db.query<IApiTokenInfo>(
    `select id, name, prefix, scopes, expires_at, revoked_at, last_used_at, created_at
     from api_tokens where user_id = $1 order by created_at desc`,
    [userId],
  );
}

/** Revokes a token of `userId` (its owner, or an admin on the Users page); 404 for anyone else's. */
export async function revokeApiToken(db: ISqlExecutor, userId: string, tokenId: string): Promise<void> {
  const rows = await db.query(
    "update api_tokens set revoked_at = coalesce(revoked_at, now()) where id = $1 and user_id = $2 returning id",
    [tokenId, userId],
  );
  if (rows.length === 0) throw new AppError("not_found", "No such token");
}

export interface IResolvedApiToken {
  userId: string;
  email: string;
  role: "teacher" | "admin";
  scopes: TApiScope[];
}

/** Looks a presented secret up; unknown, revoked and expired tokens are all a 401. */
export async function resolveApiToken(db: ISqlExecutor, secret: string): Promise<IResolvedApiToken> {
  const [row] = await db.query<{
    id: string;
    user_id: string;
    email: string;
    role: "teacher" | "admin";
    scopes: TApiScope[];
    expires_at: string | Date | null;
    revoked_at: string | Date | null;
    disabled_at: string | Date | null;
  }>(
    `select t.id, t.user_id, p.email, p.role, t.scopes, t.expires_at, t.revoked_at, p.disabled_at
     from api_tokens t join profiles p on p.id = t.user_id where t.token_hash = $1`,
    [hashApiToken(secret)],
  );
  if (!row) throw new AppError("unauthorized", "Unknown API token");
  if (row.revoked_at) throw new AppError("unauthorized", "API token revoked");
  if (row.disabled_at) throw new AppError("unauthorized", "This token's account is disabled");
  if (row.expires_at && new Date(row.expires_at).getTime() <= Date.now()) {
    throw new AppError("unauthorized", "API token expired");
  }
  await db.query("update api_tokens set last_used_at = now() where id = $1", [row.id]);
  return { userId: row.user_id, email: row.email, role: row.role, scopes: row.scopes };
}
