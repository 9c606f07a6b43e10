import { getEmbedder } from "@/lib/ai/embedder";
import { getLanguageModel, getLlmTimeoutMs } from "@/lib/ai/providers";
import { authorize } from "@/lib/auth/principal";
import { getConfig } from "@/lib/config/env";
import { getDb } from "@/lib/db";
import { handle, parseJson } from "@/lib/http/handler";
import { enforceRateLimit } from "@/lib/http/rate-limit";
import { logRetrieval } from "@/lib/retrieval/log-request";
import { retrieve } from "@/lib/retrieval/retrieve";
import { RetrievalQueryRequestSchema } from "@/schema/retrieval.schema";

export const POST = handle("retrieval.query", async (request) => {
  const principal = await authorize(request, { scope: "retrieval:read" });
  const body = await parseJson(request, RetrievalQueryRequestSchema);
  const rate = await enforceRateLimit(principal, "retrieval");
  const db = await getDb();
  const result = await retrieve(
    {
      db,
      embedder: getEmbedder(),
      model: getLanguageModel(),
      llmTimeoutMs: getLlmTimeoutMs(),
      planBudgetMs: getConfig().planBudgetMs,
    },
    principal.userId,
    body,
  );
  await logRetrieval(db, principal.userId, body.query.length, body.topK, result);
  return Response.json(result, { headers: rate.headers });
});
