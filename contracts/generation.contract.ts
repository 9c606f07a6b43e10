import { z } from "zod";
import {
  GenerationRequestSchema,
  ListQuestionSetsQuerySchema,
  PatchQuestionSchema,
  QuestionSearchQuerySchema,
  QuestionSetSchema,
  QuestionSetSummarySchema,
  QuestionSummarySchema,
  SavedQuestionSchema,
  StopGenerationSchema,
} from "@/schema/generation.schema";
import { GenerationSupportRequestSchema, GenerationSupportResponseSchema } from "@/schema/support.schema";
import { defineContract, uuidParams } from "./contract";

export const generationContract = defineContract({
  name: "generation",
  method: "POST",
  path: "/api/generation",
  summary:
    "Generate a question set as an AI SDK UI message stream: data-question parts (stable id per slot, rewritten in place: generating → draft while a language model writes it, never usable → final | failed with its reason), data-progress, data-error ({ code, message, slotId? }), and a final data-set with the saved set id",
  tag: "generation",
  auth: { kind: "user", scope: "generation:write", roles: ["teacher", "admin"] },
  body: GenerationRequestSchema,
  rateLimit: "generation",
  response: "stream",
  errors: [422],
  example: {
    filters: { board: "OpenStax", grade: "11", subject: "Biology" },
    context: [{ documentId: "6f1c2e4a-1b2c-4d3e-8f40-123456789abc", chunkIndex: 3 }],
    blueprint: {
      items: [
        { type: "mcq", count: 3 },
        { type: "short", count: 1 },
      ],
      bloomTargets: ["Remember", "Understand", "Apply"],
    },
  },
});

export const stopGenerationContract = defineContract({
  name: "generation.stop",
  method: "POST",
  path: "/api/generation/stop",
  summary:
    "Stop a generation started with this runId (the teacher's Stop): its model calls stop and nothing is saved. A run whose reader only went away (a reload, a closed tab) is finished and saved instead",
  description:
    "stopped is false when no run of yours with this id is going on (finished already, or not started yet: a run that starts within a minute with this id stops at once)",
  tag: "generation",
  auth: { kind: "user", scope: "generation:write", roles: ["teacher", "admin"] },
  body: StopGenerationSchema,
  maxBodyBytes: 1024,
  response: z.object({ ok: z.literal(true), stopped: z.boolean() }),
  example: { runId: "0b8f3a52-3c4d-4e5f-9a6b-7c8d9e0f1a2b" },
});

export const generationSupportContract = defineContract({
  name: "generation.support",
  method: "POST",
  path: "/api/generation/support",
  summary:
    "What the selected passages can support, per question type and Bloom level, before generating: the distinct questions the offline forms write that pass the quality gate (a dry run, counted up to 3), and the reason for each zero",
  tag: "generation",
  auth: { kind: "user", scope: "generation:write", roles: ["teacher", "admin"] },
  body: GenerationSupportRequestSchema,
  rateLimit: "retrieval",
  response: GenerationSupportResponseSchema,
  example: { context: [{ documentId: "6f1c2e4a-1b2c-4d3e-8f40-123456789abc", chunkIndex: 3 }] },
});

export const patchQuestionContract = defineContract({
  name: "questions.patch",
  method: "PATCH",
  path: "/api/questions/{id}",
  summary:
    "Review or edit a saved question by hand: status, stem, options and key, marks, Bloom level, model answer or explanation, marking points (owner only)",
  description:
    "An edit marks it edited; a changed stem or option sets checkAnswer until the teacher confirms the key (checkAnswer: false). 422 names the field when the result does not hold together (one key among distinct options, marking points adding up to the marks)",
  tag: "generation",
  auth: { kind: "user", scope: "generation:write" },
  params: uuidParams({ id: "question id" }),
  body: PatchQuestionSchema,
  maxBodyBytes: 16 * 1024,
  example: { status: "approved" },
  response: z.object({ ok: z.literal(true), question: SavedQuestionSchema }),
  errors: [404, 422],
});

export const getQuestionSetContract = defineContract({
  name: "question-sets.get",
  method: "GET",
  path: "/api/question-sets/{id}",
  summary: "A saved question set with its questions (owner only)",
  tag: "generation",
  auth: { kind: "user", scope: "questions:read" },
  params: uuidParams({ id: "set id" }),
  response: z.object({ ok: z.literal(true), set: QuestionSetSchema }),
  errors: [404],
});

export const listQuestionSetsContract = defineContract({
  name: "question-sets.list",
  method: "GET",
  path: "/api/question-sets",
  summary:
    "Your recent generated sets, newest first: topic, scope, time, size and review counts (one-question regenerations left out)",
  tag: "generation",
  auth: { kind: "user", scope: "questions:read", roles: ["teacher", "admin"] },
  query: ListQuestionSetsQuerySchema,
  response: z.object({ ok: z.literal(true), sets: z.array(QuestionSetSummarySchema) }),
});

export const searchQuestionsContract = defineContract({
  name: "questions.search",
  method: "GET",
  path: "/api/questions",
  summary:
    "Your saved questions for reuse, filtered by type, Bloom level, chapter and words (rejected ones left out)",
  tag: "generation",
  auth: { kind: "user", scope: "questions:read", roles: ["teacher", "admin"] },
  query: QuestionSearchQuerySchema,
  response: z.object({ ok: z.literal(true), questions: z.array(QuestionSummarySchema) }),
});
