import { enhanceQueryContract } from "@/contracts/retrieval.contract";
import { getEmbedder } from "@/lib/ai/embedder";
import { getLanguageModel, getLlmTimeoutMs } from "@/lib/ai/providers";
import { getReadDb } from "@/lib/db";
import { handle } from "@/lib/http/route";
import { enhanceQuery } from "@/lib/steps/enhance";

export const POST = handle(enhanceQueryContract, async ({ principal, body, rateHeaders }) => {
  const result = await enhanceQuery(
    {
      db: await getReadDb(),
      embedder: getEmbedder(),
      model: getLanguageModel(),
      llmTimeoutMs: getLlmTimeoutMs(),
    },
    principal.userId,
    body,
  );
  return Response.json(result, { headers: rateHeaders });
});
