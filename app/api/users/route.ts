import { createUserContract, listUsersContract } from "@/contracts/users.contract";
import { createAccount, generatePassword, listAccounts } from "@/lib/auth/accounts";
import { accountsMode } from "@/lib/auth/admin";
import { getDb } from "@/lib/db";
import { handle } from "@/lib/http/route";

/** Every account, for admins (read-only in Supabase mode, where accounts live in Supabase Auth). */
export const GET = handle(listUsersContract, async () =>
  Response.json({ ok: true, mode: accountsMode(), users: await listAccounts(await getDb()) }),
);

/** Adds a teacher or admin (local accounts); a generated password is returned once. */
export const POST = handle(createUserContract, async ({ body }) => {
  const password = body.password ?? generatePassword();
  const user = await createAccount(await getDb(), {
    email: body.email,
    role: body.role,
    displayName: body.displayName,
    password,
  });
  return Response.json({ ok: true, user, ...(body.password ? {} : { password }) }, { status: 201 });
});
