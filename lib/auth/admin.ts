import "server-only";
import { getConfig } from "@/lib/config/env";
import { AppError } from "@/lib/errors";
import type { IPrincipal, TAccountsMode } from "@/types/auth.types";
import { authorize } from "./principal";

/** Local accounts (this database) unless Supabase Auth verifies the sessions. */
export function accountsMode(): TAccountsMode {
  return getConfig().auth.issuer === "supabase" ? "supabase" : "local";
}

/**
 * Account management: a signed-in admin, in person. API tokens never manage accounts, whatever
 * their owner's role (a leaked integration token must not mint admins).
 */
export async function authorizeAccountAdmin(request: Request): Promise<IPrincipal> {
  // No scope: API tokens are refused below, whatever they carry.
  const principal = await authorize(request, { roles: ["admin"], scope: null });
  if (principal.via === "api-token") throw new AppError("forbidden", "API tokens cannot manage accounts");
  return principal;
}

/** Changing accounts here only makes sense for local accounts. */
export function requireLocalAccounts(): void {
  if (accountsMode() === "supabase") {
    throw new AppError(
      "bad_request",
      "Accounts live in Supabase Auth: add users and set app_metadata.role in the Supabase dashboard",
    );
  }
}
