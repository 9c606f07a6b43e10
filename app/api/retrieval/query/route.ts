import { retrievalQueryContract } from "@/contracts/retrieval.contract";
import { getEmbedder } from "@/lib/ai/embedder";
import { getLanguageModel, getLlmTimeoutMs } from "@/lib/ai/providers";
import { getConfig } from "@/lib/config/env";
import { getDb } from "@/lib/db";
import { handle } from "@/lib/http/route";
import { logRetrieval } from "@/lib/retrieval/log-request";
import { retrieve } from "@/lib/retrieval/retrieve";

export const POST = handle(retrievalQueryContract, async ({ principal, body, rateHeaders }) => {
  const db = await getDb();
  const result = await retrieve(
    {
      // Retrieval only reads: a read replica serves it when there is one (DATABASE_READ_URL).
      db: db.read,
      embedder: getEmbedder(),
      model: getLanguageModel(),
      llmTimeoutMs: getLlmTimeoutMs(),
      planBudgetMs: getConfig().planBudgetMs,
    },
    principal.userId,
    body,
  );
  await logRetrieval(db, principal.userId, body.query.length, body.topK, result);
  return Response.json(result, { headers: rateHeaders });
});
