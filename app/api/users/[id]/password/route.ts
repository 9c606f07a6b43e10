import { resetPasswordContract } from "@/contracts/users.contract";
import { generatePassword, setAccountPassword } from "@/lib/auth/accounts";
import { getDb } from "@/lib/db";
import { handle } from "@/lib/http/route";

/**
 * A new generated password for a local account, returned once (the admin hands it over). Every
 * session signed in with the old one ends; the account's API tokens stay.
 */
export const POST = handle(resetPasswordContract, async ({ params }) => {
  const password = generatePassword();
  const { revokedSessions, ...user } = await setAccountPassword(await getDb(), params.id, password);
  return { ok: true as const, user, password, revoked: { sessions: revokedSessions, tokens: 0 } };
});
