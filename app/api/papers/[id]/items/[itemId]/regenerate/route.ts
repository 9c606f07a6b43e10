import { z } from "zod";
import { getLanguageModel, getLlmTimeoutMs } from "@/lib/ai/providers";
import { authorize } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { handle, parseJson } from "@/lib/http/handler";
import { enforceRateLimit } from "@/lib/http/rate-limit";
import { assertUuid } from "@/lib/ingestion/access";
import { checkPaper } from "@/lib/papers/check";
import { regenerateItem } from "@/lib/papers/regenerate";

const RegenerateSchema = z.strictObject({ version: z.number().int().min(1).optional() });

/** Regenerates one question in place from the passages it cites (LLM, or the offline generator). */
export const POST = handle<{ params: Promise<{ id: string; itemId: string }> }>(
  "papers.items.regenerate",
  async (request, { params }) => {
    const principal = await authorize(request, { roles: ["teacher", "admin"], scope: "papers:write" });
    const { id, itemId } = await params;
    assertUuid(id, "paper id");
    assertUuid(itemId, "item id");
    const body = await parseJson(request, RegenerateSchema, 4 * 1024);
    await enforceRateLimit(principal, "generation");
    const paper = await regenerateItem(
      { db: await getDb(), model: getLanguageModel(), timeoutMs: getLlmTimeoutMs() },
      principal.userId,
      id,
      itemId,
      body.version,
    );
    return Response.json({ ok: true, paper, check: checkPaper(paper) });
  },
);
