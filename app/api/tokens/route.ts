import { createTokenContract, listTokensContract } from "@/contracts/auth.contract";
import { createApiToken, listApiTokens } from "@/lib/auth/api-tokens";
import { getDb } from "@/lib/db";
import { handle } from "@/lib/http/route";

/** Personal API tokens. Only a signed-in user (not another token) may mint or list them. */
export const GET = handle(listTokensContract, async ({ principal }) =>
  Response.json({ ok: true, tokens: await listApiTokens(await getDb(), principal.userId) }),
);

export const POST = handle(createTokenContract, async ({ principal, body }) => {
  const { token, row } = await createApiToken(await getDb(), {
    userId: principal.userId,
    name: body.name,
    scopes: [...new Set(body.scopes)],
    expiresInDays: body.expiresInDays ?? null,
  });
  return Response.json({ ok: true, token, tokenInfo: row }, { status: 201 });
});
