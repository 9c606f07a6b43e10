import "server-only";
import type { ISqlExecutor } from "@/lib/db";
import { DEMO_ACCOUNTS } from "./accounts";
import { verifyPassword } from "./password";

/** Verdicts by stored hash: a hash never changes what it verifies, so each is checked once. */
const verdicts = new Map<string, Promise<boolean>>();

/**
 * The demo accounts a sign-in page may print: those that exist with their published password
 * still set. A school that never seeded the demo, deleted those accounts or changed their
 * passwords sees none, so the page never advertises credentials the school does not use.
 */
export async function demoAccountsInUse(
  db: ISqlExecutor,
): Promise<{ email: string; password: string; role: "admin" | "teacher" }[]> {
  const rows = await db.query<{ email: string; password_hash: string | null }>(
    "select email, password_hash from profiles where email = any($1::text[])",
    [DEMO_ACCOUNTS.map((a) => a.email)],
  );
  const out: { email: string; password: string; role: "admin" | "teacher" }[] = [];
  for (const a of DEMO_ACCOUNTS) {
    const hash = rows.find((r) => r.email === a.email)?.password_hash;
    if (!hash) continue;
    const key = `${a.email}\n${hash}`;
    let verdict = verdicts.get(key);
    if (!verdict) {
      verdict = verifyPassword(hash, a.password).catch(() => false);
      verdicts.set(key, verdict);
    }
    if (await verdict) out.push({ email: a.email, password: a.password, role: a.role });
  }
  return out;
}
