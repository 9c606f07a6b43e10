import { z } from "zod";
import { ApiTokenInfoSchema } from "@/schema/auth.schema";
import {
  CreateUserRequestSchema,
  DeleteUserQuerySchema,
  DeleteUserResponseSchema,
  ListUsersResponseSchema,
  UpdateUserRequestSchema,
  UserResponseSchema,
} from "@/schema/users.schema";
import { defineContract, uuidParams } from "./contract";

export const listUsersContract = defineContract({
  name: "users.list",
  method: "GET",
  path: "/api/users",
  summary: "Every account (admins; in Supabase mode accounts live in Supabase Auth and this is read-only)",
  tag: "users",
  auth: { kind: "account-admin" },
  response: ListUsersResponseSchema,
});

export const createUserContract = defineContract({
  name: "users.create",
  method: "POST",
  path: "/api/users",
  summary: "Add a teacher or admin (local accounts; without a password one is generated and returned once)",
  tag: "users",
  auth: { kind: "account-admin", localOnly: true },
  body: CreateUserRequestSchema,
  maxBodyBytes: 16 * 1024,
  response: UserResponseSchema,
  status: 201,
  errors: [409],
  example: { email: "new.teacher@school.example", role: "teacher" },
});

export const updateUserContract = defineContract({
  name: "users.update",
  method: "PATCH",
  path: "/api/users/{id}",
  summary:
    "Change an account's role (local accounts; ends its sessions) and/or disable it (ends its sessions and API tokens; refused from then on) or re-enable it. Nobody disables themselves or demotes/disables the last enabled admin: 409",
  tag: "users",
  auth: { kind: "account-admin" },
  params: uuidParams({ id: "user id" }),
  body: UpdateUserRequestSchema,
  maxBodyBytes: 4 * 1024,
  response: UserResponseSchema,
  errors: [404, 409, 503],
  example: { disabled: true },
});

export const deleteUserContract = defineContract({
  name: "users.delete",
  method: "DELETE",
  path: "/api/users/{id}",
  summary:
    "Delete an account. privateData=transfer&to=<id>: its resources, papers and question sets go to that account; privateData=delete: its private resources, papers and sets are deleted (its shared resources go to you). Not yourself, not the last enabled admin: 409",
  tag: "users",
  auth: { kind: "account-admin" },
  params: uuidParams({ id: "user id" }),
  query: DeleteUserQuerySchema,
  response: DeleteUserResponseSchema,
  errors: [404, 409, 503],
});

export const listUserTokensContract = defineContract({
  name: "users.tokens",
  method: "GET",
  path: "/api/users/{id}/tokens",
  summary: "An account's API tokens (names, scopes, expiry, last use; never the secrets)",
  tag: "users",
  auth: { kind: "account-admin" },
  params: uuidParams({ id: "user id" }),
  response: z.object({ ok: z.literal(true), tokens: z.array(ApiTokenInfoSchema) }),
  errors: [404],
});

export const revokeUserTokenContract = defineContract({
  name: "users.revoke_token",
  method: "DELETE",
  path: "/api/users/{id}/tokens/{tokenId}",
  summary: "Revoke one of an account's API tokens",
  tag: "users",
  auth: { kind: "account-admin" },
  params: uuidParams({ id: "user id", tokenId: "token id" }),
  response: z.object({ ok: z.literal(true), revoked: z.uuid() }),
  errors: [404],
});

export const resetPasswordContract = defineContract({
  name: "users.reset_password",
  method: "POST",
  path: "/api/users/{id}/password",
  summary: "Reset a local account's password to a generated one, returned once; ends the account's sessions",
  tag: "users",
  auth: { kind: "account-admin", localOnly: true },
  params: uuidParams({ id: "user id" }),
  response: UserResponseSchema.extend({ password: z.string() }),
  errors: [404],
});
