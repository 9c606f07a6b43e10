import { authorize } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { handle, parseJson } from "@/lib/http/handler";
import { checkPaper } from "@/lib/papers/check";
import { createPaper, listPapers } from "@/lib/papers/store";
import { PaperCreateSchema } from "@/schema/paper.schema";

const PAPER_ROLES = ["teacher", "admin"] as const;

/** The caller's papers, most recently edited first. */
export const GET = handle("papers.list", async (request) => {
  const principal = await authorize(request, { roles: PAPER_ROLES, scope: "papers:read" });
  return Response.json({ ok: true, papers: await listPapers(await getDb(), principal.userId) });
});

/** A new paper from a template ("board-80", "unit-test-20" or "blank"). */
export const POST = handle("papers.create", async (request) => {
  const principal = await authorize(request, { roles: PAPER_ROLES, scope: "papers:write" });
  const body = await parseJson(request, PaperCreateSchema, 16 * 1024);
  const paper = await createPaper(await getDb(), principal.userId, body);
  return Response.json({ ok: true, paper, check: checkPaper(paper) }, { status: 201 });
});
