import { z } from "zod";
import { API_SCOPES } from "@/schema/enums.schema";
import { ROLES } from "@/types/curriculum.types";

export const LoginRequestSchema = z.strictObject({
  email: z.email().max(320),
  password: z.string().min(1).max(1024),
});
export type TLoginRequest = z.infer<typeof LoginRequestSchema>;

export const SessionUserSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  displayName: z.string().nullable(),
  role: z.enum(ROLES),
});

export const LoginResponseSchema = z.object({
  ok: z.literal(true),
  user: SessionUserSchema,
  accessToken: z.string(),
  expiresIn: z.number().int(),
});
export type TLoginResponse = z.infer<typeof LoginResponseSchema>;

export const MeResponseSchema = z.object({ ok: z.literal(true), user: SessionUserSchema });

export const CreateApiTokenRequestSchema = z.strictObject({
  // Messages a person reads: the settings form shows them, the API returns them with the field.
  name: z
    .string()
    .trim()
    .min(1, "Give the token a name, e.g. School LMS")
    .max(100, "A token name has at most 100 characters"),
  scopes: z.array(z.enum(API_SCOPES)).min(1, "Choose at least one scope").max(API_SCOPES.length),
  expiresInDays: z
    .number()
    .int("Expiry is a whole number of days")
    .min(1, "A token lasts at least 1 day")
    .max(365, "A token lasts at most 365 days")
    .nullable()
    .optional(),
});
export type TCreateApiTokenRequest = z.infer<typeof CreateApiTokenRequestSchema>;

export const MeFullResponseSchema = MeResponseSchema.extend({
  via: z.enum(["api-token", "bearer-jwt", "session"]),
  scopes: z.array(z.enum(API_SCOPES)).nullable(),
});

/** A personal API token as listed (the secret itself is shown once, at creation). */
export const ApiTokenInfoSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.enum(API_SCOPES)),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  created_at: z.string(),
});
