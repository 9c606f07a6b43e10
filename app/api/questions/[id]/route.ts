import { patchQuestionContract } from "@/contracts/generation.contract";
import { getDb } from "@/lib/db";
import { updateQuestion } from "@/lib/generation/store";
import { handle } from "@/lib/http/route";

/** Review state and inline edits of a saved question (owner only; others get 404). */
export const PATCH = handle(patchQuestionContract, async ({ principal, params, body }) =>
  Response.json({
    ok: true,
    question: await updateQuestion(await getDb(), principal.userId, params.id, body),
  }),
);
