import { deleteUserContract, updateUserContract } from "@/contracts/users.contract";
import { disableAccount, enableAccount, findManagedAccount, setAccountRole } from "@/lib/auth/accounts";
import { accountsMode } from "@/lib/auth/admin";
import { deleteAccount } from "@/lib/auth/lifecycle";
import { supabaseAccountAdmin } from "@/lib/auth/supabase-admin";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http/route";
import { getStorage } from "@/lib/storage";

const NO_SERVICE_KEY =
  "Supabase Auth still signs this account in: set SUPABASE_SERVICE_ROLE_KEY so Paperwise can ban it there, or ban the user in the Supabase dashboard";

/**
 * Role change (local accounts) and disable / re-enable (both modes). Every change that matters
 * ends the account's sessions; disabling ends its API tokens too.
 */
export const PATCH = handle(updateUserContract, async ({ principal, params, body }) => {
  const db = await getDb();
  const supabase = accountsMode() === "supabase";
  if (supabase && body.role !== undefined) {
    throw new AppError(
      "bad_request",
      "Accounts live in Supabase Auth: set app_metadata.role in the Supabase dashboard",
    );
  }
  let user = await findManagedAccount(db, params.id);
  if (!user) throw new AppError("not_found", "No such account");
  const revoked = { sessions: 0, tokens: 0 };
  const notices: string[] = [];
  if (body.role !== undefined) {
    const changed = await setAccountRole(db, params.id, body.role);
    revoked.sessions += changed.revokedSessions;
    user = changed;
  }
  if (body.disabled === true) {
    const disabled = await disableAccount(db, principal.userId, params.id);
    revoked.sessions += disabled.revokedSessions;
    revoked.tokens += disabled.revokedTokens;
    user = disabled;
    if (supabase) {
      const admin = supabaseAccountAdmin();
      if (admin) {
        await admin.ban(params.id);
        notices.push(
          "Banned in Supabase Auth (no new sign-in or refresh); Supabase cannot end its current sessions by id, so Paperwise refuses their tokens itself",
        );
      } else notices.push(NO_SERVICE_KEY);
    }
  } else if (body.disabled === false) {
    user = await enableAccount(db, params.id);
    if (supabase) {
      const admin = supabaseAccountAdmin();
      if (admin) {
        await admin.unban(params.id);
        notices.push("Unbanned in Supabase Auth");
      } else notices.push("Unban the user in the Supabase dashboard if you banned them there");
    }
  }
  return {
    ok: true as const,
    user: {
      id: user.id,
      email: user.email,
      displayName: user.displayName,
      role: user.role,
      disabledAt: user.disabledAt,
    },
    revoked,
    ...(notices.length ? { notice: notices.join(". ") } : {}),
  };
});

/**
 * Deletes an account; the admin chooses what happens to its private data (transfer or delete).
 * With Supabase Auth the user is deleted there first (needs the service-role key), so they cannot
 * sign in again and come back as a new, empty account.
 */
export const DELETE = handle(deleteUserContract, async ({ principal, params, query }) => {
  const supabase = accountsMode() === "supabase";
  const admin = supabase ? supabaseAccountAdmin() : null;
  if (supabase && !admin) {
    throw new AppError(
      "bad_request",
      "Deleting a Supabase Auth account needs SUPABASE_SERVICE_ROLE_KEY; disable it here and delete the user in the Supabase dashboard",
    );
  }
  const result = await deleteAccount(await getDb(), getStorage, {
    actorId: principal.userId,
    id: params.id,
    privateData: query.privateData,
    to: query.to,
    beforeChanges: admin ? () => admin.remove(params.id) : undefined,
  });
  return {
    ok: true as const,
    ...result,
    ...(admin ? { notice: "Deleted in Supabase Auth as well" } : {}),
  };
});
