import { z } from "zod";
import { ROLES } from "@/types/curriculum.types";

/** Account management (admins, local accounts): the Users page, its API and the users CLI. */
export const AccountEmailSchema = z
  .email()
  .max(320)
  .transform((e) => e.trim().toLowerCase());
export const AccountPasswordSchema = z
  .string()
  .min(8, "Use at least 8 characters")
  .max(256, "Use at most 256 characters");

export const CreateUserRequestSchema = z.strictObject({
  email: AccountEmailSchema,
  role: z.enum(ROLES),
  displayName: z.string().trim().min(1).max(200).optional(),
  /** Omitted: the server generates one and returns it once. */
  password: AccountPasswordSchema.optional(),
});
export type TCreateUserRequest = z.input<typeof CreateUserRequestSchema>;

export const UpdateUserRequestSchema = z.strictObject({ role: z.enum(ROLES) });
export type TUpdateUserRequest = z.infer<typeof UpdateUserRequestSchema>;

export const AccountSummarySchema = z.object({
  id: z.uuid(),
  email: z.string(),
  displayName: z.string().nullable(),
  role: z.enum(ROLES),
  /** A local password is set (local accounts); Supabase Auth users have none here. */
  hasPassword: z.boolean(),
  createdAt: z.string(),
});

export const ListUsersResponseSchema = z.object({
  ok: z.literal(true),
  mode: z.enum(["local", "supabase"]),
  users: z.array(AccountSummarySchema),
});

export const UserResponseSchema = z.object({
  ok: z.literal(true),
  user: AccountSummarySchema.omit({ hasPassword: true, createdAt: true }),
  /** Only when the server generated it: shown once, never stored in clear. */
  password: z.string().optional(),
});
