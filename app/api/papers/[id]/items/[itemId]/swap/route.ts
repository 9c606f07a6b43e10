import { z } from "zod";
import { authorize } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { handle, parseJson } from "@/lib/http/handler";
import { assertUuid } from "@/lib/ingestion/access";
import { checkPaper } from "@/lib/papers/check";
import { swapItem } from "@/lib/papers/store";

const SwapSchema = z.strictObject({ version: z.number().int().min(1).optional() });

/** Swaps a question for a similar one (same chapter, type, Bloom level) from the caller's sets. */
export const POST = handle<{ params: Promise<{ id: string; itemId: string }> }>(
  "papers.items.swap",
  async (request, { params }) => {
    const principal = await authorize(request, { roles: ["teacher", "admin"], scope: "papers:write" });
    const { id, itemId } = await params;
    assertUuid(id, "paper id");
    assertUuid(itemId, "item id");
    const body = await parseJson(request, SwapSchema, 4 * 1024);
    const paper = await swapItem(await getDb(), principal.userId, id, itemId, body.version);
    return Response.json({ ok: true, paper, check: checkPaper(paper) });
  },
);
