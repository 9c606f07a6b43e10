import { z } from "zod";
import { authorize } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { type IQuestionRow, rowToQuestion } from "@/lib/generation/store";
import { handle, parseJson } from "@/lib/http/handler";
import { assertUuid } from "@/lib/ingestion/access";

const PatchQuestionSchema = z
  .strictObject({
    status: z.enum(["draft", "approved", "rejected"]).optional(),
    promptText: z.string().trim().min(8).max(1500).optional(),
    marks: z.number().int().min(1).max(20).optional(),
  })
  .refine((b) => Object.keys(b).length > 0, "Nothing to change");

/** Review state and inline edits of a saved question (owner only; others get 404). */
export const PATCH = handle<{ params: Promise<{ id: string }> }>(
  "questions.patch",
  async (request, { params }) => {
    const principal = await authorize(request, { scope: "generation:write" });
    const { id } = await params;
    assertUuid(id, "question id");
    const body = await parseJson(request, PatchQuestionSchema, 16 * 1024);
    const [row] = await (await getDb()).query<IQuestionRow>(
      `update questions q set status = coalesce($3, q.status), prompt_text = coalesce($4, q.prompt_text),
       marks = coalesce($5, q.marks), updated_at = now()
     from question_sets s where q.id = $1 and s.id = q.set_id and s.user_id = $2
     returning q.*`,
      [id, principal.userId, body.status ?? null, body.promptText ?? null, body.marks ?? null],
    );
    if (!row) throw new AppError("not_found", "Question not found");
    return Response.json({ ok: true, question: rowToQuestion(row) });
  },
);
