import { handle } from "@/lib/http/handler";
import { buildOpenApiDocument } from "@/lib/openapi/document";

let cached: unknown = null;

/** The OpenAPI 3.1 document, generated from the same zod schemas the handlers parse with. */
export const GET = handle("openapi", async () => {
  cached ??= buildOpenApiDocument();
  return Response.json(cached, { headers: { "Cache-Control": "public, max-age=300" } });
});
