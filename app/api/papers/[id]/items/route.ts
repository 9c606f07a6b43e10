import { addPaperItemsContract } from "@/contracts/papers.contract";
import { getDb } from "@/lib/db";
import { handle } from "@/lib/http/route";
import { checkPaper } from "@/lib/papers/check";
import { addQuestions } from "@/lib/papers/store";

/**
 * Copies the caller's generated questions into the paper: into `sectionId`, or the first section
 * that takes their type and marks (a new section when none does). Already-present ones are skipped.
 */
export const POST = handle(addPaperItemsContract, async ({ principal, params, body }) => {
  const { paper, added, skipped } = await addQuestions(await getDb(), principal.userId, params.id, body);
  return { ok: true as const, paper, check: checkPaper(paper), added, skipped };
});
