import { z } from "zod";
import {
  AddItemsSchema,
  ExportQuerySchema,
  ItemActionSchema,
  PaperCreateSchema,
  PaperResponseSchema,
  PaperSummarySchema,
  PaperUpdateSchema,
  PyqMatchSchema,
} from "@/schema/paper.schema";
import { EXPORT_CONTENT_TYPES } from "@/types/paper.types";
import { defineContract, uuidParams } from "./contract";

const read = { kind: "user", scope: "papers:read", roles: ["teacher", "admin"] } as const;
const write = { kind: "user", scope: "papers:write", roles: ["teacher", "admin"] } as const;
const paperId = uuidParams({ id: "paper id" });
const itemIds = uuidParams({ id: "paper id", itemId: "item id" });

export const listPapersContract = defineContract({
  name: "papers.list",
  method: "GET",
  path: "/api/papers",
  summary: "Your question papers, most recently edited first",
  tag: "papers",
  auth: read,
  response: z.object({ ok: z.literal(true), papers: z.array(PaperSummarySchema) }),
});

export const createPaperContract = defineContract({
  name: "papers.create",
  method: "POST",
  path: "/api/papers",
  summary: "Create a paper from a template: board-80 (five sections, 80 marks), unit-test-20, or blank",
  tag: "papers",
  auth: write,
  body: PaperCreateSchema,
  maxBodyBytes: 16 * 1024,
  response: PaperResponseSchema,
  status: 201,
  example: {
    template: "unit-test-20",
    title: "Photosynthesis unit test",
    board: "OpenStax",
    grade: "11",
    subject: "Biology",
  },
});

export const getPaperContract = defineContract({
  name: "papers.get",
  method: "GET",
  path: "/api/papers/{id}",
  summary: "A paper with its live blueprint check (owner only)",
  tag: "papers",
  auth: read,
  params: paperId,
  response: PaperResponseSchema,
  errors: [404],
});

export const putPaperContract = defineContract({
  name: "papers.put",
  method: "PUT",
  path: "/api/papers/{id}",
  summary: "Replace the whole paper atomically; send the version you loaded (409 when it changed since)",
  tag: "papers",
  auth: write,
  params: paperId,
  body: PaperUpdateSchema,
  maxBodyBytes: 2 * 1024 * 1024,
  response: PaperResponseSchema,
  errors: [404, 409],
  example: {
    title: "Photosynthesis unit test",
    board: "OpenStax",
    grade: "11",
    subject: "Biology",
    durationMinutes: 40,
    totalMarks: 1,
    instructions: ["Answer all questions."],
    sections: [
      {
        id: "0b6f3a52-8a0e-4c57-9a43-1f0d2c9e7a11",
        name: "Section A",
        questionType: "mcq",
        marksPerQuestion: 1,
        items: [
          {
            id: "5d2e8c1b-3f4a-4b6c-8d7e-9f0a1b2c3d4e",
            marks: 1,
            question: {
              type: "mcq",
              bloomLevel: "Understand",
              difficulty: "easy",
              promptText: "Where do the light-dependent reactions take place?",
              options: ["Thylakoid membrane", "Stroma", "Cytoplasm", "Nucleus"],
              correctIndex: 0,
              citations: [],
            },
          },
        ],
      },
    ],
    version: 3,
  },
});

export const deletePaperContract = defineContract({
  name: "papers.delete",
  method: "DELETE",
  path: "/api/papers/{id}",
  summary: "Delete a paper (owner only)",
  tag: "papers",
  auth: write,
  params: paperId,
  response: z.object({ ok: z.literal(true) }),
  errors: [404],
});

export const addPaperItemsContract = defineContract({
  name: "papers.items.add",
  method: "POST",
  path: "/api/papers/{id}/items",
  summary: "Copy your generated questions into the paper (into a section, or the one that fits each)",
  tag: "papers",
  auth: write,
  params: paperId,
  body: AddItemsSchema,
  maxBodyBytes: 64 * 1024,
  example: { questionIds: ["7c9e6679-7425-40de-944b-e07fc1f90ae7"], version: 3 },
  response: PaperResponseSchema.extend({ added: z.number().int(), skipped: z.number().int() }),
  errors: [404, 409],
});

export const swapItemContract = defineContract({
  name: "papers.items.swap",
  method: "POST",
  path: "/api/papers/{id}/items/{itemId}/swap",
  summary: "Swap a question for a similar one (same chapter, type and Bloom level) from your sets",
  tag: "papers",
  auth: write,
  params: itemIds,
  body: ItemActionSchema,
  maxBodyBytes: 4 * 1024,
  response: PaperResponseSchema,
  errors: [404, 409],
});

export const regenerateItemContract = defineContract({
  name: "papers.items.regenerate",
  method: "POST",
  path: "/api/papers/{id}/items/{itemId}/regenerate",
  summary: "Regenerate one question in place from the passages it cites",
  tag: "papers",
  auth: write,
  params: itemIds,
  body: ItemActionSchema,
  maxBodyBytes: 4 * 1024,
  rateLimit: "generation",
  response: PaperResponseSchema,
  errors: [404, 409, 422],
});

export const pyqCheckContract = defineContract({
  name: "papers.pyq-check",
  method: "GET",
  path: "/api/papers/{id}/pyq-check",
  summary: "Items that are near-duplicates of questions in your visible past papers (PYQ) of the subject",
  tag: "papers",
  auth: read,
  params: paperId,
  response: z.object({
    ok: z.literal(true),
    pyqChunks: z.number().int(),
    threshold: z.number(),
    matches: z.record(z.string(), PyqMatchSchema),
  }),
  errors: [404],
});

export const exportPaperContract = defineContract({
  name: "papers.export",
  method: "GET",
  path: "/api/papers/{id}/export",
  summary:
    "Export the paper or its answer key: format pdf | docx | md | gift | qti | moodle, part paper | answer-key (400 while marks do not add up, unless draft=true)",
  description:
    'pdf, docx and md carry everything a teacher prints (the answer-key part adds answers, marking schemes and sources). The LMS formats are for the paper only: `qti` (IMS QTI 1.2.1: marks, feedback per option, model answers and marking schemes as feedback, each OR pair as a group that draws one), `moodle` (Moodle XML: default mark, feedback per option, essay grader information; each OR pair in a category of its own) and `gift` (Moodle GIFT: no syntax for marks, which are in each title; model answers as general feedback). See docs/exports-and-api.md. A paper whose marks do not add up, or with an empty section, answers 400 with the reasons; `draft=true` (pdf, docx, md) exports it anyway with "DRAFT" before the title and what is still unmet (problems and missed blueprint targets) as the first instruction.',
  tag: "papers",
  auth: read,
  params: paperId,
  query: ExportQuerySchema,
  response: "binary",
  fileTypes: [...new Set(Object.values(EXPORT_CONTENT_TYPES).map((t) => t.split(";")[0]!))],
  // 429: too many exports of this user at once.
  errors: [404, 429],
});
