import { authorize } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { handle, parseJson } from "@/lib/http/handler";
import { assertUuid } from "@/lib/ingestion/access";
import { checkPaper } from "@/lib/papers/check";
import { addQuestions } from "@/lib/papers/store";
import { AddItemsSchema } from "@/schema/paper.schema";

/**
 * Copies the caller's generated questions into the paper: into `sectionId`, or the first section
 * that takes their type and marks (a new section when none does). Already-present ones are skipped.
 */
export const POST = handle<{ params: Promise<{ id: string }> }>(
  "papers.items.add",
  async (request, { params }) => {
    const principal = await authorize(request, { roles: ["teacher", "admin"], scope: "papers:write" });
    const { id } = await params;
    assertUuid(id, "paper id");
    const body = await parseJson(request, AddItemsSchema, 64 * 1024);
    const { paper, added, skipped } = await addQuestions(await getDb(), principal.userId, id, body);
    return Response.json({ ok: true, paper, check: checkPaper(paper), added, skipped });
  },
);
