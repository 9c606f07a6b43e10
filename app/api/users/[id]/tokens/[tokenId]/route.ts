import { revokeUserTokenContract } from "@/contracts/users.contract";
import { revokeApiToken } from "@/lib/auth/api-tokens";
import { getDb } from "@/lib/db";
import { handle } from "@/lib/http/route";

/** An admin revokes one of an account's API tokens (404 unless the token is that account's). */
export const DELETE = handle(revokeUserTokenContract, async ({ params }) => {
  await revokeApiToken(await getDb(), params.id, params.tokenId);
  return { ok: true as const, revoked: params.tokenId };
});
