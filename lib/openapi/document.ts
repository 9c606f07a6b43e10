import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import {
  CreateApiTokenRequestSchema,
  LoginRequestSchema,
  LoginResponseSchema,
  MeResponseSchema,
} from "@/schema/auth.schema";
import { GenerationRequestSchema } from "@/schema/generation.schema";
import { HealthResponseSchema } from "@/schema/health.schema";
import {
  AddItemsSchema,
  ExportQuerySchema,
  PaperCreateSchema,
  PaperUpdateSchema,
} from "@/schema/paper.schema";
import { IngestionSchema, ListResourcesQuerySchema, UploadResponseSchema } from "@/schema/resources.schema";
import {
  EnhanceQueryRequestSchema,
  EnhanceQueryResponseSchema,
  FacetsResponseSchema,
  RetrievalQueryRequestSchema,
  RetrievalQueryResponseSchema,
} from "@/schema/retrieval.schema";
import {
  CreateUserRequestSchema,
  ListUsersResponseSchema,
  UpdateUserRequestSchema,
  UserResponseSchema,
} from "@/schema/users.schema";
import { API_SCOPES } from "@/types/auth.types";

export const ErrorResponseSchema = z.object({
  ok: z.literal(false),
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.array(z.object({ path: z.string().optional(), message: z.string() })).optional(),
  }),
});

/** Every public route, registered with the same zod schemas the handlers parse with. */
export interface IRouteSpec {
  method: "get" | "post" | "put" | "delete" | "patch";
  path: string;
  summary: string;
  tag: string;
  request?: z.ZodType;
  requestKind?: "json" | "multipart";
  query?: z.ZodObject;
  response: z.ZodType | "stream" | "binary";
  status?: number;
  auth?: boolean;
  example?: unknown;
}

/** Path parameters from the `{name}` placeholders of a path (all ids are UUIDs). */
function pathParams(path: string) {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return names.length ? z.object(Object.fromEntries(names.map((n) => [n, z.uuid()]))) : null;
}

const PaperResponse = z.object({
  ok: z.literal(true),
  paper: z
    .record(z.string(), z.unknown())
    .meta({ description: "The paper: sections → items → copied questions" }),
  check: z
    .record(z.string(), z.unknown())
    .meta({ description: "Blueprint check: totals vs targets, problems" }),
});

export const ROUTES: IRouteSpec[] = [
  {
    method: "get",
    path: "/api/health",
    summary: "Liveness, database readiness and the model provider's circuit breakers",
    tag: "system",
    response: HealthResponseSchema,
    auth: false,
  },
  {
    method: "post",
    path: "/api/auth/login",
    summary: "Sign in with a local account (embedded mode); returns a bearer token and sets a session cookie",
    tag: "auth",
    request: LoginRequestSchema,
    response: LoginResponseSchema,
    auth: false,
    example: { email: "teacher@paperwise.local", password: "paperwise-teacher" },
  },
  {
    method: "post",
    path: "/api/auth/logout",
    summary: "Clear the session cookie",
    tag: "auth",
    response: z.object({ ok: z.literal(true) }),
    auth: false,
  },
  {
    method: "get",
    path: "/api/auth/me",
    summary: "The calling user",
    tag: "auth",
    response: MeResponseSchema,
  },
  {
    method: "get",
    path: "/api/tokens",
    summary: "List your personal API tokens (secrets are never shown again)",
    tag: "auth",
    response: z.object({
      ok: z.literal(true),
      tokens: z.array(
        z.object({ id: z.uuid(), name: z.string(), prefix: z.string(), scopes: z.array(z.enum(API_SCOPES)) }),
      ),
    }),
  },
  {
    method: "post",
    path: "/api/tokens",
    summary: "Create a personal API token (shown once)",
    tag: "auth",
    request: CreateApiTokenRequestSchema,
    response: z.object({ ok: z.literal(true), token: z.string() }),
    status: 201,
    example: { name: "LMS plug-in", scopes: ["retrieval:read", "generation:write"], expiresInDays: 90 },
  },
  {
    method: "delete",
    path: "/api/tokens/{id}",
    summary: "Revoke a token",
    tag: "auth",
    response: z.object({ ok: z.literal(true), revoked: z.uuid() }),
  },
  {
    method: "get",
    path: "/api/users",
    summary: "Every account (admins; in Supabase mode accounts live in Supabase Auth and this is read-only)",
    tag: "users",
    response: ListUsersResponseSchema,
  },
  {
    method: "post",
    path: "/api/users",
    summary: "Add a teacher or admin (local accounts; without a password one is generated and returned once)",
    tag: "users",
    request: CreateUserRequestSchema,
    response: UserResponseSchema,
    status: 201,
    example: { email: "new.teacher@school.example", role: "teacher" },
  },
  {
    method: "patch",
    path: "/api/users/{id}",
    summary: "Change an account's role (the last admin cannot be demoted: 409)",
    tag: "users",
    request: UpdateUserRequestSchema,
    response: UserResponseSchema,
  },
  {
    method: "post",
    path: "/api/users/{id}/password",
    summary: "Reset a local account's password to a generated one, returned once",
    tag: "users",
    response: UserResponseSchema,
  },
  {
    method: "post",
    path: "/api/retrieval/query",
    summary:
      "Hybrid retrieval (BM25 + vector) with classification, a query planner (sub-queries, variants, HyDE, chapter focus), session follow-ups, rerank, calibrated relevance and refusal of out-of-scope queries",
    tag: "retrieval",
    request: RetrievalQueryRequestSchema,
    response: RetrievalQueryResponseSchema,
    example: {
      filters: { board: "OpenStax", grade: "11", subject: "Biology" },
      query: "Explain how osmosis moves water across a membrane",
      topK: 8,
    },
  },
  {
    method: "post",
    path: "/api/retrieval/enhance-query",
    summary: "Suggest an enhanced query with explained, highlighted added terms",
    tag: "retrieval",
    request: EnhanceQueryRequestSchema,
    response: EnhanceQueryResponseSchema,
    example: {
      rawQuery: "diffusion across membranes",
      filters: { board: "OpenStax", grade: "11", subject: "Biology" },
      bloomTargets: ["Analyze"],
    },
  },
  {
    method: "get",
    path: "/api/retrieval/facets",
    summary: "Boards, classes, subjects, resource types and chapters you can search",
    tag: "retrieval",
    response: FacetsResponseSchema,
  },
  {
    method: "post",
    path: "/api/resources",
    summary:
      "Upload one or more files (multipart: file + metadata fields); processing continues in the background",
    tag: "resources",
    requestKind: "multipart",
    request: z.object({
      file: z.string().meta({ format: "binary" }),
      board: z.string(),
      grade: z.string(),
      subject: z.string(),
      resourceType: z.enum(["textbook", "pyq", "notes", "other"]).optional(),
      chapterNumber: z.number().int().optional(),
      chapterName: z.string().optional(),
      visibility: z.enum(["shared", "private"]).optional(),
      title: z.string().optional(),
    }),
    response: UploadResponseSchema,
    status: 202,
  },
  {
    method: "get",
    path: "/api/resources",
    summary: "List resources (shared ones and your private ones) with status",
    tag: "resources",
    query: ListResourcesQuerySchema,
    response: z.object({ ok: z.literal(true), items: z.array(IngestionSchema), total: z.number().int() }),
  },
  {
    method: "get",
    path: "/api/resources/{id}",
    summary: "Status and progress of one resource",
    tag: "resources",
    response: z.object({ ok: z.literal(true), ingestion: IngestionSchema }),
  },
  {
    method: "delete",
    path: "/api/resources/{id}",
    summary: "Delete a resource with its chunks and original",
    tag: "resources",
    response: z.object({ ok: z.literal(true), deleted: z.uuid() }),
  },
  {
    method: "post",
    path: "/api/resources/{id}/retry",
    summary: "Retry a failed ingestion or re-ingest a ready one",
    tag: "resources",
    response: z.object({ ok: z.literal(true), ingestion: IngestionSchema }),
    status: 202,
  },
  {
    method: "get",
    path: "/api/resources/{id}/chunks",
    summary: "Preview a resource's chunks",
    tag: "resources",
    query: z.object({ offset: z.number().int().optional(), limit: z.number().int().optional() }),
    response: z.object({
      ok: z.literal(true),
      items: z.array(z.object({ chunkIndex: z.number().int(), content: z.string() })),
      total: z.number().int(),
    }),
  },
  {
    method: "get",
    path: "/api/resources/{id}/file",
    summary: "The original file (View source)",
    tag: "resources",
    response: "binary",
  },
  {
    method: "get",
    path: "/api/sources/{id}",
    summary: "The original file of a retrieved passage, by document id",
    tag: "resources",
    response: "binary",
  },
  {
    method: "get",
    path: "/api/openapi.json",
    summary: "This OpenAPI 3.1 document",
    tag: "system",
    response: z.record(z.string(), z.unknown()),
    auth: false,
  },
  {
    method: "post",
    path: "/api/generation",
    summary:
      "Generate a question set as an AI SDK UI message stream: data-question parts (stable id per slot, rewritten in place: generating → draft while a language model writes it, never usable → final | failed with its reason), data-progress, data-error ({ code, message, slotId? }), and a final data-set with the saved set id",
    tag: "generation",
    request: GenerationRequestSchema,
    response: "stream",
    example: {
      filters: { board: "OpenStax", grade: "11", subject: "Biology" },
      context: [{ documentId: "6f1c2e4a-1b2c-4d3e-8f40-123456789abc", chunkIndex: 3 }],
      blueprint: {
        items: [
          { type: "mcq", count: 3 },
          { type: "short", count: 1 },
        ],
        bloomTargets: ["Remember", "Understand", "Apply"],
      },
    },
  },
  {
    method: "patch",
    path: "/api/questions/{id}",
    summary:
      "Review or edit a saved question: status draft/approved/rejected, prompt text, marks (owner only)",
    tag: "generation",
    request: z.object({
      status: z.enum(["draft", "approved", "rejected"]).optional(),
      promptText: z.string().min(8).max(1500).optional(),
      marks: z.number().int().min(1).max(20).optional(),
    }),
    response: z.object({ ok: z.literal(true), question: z.record(z.string(), z.unknown()) }),
  },
  {
    method: "get",
    path: "/api/question-sets/{id}",
    summary: "A saved question set with its questions (owner only)",
    tag: "generation",
    response: z.object({
      ok: z.literal(true),
      set: z.object({
        id: z.uuid(),
        title: z.string(),
        questions: z.array(z.record(z.string(), z.unknown())),
      }),
    }),
  },
  {
    method: "get",
    path: "/api/questions",
    summary:
      "Your saved questions for reuse, filtered by type, Bloom level, chapter and words (rejected ones left out)",
    tag: "generation",
    query: z.object({
      type: z.enum(["mcq", "short", "long"]).optional(),
      bloomLevel: z.string().optional(),
      chapter: z.string().optional(),
      q: z.string().optional(),
      limit: z.number().int().min(1).max(200).optional(),
    }),
    response: z.object({ ok: z.literal(true), questions: z.array(z.record(z.string(), z.unknown())) }),
  },
  {
    method: "get",
    path: "/api/papers",
    summary: "Your question papers, most recently edited first",
    tag: "papers",
    response: z.object({ ok: z.literal(true), papers: z.array(z.record(z.string(), z.unknown())) }),
  },
  {
    method: "post",
    path: "/api/papers",
    summary: "Create a paper from a template: board-80 (five sections, 80 marks), unit-test-20, or blank",
    tag: "papers",
    request: PaperCreateSchema,
    response: PaperResponse,
    status: 201,
    example: {
      template: "unit-test-20",
      title: "Photosynthesis unit test",
      board: "OpenStax",
      grade: "11",
      subject: "Biology",
    },
  },
  {
    method: "get",
    path: "/api/papers/{id}",
    summary: "A paper with its live blueprint check (owner only)",
    tag: "papers",
    response: PaperResponse,
  },
  {
    method: "put",
    path: "/api/papers/{id}",
    summary: "Replace the whole paper atomically; send the version you loaded (409 when it changed since)",
    tag: "papers",
    request: PaperUpdateSchema,
    response: PaperResponse,
  },
  {
    method: "delete",
    path: "/api/papers/{id}",
    summary: "Delete a paper (owner only)",
    tag: "papers",
    response: z.object({ ok: z.literal(true) }),
  },
  {
    method: "post",
    path: "/api/papers/{id}/items",
    summary: "Copy your generated questions into the paper (into a section, or the one that fits each)",
    tag: "papers",
    request: AddItemsSchema,
    response: PaperResponse.extend({ added: z.number().int(), skipped: z.number().int() }),
  },
  {
    method: "post",
    path: "/api/papers/{id}/items/{itemId}/swap",
    summary: "Swap a question for a similar one (same chapter, type and Bloom level) from your sets",
    tag: "papers",
    request: z.object({ version: z.number().int().optional() }),
    response: PaperResponse,
  },
  {
    method: "post",
    path: "/api/papers/{id}/items/{itemId}/regenerate",
    summary: "Regenerate one question in place from the passages it cites",
    tag: "papers",
    request: z.object({ version: z.number().int().optional() }),
    response: PaperResponse,
  },
  {
    method: "get",
    path: "/api/papers/{id}/pyq-check",
    summary: "Items that are near-duplicates of questions in your visible past papers (PYQ) of the subject",
    tag: "papers",
    response: z.object({
      ok: z.literal(true),
      pyqChunks: z.number().int(),
      threshold: z.number(),
      matches: z.record(z.string(), z.record(z.string(), z.unknown())),
    }),
  },
  {
    method: "get",
    path: "/api/papers/{id}/export",
    summary:
      "Export the paper or its answer key: format pdf | docx | md | gift | qti, part paper | answer-key (400 while marks do not add up)",
    tag: "papers",
    query: ExportQuerySchema,
    response: "binary",
  },
];

/** Extra routes registered by other modules (generation, papers) before the document is built. */
export const EXTRA_ROUTES: IRouteSpec[] = [];

export function buildOpenApiDocument(routes: IRouteSpec[] = [...ROUTES, ...EXTRA_ROUTES]) {
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description:
      "A personal API token (pw_…), a session JWT from /api/auth/login, or a Supabase Auth access token",
  });
  for (const r of routes) {
    const params = pathParams(r.path);
    const hasId = params !== null;
    const responses: Record<string, ResponseConfig> = {
      [String(r.status ?? 200)]: {
        description: "Success",
        content:
          r.response === "stream"
            ? {
                "text/event-stream": {
                  schema: z.string().meta({ description: "AI SDK UI message stream (SSE)" }),
                },
              }
            : r.response === "binary"
              ? { "application/octet-stream": { schema: z.string().meta({ format: "binary" }) } }
              : { "application/json": { schema: r.response } },
      },
      "400": {
        description: "Invalid request (details carry field paths)",
        content: { "application/json": { schema: ErrorResponseSchema } },
      },
    };
    if (r.auth !== false) {
      responses["401"] = {
        description: "Missing, invalid, expired or revoked credentials",
        content: { "application/json": { schema: ErrorResponseSchema } },
      };
      responses["403"] = {
        description: "Role or token scope does not allow this, or a cross-site write with the session cookie",
        content: { "application/json": { schema: ErrorResponseSchema } },
      };
    }
    if (hasId)
      responses["404"] = {
        description: "Not found (or not visible to you)",
        content: { "application/json": { schema: ErrorResponseSchema } },
      };
    if (
      r.path.startsWith("/api/retrieval") ||
      r.path.startsWith("/api/generation") ||
      r.path.endsWith("/regenerate") ||
      r.path === "/api/auth/login"
    ) {
      responses["429"] = {
        description: "Rate limited (or too many failed sign-ins); see Retry-After",
        content: { "application/json": { schema: ErrorResponseSchema } },
      };
    }
    registry.registerPath({
      method: r.method,
      path: r.path,
      summary: r.summary,
      tags: [r.tag],
      ...(r.auth !== false ? { security: [{ [bearer.name]: [] }] } : {}),
      request: {
        ...(params ? { params } : {}),
        ...(r.query ? { query: r.query } : {}),
        ...(r.request
          ? {
              body: {
                content: {
                  [r.requestKind === "multipart" ? "multipart/form-data" : "application/json"]: {
                    schema: r.request,
                    ...(r.example ? { example: r.example } : {}),
                  },
                },
              },
            }
          : {}),
      },
      responses,
    });
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Paperwise API",
      version: "0.1.0",
      description:
        "Grounded, Bloom-aligned question papers from your own curriculum resources. Errors are `{ ok: false, error: { code, message, details? } }`.",
    },
    servers: [{ url: "/" }],
  });
}
