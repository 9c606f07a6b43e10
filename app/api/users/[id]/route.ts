import { setAccountRole } from "@/lib/auth/accounts";
import { authorizeAccountAdmin, requireLocalAccounts } from "@/lib/auth/admin";
import { getDb } from "@/lib/db";
import { handle, parseJson } from "@/lib/http/handler";
import { assertUuid } from "@/lib/ingestion/access";
import { UpdateUserRequestSchema } from "@/schema/users.schema";

/** Changes an account's role (local accounts; the last admin cannot be demoted: 409). */
export const PATCH = handle<{ params: Promise<{ id: string }> }>(
  "users.update",
  async (request, { params }) => {
    await authorizeAccountAdmin(request);
    requireLocalAccounts();
    const { id } = await params;
    assertUuid(id, "user id");
    const body = await parseJson(request, UpdateUserRequestSchema, 4 * 1024);
    return Response.json({ ok: true, user: await setAccountRole(await getDb(), id, body.role) });
  },
);
