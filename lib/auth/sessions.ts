import "server-only";
import type { ISqlExecutor } from "@/lib/db";
import type { ISessionUser } from "@/types/auth.types";
import type { ERole } from "@/types/curriculum.types";
import { SESSION_TTL_SECONDS, signAccessToken } from "./jwt";

/**
 * Local sessions are rows, not just signatures: every local JWT names its row (`session_id`), and
 * a token is accepted only while that row is live. Logout (or an admin) revokes the row, which ends
 * the session at once instead of when the JWT expires.
 */

export interface IIssuedSession {
  accessToken: string;
  sessionId: string;
  expiresIn: number;
}

export async function issueSession(
  db: ISqlExecutor,
  user: { id: string; email: string; role: ERole },
  ttlSeconds = SESSION_TTL_SECONDS,
): Promise<IIssuedSession> {
  // Expired rows of this user are dead weight; dropping them here keeps the table small.
  await db.query("delete from auth_sessions where user_id = $1 and expires_at < now()", [user.id]);
  const [row] = await db.query<{ id: string }>(
    `insert into auth_sessions (user_id, expires_at) values ($1, now() + make_interval(secs => $2))
     returning id`,
    [user.id, ttlSeconds],
  );
  const sessionId = row!.id;
  const accessToken = await signAccessToken(
    { sub: user.id, email: user.email, appRole: user.role, sessionId },
    ttlSeconds,
  );
  return { accessToken, sessionId, expiresIn: ttlSeconds };
}

/**
 * The account behind a live session of `userId`, or null (unknown, revoked, expired, another
 * user's, or the account is disabled).
 */
export async function findSessionAccount(
  db: ISqlExecutor,
  sessionId: string,
  userId: string,
): Promise<ISessionUser | null> {
  const [row] = await db.query<{ id: string; email: string; display_name: string | null; role: ERole }>(
    `select p.id, p.email, p.display_name, p.role
     from auth_sessions s join profiles p on p.id = s.user_id
     where s.id = $1 and s.user_id = $2 and s.revoked_at is null and s.expires_at > now()
       and p.disabled_at is null`,
    [sessionId, userId],
  );
  return row ? { id: row.id, email: row.email, displayName: row.display_name, role: row.role } : null;
}

export async function revokeSession(db: ISqlExecutor, sessionId: string): Promise<void> {
  await db.query("update auth_sessions set revoked_at = coalesce(revoked_at, now()) where id = $1", [
    sessionId,
  ]);
}

/** Ends every session of a user (password reset, role change, "sign out everywhere"). */
export async function revokeUserSessions(db: ISqlExecutor, userId: string): Promise<number> {
  const rows = await db.query(
    "update auth_sessions set revoked_at = now() where user_id = $1 and revoked_at is null returning id",
    [userId],
  );
  return rows.length;
}
