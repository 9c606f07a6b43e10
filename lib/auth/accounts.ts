import "server-only";
import { randomBytes } from "node:crypto";
import type { ISqlExecutor } from "@/lib/db";
import type { TNarrowRow } from "@/lib/db/rows.generated";
import { AppError } from "@/lib/errors";
import type { IAccountSummary, ISessionUser } from "@/types/auth.types";
import type { ERole } from "@/types/curriculum.types";
import { hashPassword, verifyPassword } from "./password";

type IProfileRow = Pick<
  TNarrowRow<"profiles", { role: ERole }>,
  "id" | "email" | "display_name" | "role" | "password_hash"
>;

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
  const [row] = await db.query<IProfileRow>(
    "select id, email, display_name, role, password_hash from profiles where email = $1",
    [email.trim().toLowerCase()],
  );
  const ok = await verifyPassword(row?.password_hash ?? fallback, password);
  if (!row?.password_hash || !ok) throw new AppError("unauthorized", "Wrong email or password");
  return toUser(row);
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
     returning id, email, display_name, role, password_hash`,
    [user.id, user.email.toLowerCase(), user.role, user.displayName ?? null],
  );
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
    `select id, email, display_name, role, password_hash, created_at from profiles
     order by role = 'admin' desc, email`,
  );
  return rows.map((r) => ({
    ...toUser(r),
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

/**
 * Changes an account's role. The last admin cannot be demoted: nobody could publish shared
 * resources or manage accounts afterwards. (The check sits in the UPDATE itself; two admins
 * demoting each other at the same instant could still both pass it.)
 */
export async function setAccountRole(db: ISqlExecutor, id: string, role: ERole): Promise<ISessionUser> {
  const [row] = await db.query<IProfileRow>(
    `update profiles set role = $2
     where id = $1
       and ($2 = 'admin' or role <> 'admin'
            or (select count(*) from profiles where role = 'admin' and id <> $1) > 0)
     returning id, email, display_name, role, password_hash`,
    [id, role],
  );
  if (row) return toUser(row);
  if (!(await findAccount(db, id))) throw new AppError("not_found", "No such account");
  throw new AppError("conflict", "This is the only admin account; make another admin first");
}

/** Sets a local account's password (embedded/local-accounts mode). */
export async function setAccountPassword(
  db: ISqlExecutor,
  id: string,
  password: string,
): Promise<ISessionUser> {
  const [row] = await db.query<IProfileRow>(
    `update profiles set password_hash = $2 where id = $1
     returning id, email, display_name, role, password_hash`,
    [id, await hashPassword(password)],
  );
  if (!row) throw new AppError("not_found", "No such account");
  return toUser(row);
}
