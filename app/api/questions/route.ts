import { z } from "zod";
import { authorize } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { searchQuestions } from "@/lib/generation/store";
import { handle, parseQuery } from "@/lib/http/handler";
import { BLOOM_LEVELS } from "@/types/bloom.types";
import { QUESTION_TYPES } from "@/types/generation.types";

const QuestionSearchSchema = z.strictObject({
  type: z.enum(QUESTION_TYPES).optional(),
  bloomLevel: z.enum(BLOOM_LEVELS).optional(),
  chapter: z.string().trim().min(1).max(200).optional(),
  q: z.string().trim().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** The caller's generated questions for reuse in papers (search and filter). */
export const GET = handle("questions.search", async (request) => {
  const principal = await authorize(request, { roles: ["teacher", "admin"], scope: "questions:read" });
  const filters = parseQuery(request, QuestionSearchSchema);
  return Response.json({
    ok: true,
    questions: await searchQuestions(await getDb(), principal.userId, filters),
  });
});
