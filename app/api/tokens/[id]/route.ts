import { revokeTokenContract } from "@/contracts/auth.contract";
import { revokeApiToken } from "@/lib/auth/api-tokens";
import { getDb } from "@/lib/db";
import { handle } from "@/lib/http/route";

export const DELETE = handle(revokeTokenContract, async ({ principal, params }) => {
  await revokeApiToken(await getDb(), principal.userId, params.id);
  return { ok: true as const, revoked: params.id };
});
