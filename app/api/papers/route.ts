import { createPaperContract, listPapersContract } from "@/contracts/papers.contract";
import { getDb } from "@/lib/db";
import { handle } from "@/lib/http/route";
import { checkPaper } from "@/lib/papers/check";
import { createPaper, listPapers } from "@/lib/papers/store";

/** The caller's papers, most recently edited first. */
export const GET = handle(listPapersContract, async ({ principal }) =>
  Response.json({ ok: true, papers: await listPapers(await getDb(), principal.userId) }),
);

/** A new paper from a template ("board-80", "unit-test-20" or "blank"). */
export const POST = handle(createPaperContract, async ({ principal, body }) => {
  const paper = await createPaper(await getDb(), principal.userId, body);
  return Response.json({ ok: true, paper, check: checkPaper(paper) }, { status: 201 });
});
