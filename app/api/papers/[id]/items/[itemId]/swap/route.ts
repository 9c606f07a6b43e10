import { swapItemContract } from "@/contracts/papers.contract";
import { getDb } from "@/lib/db";
import { handle } from "@/lib/http/route";
import { checkPaper } from "@/lib/papers/check";
import { swapItem } from "@/lib/papers/store";

/** Swaps a question for a similar one (same chapter, type, Bloom level) from the caller's sets. */
export const POST = handle(swapItemContract, async ({ principal, params, body }) => {
  const paper = await swapItem(await getDb(), principal.userId, params.id, params.itemId, body.version);
  return { ok: true as const, paper, check: checkPaper(paper) };
});
