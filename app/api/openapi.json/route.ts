import { openApiContract } from "@/contracts/system.contract";
import { handle } from "@/lib/http/route";
import { buildOpenApiDocument } from "@/lib/openapi/document";

let cached: ReturnType<typeof buildOpenApiDocument> | null = null;

/** The OpenAPI 3.1 document, generated from the endpoint contracts (contracts/). */
export const GET = handle(openApiContract, async () => {
  cached ??= buildOpenApiDocument();
  return Response.json(cached, { headers: { "Cache-Control": "public, max-age=300" } });
});
