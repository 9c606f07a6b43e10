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

/** A role change and/or disabling (true) or re-enabling (false) the account. */
export const UpdateUserRequestSchema = z
  .strictObject({ role: z.enum(ROLES).optional(), disabled: z.boolean().optional() })
  .refine((b) => b.role !== undefined || b.disabled !== undefined, {
    message: "Send a role, disabled, or both",
  });
export type TUpdateUserRequest = z.infer<typeof UpdateUserRequestSchema>;

export const AccountSummarySchema = z.object({
  id: z.uuid(),
  email: z.string(),
  displayName: z.string().nullable(),
  role: z.enum(ROLES),
  /** A local password is set (local accounts); Supabase Auth users have none here. */
  hasPassword: z.boolean(),
  createdAt: z.string(),
  /** When an admin disabled it (null: enabled). A disabled account cannot sign in or use tokens. */
  disabledAt: z.string().nullable(),
});

export const ListUsersResponseSchema = z.object({
  ok: z.literal(true),
  mode: z.enum(["local", "supabase"]),
  users: z.array(AccountSummarySchema),
});

export const UserResponseSchema = z.object({
  ok: z.literal(true),
  user: AccountSummarySchema.omit({ hasPassword: true, createdAt: true, disabledAt: true }).extend({
    disabledAt: z.string().nullable().optional(),
  }),
  /** Only when the server generated it: shown once, never stored in clear. */
  password: z.string().optional(),
  /** Sessions (and, on disable, API tokens) this change ended. */
  revoked: z.object({ sessions: z.number().int(), tokens: z.number().int() }).optional(),
  /** What Supabase Auth did, or could not do, for this change (Supabase mode). */
  notice: z.string().optional(),
});

export const PRIVATE_DATA_CHOICES = ["transfer", "delete"] as const;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `DELETE /api/users/{id}?privateData=transfer&to=<id>` or `?privateData=delete`. */
export const DeleteUserQuerySchema = z
  .object({
    privateData: z.enum(PRIVATE_DATA_CHOICES, {
      error: "Choose what happens to the account's private resources and papers: transfer or delete",
    }),
    to: z.string().regex(UUID_RE, "Expected a user id (UUID)").optional(),
  })
  .refine((q) => q.privateData !== "transfer" || q.to !== undefined, {
    message: "Say who receives the account's data",
    path: ["to"],
  });
export type TDeleteUserQuery = z.infer<typeof DeleteUserQuerySchema>;

const OwnedCountsSchema = z.object({
  resources: z.number().int(),
  papers: z.number().int(),
  questionSets: z.number().int(),
});

export const DeleteUserResponseSchema = z.object({
  ok: z.literal(true),
  deleted: z.uuid(),
  email: z.string(),
  privateData: z.enum(PRIVATE_DATA_CHOICES),
  /** Who received what moved: `to`, or for shared resources under `delete`, the acting admin. */
  movedTo: z.uuid().nullable(),
  /** Moved to `movedTo`: shared resources always; with transfer, private ones, papers and sets too. */
  moved: OwnedCountsSchema,
  /** Deleted with the account (delete only). */
  removed: OwnedCountsSchema,
  notice: z.string().optional(),
});
