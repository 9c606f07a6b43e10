import { z } from "zod";
import {
  CreateUserRequestSchema,
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
  summary: "Change an account's role (the last admin cannot be demoted: 409)",
  tag: "users",
  auth: { kind: "account-admin", localOnly: true },
  params: uuidParams({ id: "user id" }),
  body: UpdateUserRequestSchema,
  maxBodyBytes: 4 * 1024,
  response: UserResponseSchema,
  errors: [404, 409],
});

export const resetPasswordContract = defineContract({
  name: "users.reset_password",
  method: "POST",
  path: "/api/users/{id}/password",
  summary: "Reset a local account's password to a generated one, returned once",
  tag: "users",
  auth: { kind: "account-admin", localOnly: true },
  params: uuidParams({ id: "user id" }),
  response: UserResponseSchema.extend({ password: z.string() }),
  errors: [404],
});
