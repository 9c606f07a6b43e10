import { authorize } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { handle, parseJson } from "@/lib/http/handler";
import { assertUuid } from "@/lib/ingestion/access";
import { checkPaper } from "@/lib/papers/check";
import { deletePaper, getPaper, savePaper } from "@/lib/papers/store";
import { PaperUpdateSchema } from "@/schema/paper.schema";

type TContext = { params: Promise<{ id: string }> };
const PAPER_ROLES = ["teacher", "admin"] as const;

/** A paper with its live blueprint check (owner only; others get 404). */
export const GET = handle<TContext>("papers.get", async (request, { params }) => {
  const principal = await authorize(request, { roles: PAPER_ROLES, scope: "papers:read" });
  const { id } = await params;
  assertUuid(id, "paper id");
  const paper = await getPaper(await getDb(), principal.userId, id);
  return Response.json({ ok: true, paper, check: checkPaper(paper) });
});

/** Replaces the whole paper atomically; a stale `version` answers 409. */
export const PUT = handle<TContext>("papers.put", async (request, { params }) => {
  const principal = await authorize(request, { roles: PAPER_ROLES, scope: "papers:write" });
  const { id } = await params;
  assertUuid(id, "paper id");
  const body = await parseJson(request, PaperUpdateSchema, 2 * 1024 * 1024);
  const paper = await savePaper(await getDb(), principal.userId, id, body);
  return Response.json({ ok: true, paper, check: checkPaper(paper) });
});

export const DELETE = handle<TContext>("papers.delete", async (request, { params }) => {
  const principal = await authorize(request, { roles: PAPER_ROLES, scope: "papers:write" });
  const { id } = await params;
  assertUuid(id, "paper id");
  await deletePaper(await getDb(), principal.userId, id);
  return Response.json({ ok: true });
});
