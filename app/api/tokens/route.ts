import { createApiToken, listApiTokens } from "@/lib/auth/api-tokens";
import { authorize } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { handle, parseJson } from "@/lib/http/handler";
import { CreateApiTokenRequestSchema } from "@/schema/auth.schema";

/** Personal API tokens. Only a signed-in user (not another token) may mint or list them. */
export const GET = handle("tokens.list", async (request) => {
  const principal = await authorize(request, { scope: null });
  if (principal.via === "api-token") throw new AppError("forbidden", "API tokens cannot manage tokens");
  return Response.json({ ok: true, tokens: await listApiTokens(await getDb(), principal.userId) });
});

export const POST = handle("tokens.create", async (request) => {
  const principal = await authorize(request, { scope: null });
  if (principal.via === "api-token") throw new AppError("forbidden", "API tokens cannot manage tokens");
  const body = await parseJson(request, CreateApiTokenRequestSchema, 16 * 1024);
  const { token, row } = await createApiToken(await getDb(), {
    userId: principal.userId,
    name: body.name,
    scopes: [...new Set(body.scopes)],
    expiresInDays: body.expiresInDays ?? null,
  });
  return Response.json({ ok: true, token, tokenInfo: row }, { status: 201 });
});
