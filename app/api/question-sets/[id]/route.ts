import { getQuestionSetContract } from "@/contracts/generation.contract";
import { getDb } from "@/lib/db";
import { getQuestionSet } from "@/lib/generation/store";
import { handle } from "@/lib/http/route";

export const GET = handle(getQuestionSetContract, async ({ principal, params }) =>
  Response.json({ ok: true, set: await getQuestionSet(await getDb(), principal.userId, params.id) }),
);
