import type { ERole } from "./curriculum.types";

export const API_SCOPES = ["retrieval:read", "generation:write", "resources:write"] as const;
export type TApiScope = (typeof API_SCOPES)[number];

/** Who is calling. `scopes` is null for browser sessions and user JWTs (all scopes of the role). */
export interface IPrincipal {
  userId: string;
  email: string;
  role: ERole;
  via: "session" | "bearer-jwt" | "api-token";
  scopes: TApiScope[] | null;
}

export interface ISessionUser {
  id: string;
  email: string;
  displayName: string | null;
  role: ERole;
}

/** An account as an admin sees it on the Users page and in `npm run users -- list`. */
export interface IAccountSummary extends ISessionUser {
  /** A local password is set (local accounts); Supabase Auth users have none here. */
  hasPassword: boolean;
  createdAt: string;
}

/** Where accounts live: local (this database, argon2 passwords) or Supabase Auth. */
export type TAccountsMode = "local" | "supabase";

/** A personal API token as listed to its owner (the secret is never stored or shown again). */
export interface IApiTokenInfo {
  id: string;
  name: string;
  prefix: string;
  scopes: TApiScope[];
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  created_at: string;
}
