import { revokeApiToken } from "@/lib/auth/api-tokens";
import { authorize } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http/handler";
import { assertUuid } from "@/lib/ingestion/access";

export const DELETE = handle<{ params: Promise<{ id: string }> }>(
  "tokens.revoke",
  async (request, { params }) => {
    const principal = await authorize(request, { scope: null });
    if (principal.via === "api-token") throw new AppError("forbidden", "API tokens cannot manage tokens");
    const { id } = await params;
    assertUuid(id, "token id");
    await revokeApiToken(await getDb(), principal.userId, id);
    return Response.json({ ok: true, revoked: id });
  },
);
