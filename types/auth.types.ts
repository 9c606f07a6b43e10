import type { z } from "zod";
import type { ApiTokenInfoSchema, SessionUserSchema } from "@/schema/auth.schema";
import type { API_SCOPES } from "@/schema/enums.schema";
import type { AccountSummarySchema } from "@/schema/users.schema";
import type { ERole } from "./curriculum.types";

export type TApiScope = (typeof API_SCOPES)[number];

/** A write scope includes reading what it writes (a generated set is read back by its id). */
export const SCOPE_IMPLIES: Readonly<Partial<Record<TApiScope, readonly TApiScope[]>>> = {
  "resources:write": ["resources:read"],
  "generation:write": ["questions:read"],
  "papers:write": ["papers:read"],
};

/** What each scope lets an API token do (shown where tokens are made, and in the README). */
export const SCOPE_DESCRIPTIONS: Readonly<Record<TApiScope, string>> = {
  "retrieval:read": "search passages, enhance queries, list facets",
  "resources:read": "list resources, read their chunks and original files",
  "resources:write": "upload, retry and delete resources (includes resources:read)",
  "questions:read": "read saved question sets and search saved questions",
  "generation:write": "generate, edit and review questions (includes questions:read)",
  "papers:read": "read papers, export them and their answer keys, PYQ check",
  "papers:write": "create, edit, delete papers and add, swap, regenerate items (includes papers:read)",
};
/** Who is calling. `scopes` is null for browser sessions and user JWTs (all scopes of the role). */
export interface IPrincipal {
  userId: string;
  email: string;
  role: ERole;
  via: "session" | "bearer-jwt" | "api-token";
  scopes: TApiScope[] | null;
  /** The local session a JWT belongs to (logout revokes it); null for API tokens and Supabase. */
  sessionId: string | null;
}

// API shapes, inferred from the schemas the endpoints answer with (schema/auth.schema.ts,
// schema/users.schema.ts).
export type ISessionUser = z.infer<typeof SessionUserSchema>;

/** An account as an admin sees it on the Users page and in `npm run users -- list`. */
export type IAccountSummary = z.infer<typeof AccountSummarySchema>;

/** Where accounts live: local (this database, argon2 passwords) or Supabase Auth. */
export type TAccountsMode = "local" | "supabase";

/** A personal API token as listed to its owner (the secret is never stored or shown again). */
export type IApiTokenInfo = z.infer<typeof ApiTokenInfoSchema>;
