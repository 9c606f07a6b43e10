import "server-only";
import { randomBytes } from "node:crypto";
import type { ISqlExecutor } from "@/lib/db";
import type { TNarrowRow } from "@/lib/db/rows.generated";
import { AppError } from "@/lib/errors";
import type { IAccountSummary, ISessionUser } from "@/types/auth.types";
import type { ERole } from "@/types/curriculum.types";
import { hashPassword, verifyPassword } from "./password";
import { revokeUserSessions } from "./sessions";

type IProfileRow = Pick<
  TNarrowRow<"profiles", { role: ERole }>,
  "id" | "email" | "display_name" | "role" | "password_hash"
> & { disabled_at?: Date | string | null };

const PROFILE_COLUMNS = "id, email, display_name, role, password_hash, disabled_at";

function toUser(row: IProfileRow): ISessionUser {
  return { id: row.id, email: row.email, displayName: row.display_name, role: row.role };
}

export interface ICreateAccountParams {
  email: string;
  password: string;
  role: ERole;
  displayName?: string;
}

export async function createAccount(db: ISqlExecutor, params: ICreateAccountParams): Promise<ISessionUser> {
  const email = params.email.trim().toLowerCase();
  const existing = await db.query("select 1 from profiles where email = $1", [email]);
  if (existing.length > 0) throw new AppError("conflict", `An account for ${email} already exists`);
  const [row] = await db.query<IProfileRow>(
    `insert into profiles (email, display_name, role, password_hash) values ($1, $2, $3, $4)
     returning id, email, display_name, role, password_hash`,
    [email, params.displayName ?? null, params.role, await hashPassword(params.password)],
  );
  return toUser(row!);
}

let decoyHash: Promise<string> | null = null;

/** A hash with the same parameters as real ones, of a password nobody knows. */
function decoy(): Promise<string> {
  decoyHash ??= hashPassword(randomBytes(32).toString("base64url"));
  return decoyHash;
}

/**
 * Checks a local password. Unknown email and wrong password get the same message and cost the
 * same: without an account (or a password) the password is checked against a decoy hash, so the
 * answer's timing does not tell which emails have accounts.
 */
export async function authenticatePassword(
  db: ISqlExecutor,
  email: string,
  password: string,
): Promise<ISessionUser> {
  // Awaited on both paths, so the one-off cost of making the decoy does not mark the first unknown email.
  const fallback = await decoy();
  const [row] = await db.query<IProfileRow>(`select ${PROFILE_COLUMNS} from profiles where email = $1`, [
    email.trim().toLowerCase(),
  ]);
  const ok = await verifyPassword(row?.password_hash ?? fallback, password);
  if (!row?.password_hash || !ok) throw new AppError("unauthorized", "Wrong email or password");
  // Said only to someone who knows the password: it tells them whom to ask.
  if (row.disabled_at) throw new AppError("forbidden", "This account is disabled; ask an admin");
  return toUser(row);
}

/** An account as account management answers it: who, and whether it is disabled. */
export type IManagedAccount = ISessionUser & { disabledAt: string | null };

function toManaged(row: IProfileRow): IManagedAccount {
  return { ...toUser(row), disabledAt: row.disabled_at ? new Date(row.disabled_at).toISOString() : null };
}

export async function findManagedAccount(db: ISqlExecutor, id: string): Promise<IManagedAccount | null> {
  const [row] = await db.query<IProfileRow>(`select ${PROFILE_COLUMNS} from profiles where id = $1`, [id]);
  return row ? toManaged(row) : null;
}

export async function findAccount(db: ISqlExecutor, id: string): Promise<ISessionUser | null> {
  const [row] = await db.query<IProfileRow>(
    "select id, email, display_name, role, password_hash from profiles where id = $1",
    [id],
  );
  return row ? toUser(row) : null;
}

/**
 * Users signed in through Supabase Auth have no profile row until they first call us; the
 * role comes from the JWT's app_metadata (set by an admin in Supabase).
 */
export async function ensureProfile(
  db: ISqlExecutor,
  user: { id: string; email: string; role: ERole; displayName?: string },
): Promise<ISessionUser> {
  const [row] = await db.query<IProfileRow>(
    `insert into profiles (id, email, role, display_name) values ($1, $2, $3, $4)
     on conflict (id) do update set role = excluded.role,
       display_name = coalesce(profiles.display_name, excluded.display_name)
     returning ${PROFILE_COLUMNS}`,
    [user.id, user.email.toLowerCase(), user.role, user.displayName ?? null],
  );
  // Supabase keeps signing this user's tokens until they expire; a disabled profile refuses them here.
  if (row!.disabled_at) throw new AppError("unauthorized", "This account is disabled; ask an admin");
  return toUser(row!);
}

/** Embedded-mode demo accounts; documented in the README, created only on an empty database. */
export const DEMO_ACCOUNTS = [
  { email: "admin@paperwise.local", password: "paperwise-admin", role: "admin", displayName: "Demo Admin" },
  {
    email: "teacher@paperwise.local",
    password: "paperwise-teacher",
    role: "teacher",
    displayName: "Demo Teacher",
  },
] as const satisfies readonly ICreateAccountParams[];

export async function seedDemoAccounts(db: ISqlExecutor): Promise<void> {
  const [{ n } = { n: 0 }] = await db.query<{ n: number }>("select count(*)::int as n from profiles");
  if (n > 0) return;
  for (const account of DEMO_ACCOUNTS) await createAccount(db, account);
}

/** A password for a new or reset account: 16 URL-safe characters (96 random bits). */
export function generatePassword(): string {
  return randomBytes(12).toString("base64url");
}

/** Every account, admins first, for the users CLI and the admin's Users page. */
export async function listAccounts(db: ISqlExecutor): Promise<IAccountSummary[]> {
  const rows = await db.query<IProfileRow & { created_at: Date | string }>(
    `select ${PROFILE_COLUMNS}, created_at from profiles
     order by role = 'admin' desc, email`,
  );
  return rows.map((r) => ({
    ...toManaged(r),
    hasPassword: r.password_hash !== null,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}

export async function findAccountByEmail(db: ISqlExecutor, email: string): Promise<ISessionUser | null> {
  const [row] = await db.query<IProfileRow>(
    "select id, email, display_name, role, password_hash from profiles where email = $1",
    [email.trim().toLowerCase()],
  );
  return row ? toUser(row) : null;
}

/** The other admins who can still sign in: the last of them must stay an enabled admin. */
const OTHER_ENABLED_ADMINS =
  "(select count(*) from profiles where role = 'admin' and disabled_at is null and id <> $1) > 0";

/**
 * Changes an account's role. The last enabled admin cannot be demoted: nobody could publish shared
 * resources or manage accounts afterwards. (The check sits in the UPDATE itself; two admins
 * demoting each other at the same instant could still both pass it.) A real change ends the
 * account's sessions, so every browser signs in again under the new role (API tokens follow the
 * role on every request already).
 */
export async function setAccountRole(
  db: ISqlExecutor,
  id: string,
  role: ERole,
): Promise<IManagedAccount & { revokedSessions: number }> {
  const before = await findManagedAccount(db, id);
  if (!before) throw new AppError("not_found", "No such account");
  if (before.role === role) return { ...before, revokedSessions: 0 };
  const [row] = await db.query<IProfileRow>(
    `update profiles set role = $2
     where id = $1 and ($2 = 'admin' or role <> 'admin' or ${OTHER_ENABLED_ADMINS})
     returning ${PROFILE_COLUMNS}`,
    [id, role],
  );
  if (!row) throw new AppError("conflict", "This is the only admin account; make another admin first");
  return { ...toManaged(row), revokedSessions: await revokeUserSessions(db, id) };
}

/**
 * Sets a local account's password (embedded/local-accounts mode) and ends its sessions: whoever
 * was signed in with the old one is signed out. API tokens stay (integrations are not a password).
 */
export async function setAccountPassword(
  db: ISqlExecutor,
  id: string,
  password: string,
): Promise<IManagedAccount & { revokedSessions: number }> {
  const [row] = await db.query<IProfileRow>(
    `update profiles set password_hash = $2 where id = $1 returning ${PROFILE_COLUMNS}`,
    [id, await hashPassword(password)],
  );
  if (!row) throw new AppError("not_found", "No such account");
  return { ...toManaged(row), revokedSessions: await revokeUserSessions(db, id) };
}

/**
 * Disables an account: from this request on, its sessions and API tokens are refused and its
 * password does not sign in; its sessions and tokens are also revoked, so re-enabling it does not
 * bring them back. Nobody disables themselves or the last enabled admin (409).
 */
export async function disableAccount(
  db: ISqlExecutor,
  actorId: string,
  id: string,
): Promise<IManagedAccount & { revokedSessions: number; revokedTokens: number }> {
  if (id === actorId) throw new AppError("conflict", "You cannot disable your own account");
  const before = await findManagedAccount(db, id);
  if (!before) throw new AppError("not_found", "No such account");
  const [row] = await db.query<IProfileRow>(
    `update profiles set disabled_at = coalesce(disabled_at, now())
     where id = $1 and (role <> 'admin' or disabled_at is not null or ${OTHER_ENABLED_ADMINS})
     returning ${PROFILE_COLUMNS}`,
    [id],
  );
  if (!row)
    throw new AppError("conflict", "This is the only enabled admin account; make another admin first");
  const revokedSessions = await revokeUserSessions(db, id);
  const tokens = await db.query(
    "update api_tokens set revoked_at = now() where user_id = $1 and revoked_at is null returning id",
    [id],
  );
  return { ...toManaged(row), revokedSessions, revokedTokens: tokens.length };
}

/** Re-enables an account; its old sessions and tokens stay revoked. */
export async function enableAccount(db: ISqlExecutor, id: string): Promise<IManagedAccount> {
  const [row] = await db.query<IProfileRow>(
    `update profiles set disabled_at = null where id = $1 returning ${PROFILE_COLUMNS}`,
    [id],
  );
  if (!row) throw new AppError("not_found", "No such account");
  return toManaged(row);
}
