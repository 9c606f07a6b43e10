import { deletePaperContract, getPaperContract, putPaperContract } from "@/contracts/papers.contract";
import { getDb } from "@/lib/db";
import { handle } from "@/lib/http/route";
import { checkPaper } from "@/lib/papers/check";
import { deletePaper, getPaper, savePaper } from "@/lib/papers/store";

/** A paper with its live blueprint check (owner only; others get 404). */
export const GET = handle(getPaperContract, async ({ principal, params }) => {
  const paper = await getPaper(await getDb(), principal.userId, params.id);
  return { ok: true as const, paper, check: checkPaper(paper) };
});

/** Replaces the whole paper atomically; a stale `version` answers 409. */
export const PUT = handle(putPaperContract, async ({ principal, params, body }) => {
  const paper = await savePaper(await getDb(), principal.userId, params.id, body);
  return { ok: true as const, paper, check: checkPaper(paper) };
});

export const DELETE = handle(deletePaperContract, async ({ principal, params }) => {
  await deletePaper(await getDb(), principal.userId, params.id);
  return { ok: true as const };
});
