import "server-only";
import { AuthAdminApi } from "@supabase/supabase-js";
import { getConfig } from "@/lib/config/env";
import { AppError } from "@/lib/errors";
import { describeError, log } from "@/lib/log";

/**
 * What Paperwise can do to an account held by Supabase Auth, through its admin API (needs
 * `SUPABASE_URL` and `SUPABASE_SERVICE_ROLE_KEY`):
 * - disable → `updateUserById(id, { ban_duration: "876000h" })` (≈100 years): no new sign-in and
 *   no token refresh; enable → `ban_duration: "none"`;
 * - delete → `deleteUser(id)`.
 * What it cannot: end the user's current Supabase sessions by id (`auth.admin.signOut` takes the
 * user's own JWT), so an access token already issued lives until its `exp`. Paperwise refuses a
 * disabled account's tokens itself on every request, so that gap does not reach Paperwise.
 */
export interface ISupabaseAccountAdmin {
  ban(userId: string): Promise<void>;
  unban(userId: string): Promise<void>;
  remove(userId: string): Promise<void>;
}

const BAN_FOREVER = "876000h";

let fetchOverride: typeof fetch | null = null;

/** Tests: the fetch the admin client uses (a stand-in for the Supabase Auth server). */
export function setSupabaseAdminFetchForProcess(f: typeof fetch | null): void {
  fetchOverride = f;
}

/** The admin API when Supabase Auth holds the accounts and the service-role key is set; else null. */
export function supabaseAccountAdmin(): ISupabaseAccountAdmin | null {
  const config = getConfig();
  if (config.auth.issuer !== "supabase" || config.storage.kind !== "supabase") return null;
  // The admin API alone: createClient would also build a Realtime client, which needs a native
  // WebSocket that Node.js 20 does not have.
  const key = config.storage.serviceRoleKey;
  const admin = new AuthAdminApi({
    url: `${config.storage.url.replace(/\/+$/, "")}/auth/v1`,
    headers: { Authorization: `Bearer ${key}`, apikey: key },
    ...(fetchOverride ? { fetch: fetchOverride } : {}),
  });
  const check = (what: string, userId: string, error: { message: string; status?: number } | null) => {
    if (!error) return;
    // Gone already (a retried delete): nothing left to do there.
    if (what === "delete" && error.status === 404) return;
    log.error("supabase.admin_failed", { what, userId, error: describeError(error) });
    throw new AppError("unavailable", `Supabase Auth did not ${what} the account: ${error.message}`);
  };
  return {
    async ban(userId) {
      const { error } = await admin.updateUserById(userId, { ban_duration: BAN_FOREVER });
      check("disable", userId, error);
    },
    async unban(userId) {
      const { error } = await admin.updateUserById(userId, { ban_duration: "none" });
      check("enable", userId, error);
    },
    async remove(userId) {
      const { error } = await admin.deleteUser(userId);
      check("delete", userId, error);
    },
  };
}
