import { listUserTokensContract } from "@/contracts/users.contract";
import { findAccount } from "@/lib/auth/accounts";
import { listApiTokens } from "@/lib/auth/api-tokens";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http/route";

/** An account's API tokens, for the admin's Users page (the secrets were shown once, to the owner). */
export const GET = handle(listUserTokensContract, async ({ params }) => {
  const db = await getDb();
  if (!(await findAccount(db, params.id))) throw new AppError("not_found", "No such account");
  return Response.json({ ok: true, tokens: await listApiTokens(db, params.id) });
});
