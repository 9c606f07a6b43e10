import { updateUserContract } from "@/contracts/users.contract";
import { setAccountRole } from "@/lib/auth/accounts";
import { getDb } from "@/lib/db";
import { handle } from "@/lib/http/route";

/** Changes an account's role (local accounts; the last admin cannot be demoted: 409). */
export const PATCH = handle(updateUserContract, async ({ params, body }) => ({
  ok: true as const,
  user: await setAccountRole(await getDb(), params.id, body.role),
}));
