import { generatePassword, setAccountPassword } from "@/lib/auth/accounts";
import { authorizeAccountAdmin, requireLocalAccounts } from "@/lib/auth/admin";
import { getDb } from "@/lib/db";
import { handle } from "@/lib/http/handler";
import { assertUuid } from "@/lib/ingestion/access";

/** A new generated password for a local account, returned once (the admin hands it over). */
export const POST = handle<{ params: Promise<{ id: string }> }>(
  "users.reset_password",
  async (request, { params }) => {
    await authorizeAccountAdmin(request);
    requireLocalAccounts();
    const { id } = await params;
    assertUuid(id, "user id");
    const password = generatePassword();
    const user = await setAccountPassword(await getDb(), id, password);
    return Response.json({ ok: true, user, password });
  },
);
