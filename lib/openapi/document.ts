import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { CONTRACTS } from "@/contracts";
import { ErrorResponseSchema, type IContract } from "@/contracts/contract";
import { GenerationStreamEventSchema } from "@/schema/generation-stream.schema";

export { ErrorResponseSchema };

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid request (details carry field paths)",
  401: "Missing, invalid, expired or revoked credentials",
  403: "Role or token scope does not allow this, or a cross-site write with the session cookie",
  404: "Not found (or not visible to you)",
  409: "Conflict: the paper or resource changed since you loaded it, or is still being processed",
  408: "The body was sent too slowly and was cut off",
  413: "Body over the size limit",
  415: "Wrong content type: send JSON bodies as application/json",
  422: "Nothing could be generated from this context",
  429: "Rate limited (or too many failed sign-ins); see Retry-After",
  500: "Unexpected server error (logged; the body never holds a stack or raw database message)",
  503: "The database is busy or unavailable; see Retry-After",
};

const STREAM_DESCRIPTION =
  "AI SDK UI message stream (server-sent events): each event is one line `data: <JSON>` holding a GenerationStreamEvent (see `x-event-schema`), then a blank line; the stream ends with the line `data: [DONE]`, which is not JSON.";

function successContent(contract: IContract): ResponseConfig["content"] {
  if (contract.response === "stream") {
    return {
      "text/event-stream": {
        schema: z.string().meta({ description: STREAM_DESCRIPTION }),
        // OpenAPI 3.1 has no schema for the items of a stream (3.2's itemSchema); an extension names it.
        "x-event-schema": { $ref: "#/components/schemas/GenerationStreamEvent" },
      } as NonNullable<ResponseConfig["content"]>["text/event-stream"],
    };
  }
  if (contract.response === "binary") {
    // The real type of each file, so a validating client or proxy accepts what is sent.
    const file = { schema: z.string().meta({ format: "binary" }) };
    // A JSON file (a split chapter's extracted pages) is parsed as JSON by clients: an object.
    const json = {
      schema: z.looseObject({}).meta({ description: "The file's JSON content, sent as stored" }),
    };
    const types = contract.fileTypes ?? ["application/octet-stream"];
    return Object.fromEntries(types.map((t) => [t, /[+/]json$/.test(t) ? json : file]));
  }
  return { "application/json": { schema: contract.response } };
}

/** Every error status the contract can answer: its own, plus what its auth and limits imply. */
function errorStatuses(contract: IContract): number[] {
  // 500 and 503 can answer anything that reaches the database or the code after parsing.
  const out = new Set<number>([400, 500, ...(contract.errors ?? [])]);
  if (contract.path !== "/api/openapi.json") out.add(503);
  if (contract.auth.kind !== "public") {
    out.add(401);
    out.add(403);
  }
  // A body is read with a size cap and a required content type (lib/http/handler.ts).
  if (contract.body) {
    out.add(413);
    out.add(415);
  }
  if (contract.rateLimit) out.add(429);
  return [...out].sort((a, b) => a - b);
}

/** Who may call an operation, its limits and rate bucket, as prose for its description. */
function operationDescription(c: IContract): string {
  const who =
    c.auth.kind === "public"
      ? "No credentials needed."
      : c.auth.kind === "account-admin"
        ? `An admin signed in in person (not an API token)${c.auth.localOnly ? "; local accounts only (read-only in Supabase mode)" : ""}.`
        : `${c.auth.roles ? `Roles: ${c.auth.roles.join(", ")}. ` : ""}${
            c.auth.sessionOnly
              ? "A session only (API tokens are refused)."
              : c.auth.scope
                ? `API tokens need the \`${c.auth.scope}\` scope.`
                : "Any signed-in user or API token."
          }`;
  const limits = [
    c.body && c.bodyKind !== "multipart"
      ? `JSON body up to ${Math.round((c.maxBodyBytes ?? 256 * 1024) / 1024)} KiB.`
      : "",
    c.rateLimit
      ? `Spends the per-user \`${c.rateLimit}\` rate budget (429 with Retry-After when exhausted).`
      : "",
  ];
  return [c.summary.endsWith(".") ? c.summary : `${c.summary}.`, who, ...limits].filter(Boolean).join(" ");
}

/** The OpenAPI 3.1 document, generated from the endpoint contracts (no hand-kept route list). */
export function buildOpenApiDocument(contracts: readonly IContract[] = CONTRACTS) {
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description:
      "A personal API token (pw_…), a session JWT from /api/auth/login, or a Supabase Auth access token",
  });
  for (const c of contracts) {
    const responses: Record<string, ResponseConfig> = {};
    for (const status of [c.status ?? 200, ...(c.alsoStatus ?? [])]) {
      responses[String(status)] = { description: "Success", content: successContent(c) };
    }
    for (const status of errorStatuses(c)) {
      responses[String(status)] = {
        description: ERROR_DESCRIPTIONS[status] ?? "Error",
        content: { "application/json": { schema: ErrorResponseSchema } },
      };
    }
    registry.registerPath({
      method: c.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete",
      path: c.path,
      operationId: c.name,
      summary: c.summary,
      description: c.description ?? operationDescription(c),
      tags: [c.tag],
      // Public operations say so explicitly: `[]` overrides any global requirement.
      security: c.auth.kind === "public" ? [] : [{ [bearer.name]: [] }],
      request: {
        ...(c.params ? { params: c.params } : {}),
        ...(c.query ? { query: c.query } : {}),
        ...(c.body
          ? {
              body: {
                content: {
                  [c.bodyKind === "multipart" ? "multipart/form-data" : "application/json"]: {
                    schema: c.body,
                    ...(c.example ? { example: c.example } : {}),
                  },
                },
              },
            }
          : {}),
      },
      responses,
    });
  }
  // Named schemas no operation references directly (the stream's events; their `meta` id names them).
  const definitions = [
    ...registry.definitions,
    { type: "schema" as const, schema: GenerationStreamEventSchema },
  ];
  return new OpenApiGeneratorV31(definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Paperwise API",
      version: "0.1.0",
      description:
        "Grounded, Bloom-aligned question papers from your own curriculum resources. Errors are `{ ok: false, error: { code, message, details? } }`.",
    },
    servers: [{ url: "/" }],
    tags: [
      { name: "system", description: "Health and this document" },
      { name: "auth", description: "Sign-in, the calling user and personal API tokens" },
      { name: "users", description: "Accounts (admins)" },
      { name: "retrieval", description: "Hybrid search over your curriculum resources" },
      { name: "resources", description: "Upload, list and read curriculum resources and their passages" },
      { name: "generation", description: "Generate, review and reuse questions" },
      { name: "papers", description: "Question papers: edit, check against a blueprint, export" },
    ],
  });
}
