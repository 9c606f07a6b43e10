import { searchQuestionsContract } from "@/contracts/generation.contract";
import { getDb } from "@/lib/db";
import { searchQuestions } from "@/lib/generation/store";
import { handle } from "@/lib/http/route";

/** The caller's generated questions for reuse in papers (search and filter). */
export const GET = handle(searchQuestionsContract, async ({ principal, query }) => ({
  ok: true as const,
  questions: await searchQuestions(await getDb(), principal.userId, query),
}));
