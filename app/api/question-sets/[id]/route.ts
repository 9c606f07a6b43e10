import { authorize } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { getQuestionSet } from "@/lib/generation/store";
import { handle } from "@/lib/http/handler";
import { assertUuid } from "@/lib/ingestion/access";

export const GET = handle<{ params: Promise<{ id: string }> }>(
  "question-sets.get",
  async (request, { params }) => {
    const principal = await authorize(request, { scope: "questions:read" });
    const { id } = await params;
    assertUuid(id, "set id");
    return Response.json({ ok: true, set: await getQuestionSet(await getDb(), principal.userId, id) });
  },
);
