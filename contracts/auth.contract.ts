import { z } from "zod";
import {
  ApiTokenInfoSchema,
  CreateApiTokenRequestSchema,
  LoginRequestSchema,
  LoginResponseSchema,
  MeFullResponseSchema,
} from "@/schema/auth.schema";
import { defineContract, uuidParams } from "./contract";

export const loginContract = defineContract({
  name: "auth.login",
  method: "POST",
  path: "/api/auth/login",
  summary: "Sign in with a local account (embedded mode); returns a bearer token and sets a session cookie",
  tag: "auth",
  auth: { kind: "public" },
  sameOrigin: true,
  body: LoginRequestSchema,
  maxBodyBytes: 16 * 1024,
  response: LoginResponseSchema,
  // 401 for a wrong email or password, 403 for a sign-in from another site.
  errors: [401, 403, 429],
  example: { email: "teacher@paperwise.local", password: "paperwise-teacher" },
});

export const logoutContract = defineContract({
  name: "auth.logout",
  method: "POST",
  path: "/api/auth/logout",
  summary: "End the session (its JWT stops working everywhere) and clear the session cookie",
  tag: "auth",
  auth: { kind: "public" },
  response: z.object({ ok: z.literal(true) }),
  // A cross-site logout with the session cookie is refused.
  errors: [403],
});

export const meContract = defineContract({
  name: "auth.me",
  method: "GET",
  path: "/api/auth/me",
  summary: "The calling user, how they authenticated and their token scopes",
  tag: "auth",
  auth: { kind: "user", scope: null },
  response: MeFullResponseSchema,
});

export const listTokensContract = defineContract({
  name: "tokens.list",
  method: "GET",
  path: "/api/tokens",
  summary: "List your personal API tokens (secrets are never shown again)",
  tag: "auth",
  auth: { kind: "user", scope: null, sessionOnly: true },
  response: z.object({ ok: z.literal(true), tokens: z.array(ApiTokenInfoSchema) }),
});

export const createTokenContract = defineContract({
  name: "tokens.create",
  method: "POST",
  path: "/api/tokens",
  summary: "Create a personal API token (shown once)",
  tag: "auth",
  auth: { kind: "user", scope: null, sessionOnly: true },
  body: CreateApiTokenRequestSchema,
  maxBodyBytes: 16 * 1024,
  response: z.object({ ok: z.literal(true), token: z.string(), tokenInfo: ApiTokenInfoSchema }),
  status: 201,
  example: { name: "LMS plug-in", scopes: ["retrieval:read", "generation:write"], expiresInDays: 90 },
});

export const revokeTokenContract = defineContract({
  name: "tokens.revoke",
  method: "DELETE",
  path: "/api/tokens/{id}",
  summary: "Revoke a token",
  tag: "auth",
  auth: { kind: "user", scope: null, sessionOnly: true },
  params: uuidParams({ id: "token id" }),
  response: z.object({ ok: z.literal(true), revoked: z.uuid() }),
  errors: [404],
});
