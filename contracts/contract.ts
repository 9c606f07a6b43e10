import { z } from "zod";
import type { TApiScope } from "@/types/auth.types";
import type { ERole } from "@/types/curriculum.types";

/**
 * One endpoint, written once: method and path, the schemas of its params, query, body and success
 * response, who may call it and which rate-limit bucket it spends. `handle()` parses and authorises
 * from it (lib/http/route.ts), the OpenAPI document is generated from the list of them
 * (lib/openapi/document.ts), and the browser calls it through `apiFetch(contract, input)`
 * (services/http.ts). Client-safe: no server imports.
 */
export type THttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type TContractAuth =
  /** Anyone; the handler may still read credentials (logout). */
  | { kind: "public" }
  /**
   * A signed-in user or API token. `scope: null` needs no token scope; `sessionOnly` refuses API
   * tokens (token management). `roles` defaults to every role.
   */
  | { kind: "user"; scope: TApiScope | null; roles?: readonly ERole[]; sessionOnly?: boolean }
  /** A signed-in admin in person (never an API token); `localOnly` refuses in Supabase mode. */
  | { kind: "account-admin"; localOnly?: boolean };

/** What a success answers: a JSON schema, an AI SDK UI message stream, or a file. */
export type TContractResponse = z.ZodType | "stream" | "binary";

/** The types an original upload is stored and served as (lib/ingestion/sniff.ts, extract.ts). */
export const ORIGINAL_FILE_TYPES = [
  "application/pdf",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "text/markdown",
  "text/plain",
  // A chapter split out of an uploaded book: its extracted pages as JSON.
  "application/vnd.paperwise.pages+json",
] as const;

export interface IContract {
  /** Log and error context, e.g. "papers.get". */
  name: string;
  method: THttpMethod;
  /** OpenAPI style: `/api/papers/{id}`. */
  path: string;
  summary: string;
  /** Longer prose for the OpenAPI operation (rules, limits, what the answer holds). */
  description?: string;
  tag: string;
  /** Path parameters; build with `uuidParams` so a bad id answers "Invalid paper id". */
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** JSON (parsed by handle) or multipart (documented here, read by the handler). */
  bodyKind?: "json" | "multipart";
  /** Cap on a JSON body in bytes (default 256 KiB). */
  maxBodyBytes?: number;
  response: TContractResponse;
  /** The content types a `binary` response is sent as (without parameters such as charset). */
  fileTypes?: readonly string[];
  /** Status of a success (default 200). */
  status?: number;
  /** Other success statuses the endpoint may answer with the same schema. */
  alsoStatus?: readonly number[];
  auth: TContractAuth;
  /** Per-user budget spent before the handler runs (429 with Retry-After when exhausted). */
  rateLimit?: "retrieval" | "generation";
  /** Refuse cross-site requests before reading the body (login). */
  sameOrigin?: boolean;
  /** Error statuses besides 400/401/403 the endpoint answers, for the document. */
  errors?: readonly number[];
  example?: unknown;
}

/** Keeps the literal types of a contract (for typed handlers and `apiFetch`). */
export function defineContract<const C extends IContract>(contract: C): C {
  return contract;
}

/**
 * Hex 8-4-4-4-12, as `assertUuid` accepted: ids are not checked for an RFC version. Written with
 * both cases instead of the `i` flag: the OpenAPI document copies the regex's source into a JSON
 * Schema `pattern`, which has no flags, so `/…/i` became a pattern no real id matched.
 */
const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** Path parameters that are UUIDs, each with the name a 400 uses ("Invalid paper id"). */
export function uuidParams<const K extends string>(labels: Record<K, string>) {
  const shape = Object.fromEntries(
    Object.entries(labels).map(([key, label]) => [
      key,
      z
        .string()
        .regex(UUID_PATTERN)
        .meta({ format: "uuid", description: String(label) }),
    ]),
  ) as Record<K, z.ZodString>;
  return z.object(shape);
}

/** Path parameters passed through as given (the handler's lookup validates them). */
export function stringParams<const K extends string>(labels: Record<K, string>) {
  const shape = Object.fromEntries(
    Object.entries(labels).map(([key, label]) => [key, z.string().meta({ description: String(label) })]),
  ) as Record<K, z.ZodString>;
  return z.object(shape);
}

export type TParams<C extends IContract> = C["params"] extends z.ZodObject ? z.infer<C["params"]> : never;
export type TQuery<C extends IContract> = C["query"] extends z.ZodObject ? z.infer<C["query"]> : never;
export type TQueryInput<C extends IContract> = C["query"] extends z.ZodObject ? z.input<C["query"]> : never;
export type TBody<C extends IContract> = C["body"] extends z.ZodType ? z.infer<C["body"]> : never;
export type TBodyInput<C extends IContract> = C["body"] extends z.ZodType ? z.input<C["body"]> : never;
/** The success body, as the client receives it. */
export type TResponse<C extends IContract> = C["response"] extends z.ZodType
  ? z.output<C["response"]>
  : never;

export const ErrorResponseSchema = z
  .object({
    ok: z.literal(false),
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.array(z.object({ path: z.string().optional(), message: z.string() })).optional(),
    }),
  })
  .meta({
    id: "Error",
    description: "Every failure: a code, a message for people and, for invalid input, the field paths",
    example: {
      ok: false,
      error: {
        code: "bad_request",
        message: "Invalid request",
        details: [{ path: "filters.board", message: "Required" }],
      },
    },
  });
