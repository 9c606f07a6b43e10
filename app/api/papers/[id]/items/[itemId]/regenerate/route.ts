import { regenerateItemContract } from "@/contracts/papers.contract";
import { getLanguageModel, getLlmTimeoutMs } from "@/lib/ai/providers";
import { getDb } from "@/lib/db";
import { handle } from "@/lib/http/route";
import { checkPaper } from "@/lib/papers/check";
import { regenerateItem } from "@/lib/papers/regenerate";

/** Regenerates one question in place from the passages it cites (LLM, or the offline generator). */
export const POST = handle(regenerateItemContract, async ({ principal, params, body }) => {
  const paper = await regenerateItem(
    { db: await getDb(), model: getLanguageModel(), timeoutMs: getLlmTimeoutMs() },
    principal.userId,
    params.id,
    params.itemId,
    body.version,
  );
  return Response.json({ ok: true, paper, check: checkPaper(paper) });
});
