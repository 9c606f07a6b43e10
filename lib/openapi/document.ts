import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { CONTRACTS } from "@/contracts";
import { ErrorResponseSchema, type IContract } from "@/contracts/contract";

export { ErrorResponseSchema };

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid request (details carry field paths)",
  401: "Missing, invalid, expired or revoked credentials",
  403: "Role or token scope does not allow this, or a cross-site write with the session cookie",
  404: "Not found (or not visible to you)",
  409: "Conflict: the paper or resource changed since you loaded it, or is still being processed",
  408: "The body was sent too slowly and was cut off",
  413: "Body over the size limit",
  415: "Wrong content type",
  422: "Nothing could be generated from this context",
  429: "Rate limited (or too many failed sign-ins); see Retry-After",
  503: "The database is busy or unavailable; see Retry-After",
};

function successContent(contract: IContract): ResponseConfig["content"] {
  if (contract.response === "stream") {
    return {
      "text/event-stream": { schema: z.string().meta({ description: "AI SDK UI message stream (SSE)" }) },
    };
  }
  if (contract.response === "binary") {
    return { "application/octet-stream": { schema: z.string().meta({ format: "binary" }) } };
  }
  return { "application/json": { schema: contract.response } };
}

/** Every error status the contract can answer: its own, plus what its auth and limits imply. */
function errorStatuses(contract: IContract): number[] {
  const out = new Set<number>([400, ...(contract.errors ?? [])]);
  if (contract.auth.kind !== "public") {
    out.add(401);
    out.add(403);
  }
  if (contract.rateLimit) out.add(429);
  return [...out].sort((a, b) => a - b);
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
      tags: [c.tag],
      ...(c.auth.kind !== "public" ? { security: [{ [bearer.name]: [] }] } : {}),
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
