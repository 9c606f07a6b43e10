import { createAccount, generatePassword, listAccounts } from "@/lib/auth/accounts";
import { accountsMode, authorizeAccountAdmin, requireLocalAccounts } from "@/lib/auth/admin";
import { getDb } from "@/lib/db";
import { handle, parseJson } from "@/lib/http/handler";
import { CreateUserRequestSchema } from "@/schema/users.schema";

/** Every account, for admins (read-only in Supabase mode, where accounts live in Supabase Auth). */
export const GET = handle("users.list", async (request) => {
  await authorizeAccountAdmin(request);
  return Response.json({ ok: true, mode: accountsMode(), users: await listAccounts(await getDb()) });
});

/** Adds a teacher or admin (local accounts); a generated password is returned once. */
export const POST = handle("users.create", async (request) => {
  await authorizeAccountAdmin(request);
  requireLocalAccounts();
  const body = await parseJson(request, CreateUserRequestSchema, 16 * 1024);
  const password = body.password ?? generatePassword();
  const user = await createAccount(await getDb(), {
    email: body.email,
    role: body.role,
    displayName: body.displayName,
    password,
  });
  return Response.json({ ok: true, user, ...(body.password ? {} : { password }) }, { status: 201 });
});
