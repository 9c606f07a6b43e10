import { listQuestionSetsContract } from "@/contracts/generation.contract";
import { getDb } from "@/lib/db";
import { listQuestionSets } from "@/lib/generation/store";
import { handle } from "@/lib/http/route";

/** The caller's recent generated sets (their own only), newest first. */
export const GET = handle(listQuestionSetsContract, async ({ principal, query }) => ({
  ok: true as const,
  sets: await listQuestionSets(await getDb(), principal.userId, query.limit),
}));
