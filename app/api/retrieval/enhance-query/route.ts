import { getEmbedder } from "@/lib/ai/embedder";
import { getLanguageModel, getLlmTimeoutMs } from "@/lib/ai/providers";
import { authorize } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { handle, parseJson } from "@/lib/http/handler";
import { enforceRateLimit } from "@/lib/http/rate-limit";
import { enhanceQuery } from "@/lib/retrieval/enhance";
import { EnhanceQueryRequestSchema } from "@/schema/retrieval.schema";

export const POST = handle("retrieval.enhance", async (request) => {
  const principal = await authorize(request, { scope: "retrieval:read" });
  const body = await parseJson(request, EnhanceQueryRequestSchema);
  const rate = await enforceRateLimit(principal, "retrieval");
  const result = await enhanceQuery(
    {
      db: await getDb(),
      embedder: getEmbedder(),
      model: getLanguageModel(),
      llmTimeoutMs: getLlmTimeoutMs(),
    },
    principal.userId,
    body,
  );
  return Response.json(result, { headers: rate.headers });
});
