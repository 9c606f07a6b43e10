import { z } from "zod";
import {
  BLOOM_BANDS,
  DIFFICULTIES,
  EXPORT_FORMATS,
  EXPORT_PARTS,
  PAPER_TEMPLATES,
  QUESTION_TYPES,
} from "@/schema/enums.schema";
import { BLOOM_LEVELS } from "@/types/bloom.types";

/** Control characters (except tab and newline) cannot be stored in Postgres text/jsonb (NUL) or printed. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const hasControl = (s: string) => /[\u0000-\u001f\u007f]/.test(s);
/**
 * Text cleaned of controls and trimmed, then checked. The raw string carries the same length limit
 * (and, when text is required, "something besides spaces") so the OpenAPI document, which shows
 * the raw side, does not allow what the server refuses.
 */
const text = (max: number, min = 0, message?: string) => {
  const raw = z.string().max(max);
  return (min > 0 ? raw.regex(/\S/, message ?? "Must not be blank") : raw)
    .transform((s) => s.replace(CONTROLS, "").trim())
    .pipe(z.string().min(min, message).max(max));
};
const marks = z.number().int("Marks must be whole numbers").min(1, "Marks must be at least 1").max(100);
const targetMarks = z.number().int().min(0).max(1000);

export const PaperCitationSchema = z.strictObject({
  documentId: z.uuid(),
  chunkIndex: z.number().int().min(0).max(1_000_000),
  title: text(300),
  pageStart: z.number().int().min(1).max(100_000).optional(),
  pageEnd: z.number().int().min(1).max(100_000).optional(),
  quote: text(2000),
});

export const PaperQuestionSchema = z
  .strictObject({
    type: z.enum(QUESTION_TYPES),
    bloomLevel: z.enum(BLOOM_LEVELS),
    difficulty: z.enum(DIFFICULTIES),
    promptText: text(3000, 3, "Question text is empty"),
    options: z
      .array(text(500, 1, "An option is empty"))
      .min(2)
      .max(6)
      .optional(),
    correctIndex: z.number().int().min(0).max(5).optional(),
    explanation: text(3000).optional(),
    distractorRationales: z.array(text(800)).max(6).optional(),
    suggestedAnswer: text(6000).optional(),
    evaluatorKeywords: z.array(text(80)).max(30).optional(),
    markingScheme: z
      .array(z.strictObject({ point: text(800), marks }))
      .max(20)
      .optional(),
    citations: z.array(PaperCitationSchema).max(10),
    chapter: text(200).optional(),
    sourceQuestionId: z.uuid().optional(),
    /** Changed by hand in the paper or its set. */
    edited: z.boolean().optional(),
    /** Its stem or options changed and the teacher has not yet confirmed the key / model answer. */
    checkAnswer: z.boolean().optional(),
  })
  .superRefine((q, ctx) => {
    if (q.type !== "mcq") return;
    if (!q.options) {
      ctx.addIssue({
        code: "custom",
        path: ["options"],
        message: "A multiple-choice question needs options",
      });
    } else if (q.correctIndex === undefined || q.correctIndex >= q.options.length) {
      ctx.addIssue({
        code: "custom",
        path: ["correctIndex"],
        message: `The correct option must be one of the ${q.options.length} options`,
      });
    }
  });

export const PaperItemSchema = z
  .strictObject({
    id: z.uuid(),
    marks,
    question: PaperQuestionSchema,
    alternative: PaperQuestionSchema.optional(),
    keepDespitePyq: z.boolean().optional(),
  })
  .superRefine((item, ctx) => {
    if (item.alternative && item.alternative.type !== item.question.type) {
      ctx.addIssue({
        code: "custom",
        path: ["alternative", "type"],
        message: "An OR alternative must be the same type of question",
      });
    }
  });

export const PaperSectionSchema = z
  .strictObject({
    id: z.uuid(),
    name: text(120, 1, "Give the section a name"),
    instructions: text(1000).optional(),
    questionType: z.enum([...QUESTION_TYPES, "mixed"]),
    marksPerQuestion: marks.optional(),
    attemptAny: z.number().int().min(1).max(100).optional(),
    items: z.array(PaperItemSchema).max(100),
  })
  .superRefine((s, ctx) => {
    if (s.attemptAny !== undefined && s.items.length > 0 && s.attemptAny > s.items.length) {
      ctx.addIssue({
        code: "custom",
        path: ["attemptAny"],
        message: `"Attempt any ${s.attemptAny}" but the section has only ${s.items.length} question(s)`,
      });
    }
    for (const [i, item] of s.items.entries()) {
      if (s.questionType !== "mixed" && item.question.type !== s.questionType) {
        ctx.addIssue({
          code: "custom",
          path: ["items", i, "question", "type"],
          message: `Section "${s.name}" holds ${s.questionType} questions, not ${item.question.type}`,
        });
      }
    }
  });

const share = z.number().min(0).max(100);
export const PaperBlueprintSchema = z
  .strictObject({
    chapters: z
      .record(
        z
          .string()
          .min(1)
          .max(200)
          .refine((k) => !hasControl(k), "Chapter names may not contain control characters"),
        targetMarks,
      )
      .optional(),
    bloom: z.partialRecord(z.enum(BLOOM_LEVELS), targetMarks).optional(),
    bloomBands: z.partialRecord(z.enum(BLOOM_BANDS), targetMarks).optional(),
    types: z.partialRecord(z.enum(QUESTION_TYPES), targetMarks).optional(),
    difficulty: z.partialRecord(z.enum(DIFFICULTIES), share).optional(),
    tolerance: z.number().min(0).max(50).default(0),
  })
  .superRefine((b, ctx) => {
    if (b.bloom && b.bloomBands) {
      ctx.addIssue({
        code: "custom",
        path: ["bloomBands"],
        message: "Give Bloom targets per level or per band, not both",
      });
    }
    if (b.difficulty) {
      const sum = Object.values(b.difficulty).reduce((a, v) => a + (v ?? 0), 0);
      if (Math.abs(sum - 100) > 0.5) {
        ctx.addIssue({
          code: "custom",
          path: ["difficulty"],
          message: `Difficulty shares must add up to 100 % (got ${Math.round(sum * 10) / 10} %)`,
        });
      }
    }
  });

const paperFields = {
  title: text(200, 1, "Give the paper a title"),
  schoolName: text(200).optional(),
  board: text(80, 1),
  grade: text(40, 1),
  subject: text(120, 1),
  durationMinutes: z.number().int().min(5).max(600),
  totalMarks: z.number().int().min(1).max(1000),
  instructions: z.array(text(1000, 1)).max(30),
};

/** Fields of a paper the server owns: accepted in a PUT (so a GET's `paper` can be sent back) and ignored. */
const readOnly = (description: string) =>
  z.string().max(100).optional().meta({ readOnly: true, description });

/**
 * PUT /api/papers/[id]: the whole paper, replaced atomically; `version` guards lost updates. It
 * accepts the `paper` a GET returned as it is: `id`, `createdAt` and `updatedAt` are read-only
 * and dropped.
 */
export const PaperUpdateSchema = z
  .strictObject({
    id: readOnly("Read-only: the paper id comes from the path"),
    ...paperFields,
    sections: z.array(PaperSectionSchema).max(20),
    blueprint: PaperBlueprintSchema.nullable().optional(),
    version: z.number().int().min(1),
    createdAt: readOnly("Read-only: set by the server"),
    updatedAt: readOnly("Read-only: set by the server"),
  })
  .superRefine((p, ctx) => {
    const ids = new Set<string>();
    for (const [si, s] of p.sections.entries()) {
      for (const [ii, item] of s.items.entries()) {
        if (ids.has(item.id)) {
          ctx.addIssue({
            code: "custom",
            path: ["sections", si, "items", ii, "id"],
            message: "The same item appears twice",
          });
        }
        ids.add(item.id);
      }
    }
  })
  .transform(({ id: _id, createdAt: _c, updatedAt: _u, ...update }) => update)
  .meta({
    id: "PaperInput",
    description:
      "A whole paper for PUT: what GET returns under `paper` is accepted as it is (read-only `id`, `createdAt`, `updatedAt` are ignored). Section and item ids are UUIDs the client may make; `version` is the one you loaded (409 when the paper changed since).",
  });
export type TPaperUpdate = z.infer<typeof PaperUpdateSchema>;

/** POST /api/papers: a new paper from a template. */
export const PaperCreateSchema = z.strictObject({
  template: z.enum(PAPER_TEMPLATES).default("blank"),
  title: paperFields.title,
  schoolName: paperFields.schoolName,
  board: paperFields.board,
  grade: paperFields.grade,
  subject: paperFields.subject,
  durationMinutes: paperFields.durationMinutes.optional(),
  totalMarks: paperFields.totalMarks.optional(),
});
export type TPaperCreate = z.infer<typeof PaperCreateSchema>;
export type TPaperCreateInput = z.input<typeof PaperCreateSchema>;

/** POST /api/papers/[id]/items: copy generated questions into the paper. */
export const AddItemsSchema = z.strictObject({
  questionIds: z.array(z.uuid()).min(1, "Pick at least one question").max(100),
  sectionId: z.uuid().optional(),
  version: z.number().int().min(1).optional(),
});
export type TAddItems = z.infer<typeof AddItemsSchema>;

export const ExportQuerySchema = z.strictObject({
  format: z.enum(EXPORT_FORMATS, `Unknown export format: use one of ${EXPORT_FORMATS.join(", ")}`),
  part: z.enum(EXPORT_PARTS).default("paper"),
  /**
   * Export as a draft although the paper is not ready: "DRAFT" in the title and a note of what is
   * unmet first among the instructions (pdf, docx and md only).
   */
  draft: z
    .enum(["true", "false"], "draft is true or false")
    .default("false")
    .transform((v) => v === "true"),
});

// ---- Responses: a paper as the API returns it (types/paper.types.ts infers its types from these).

const ResponseCitationSchema = z.object({
  documentId: z.string(),
  chunkIndex: z.number().int(),
  title: z.string(),
  pageStart: z.number().int().optional(),
  pageEnd: z.number().int().optional(),
  quote: z.string(),
});

/**
 * A question as it stands in a paper: a copy, so later edits to the generated set do not change a
 * finished paper. `sourceQuestionId` remembers where it came from (for "swap for a similar one").
 */
export const PaperQuestionOutSchema = z
  .object({
    type: z.enum(QUESTION_TYPES),
    bloomLevel: z.enum(BLOOM_LEVELS),
    difficulty: z.enum(DIFFICULTIES),
    promptText: z.string(),
    options: z.array(z.string()).optional(),
    correctIndex: z.number().int().optional(),
    explanation: z.string().optional(),
    distractorRationales: z.array(z.string()).optional(),
    suggestedAnswer: z.string().optional(),
    evaluatorKeywords: z.array(z.string()).optional(),
    markingScheme: z.array(z.object({ point: z.string(), marks: z.number() })).optional(),
    citations: z.array(ResponseCitationSchema),
    /** Chapter label ("4 · Cell Structure") resolved from the cited document, for the blueprint. */
    chapter: z.string().optional(),
    sourceQuestionId: z.string().optional(),
    edited: z.boolean().optional(),
    checkAnswer: z.boolean().optional(),
  })
  .meta({
    id: "PaperQuestion",
    description:
      "A question as it stands in a paper: a copy, so later edits to the generated set do not change a finished paper",
  });

export const PaperItemOutSchema = z
  .object({
    id: z.string(),
    marks: z.number().int(),
    question: PaperQuestionOutSchema,
    /** Internal choice: the OR alternative of this question (same marks). */
    alternative: PaperQuestionOutSchema.optional(),
    /** The teacher has seen the past-paper match and keeps the question anyway. */
    keepDespitePyq: z.boolean().optional(),
  })
  .meta({
    id: "PaperItem",
    description:
      "A numbered question of a paper with its marks and, for an internal choice, its OR alternative (same type, same marks)",
  });

export const PaperSectionOutSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    instructions: z.string().optional(),
    /** The type this section holds; "mixed" accepts any. */
    questionType: z.enum([...QUESTION_TYPES, "mixed"]),
    /** Marks every question of the section carries (optional for mixed sections). */
    marksPerQuestion: z.number().int().optional(),
    /** Internal choice "attempt any N of M": only the N highest-mark items count. */
    attemptAny: z.number().int().optional(),
    items: z.array(PaperItemOutSchema),
  })
  .meta({
    id: "PaperSection",
    description: 'A section of a paper: its questions, the type it holds and an optional "attempt any N"',
  });

export const PaperBlueprintOutSchema = z
  .object({
    /** Target marks per chapter label. */
    chapters: z.record(z.string(), z.number()).optional(),
    /** Target marks per Bloom level, or per three-band mix (use one of the two). */
    bloom: z.partialRecord(z.enum(BLOOM_LEVELS), z.number()).optional(),
    bloomBands: z.partialRecord(z.enum(BLOOM_BANDS), z.number()).optional(),
    /** Target marks per question type. */
    types: z.partialRecord(z.enum(QUESTION_TYPES), z.number()).optional(),
    /** Target share of marks per difficulty, in percent. */
    difficulty: z.partialRecord(z.enum(DIFFICULTIES), z.number()).optional(),
    /** How far (in marks, or percentage points for difficulty) a total may stray and still pass. */
    tolerance: z.number(),
  })
  .meta({
    id: "PaperBlueprint",
    description:
      "Target marks per chapter, Bloom level (or band), type and difficulty share, with a tolerance",
  });

export const PaperSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    schoolName: z.string().optional(),
    board: z.string(),
    grade: z.string(),
    subject: z.string(),
    durationMinutes: z.number().int(),
    totalMarks: z.number().int(),
    instructions: z.array(z.string()),
    sections: z.array(PaperSectionOutSchema),
    blueprint: PaperBlueprintOutSchema.optional(),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({
    id: "Paper",
    description:
      "A question paper: header fields, general instructions, sections of items and the blueprint it aims at. Send it back with PUT as it is (read-only fields are ignored).",
  });

export const PaperSummarySchema = z
  .object({
    id: z.string(),
    title: z.string(),
    board: z.string(),
    grade: z.string(),
    subject: z.string(),
    totalMarks: z.number().int(),
    countedMarks: z.number(),
    itemCount: z.number().int(),
    updatedAt: z.string(),
  })
  .meta({
    id: "PaperSummary",
    description: "One paper in the list of yours",
    example: {
      id: "3d5a1f8e-2b7c-4e1a-9f3d-6c2b1a0e9d84",
      title: "Photosynthesis unit test",
      board: "OpenStax",
      grade: "11",
      subject: "Biology",
      totalMarks: 20,
      countedMarks: 20,
      itemCount: 9,
      updatedAt: "2026-11-20T09:30:00.000Z",
    },
  });

export const CheckRowSchema = z.object({
  key: z.string(),
  target: z.number().optional(),
  actual: z.number(),
  status: z.enum(["ok", "under", "over"]),
});

export const PaperProblemSchema = z.object({ path: z.string(), message: z.string() });

/** The live blueprint check: what the paper adds up to against its targets. */
export const PaperCheckSchema = z
  .object({
    countedMarks: z.number(),
    totalMarks: z.number(),
    /** Structural problems that block export (marks that do not add up, empty sections, ...). */
    problems: z.array(PaperProblemSchema),
    chapters: z.array(CheckRowSchema),
    bloom: z.array(CheckRowSchema),
    bloomBands: z.array(CheckRowSchema),
    types: z.array(CheckRowSchema),
    difficulty: z.array(CheckRowSchema),
    /** True when there are no problems and every targeted row is within tolerance. */
    blueprintMet: z.boolean(),
  })
  .meta({
    id: "PaperCheck",
    description:
      "The live blueprint check: what the paper adds up to against its targets, and the problems that block export",
  });

export const PyqMatchSchema = z.object({
  documentId: z.string(),
  title: z.string(),
  pageStart: z.number().int().optional(),
  /** The past-paper question text that matched. */
  text: z.string(),
  /** Similarity in [0, 1]. */
  score: z.number(),
});

export const PaperResponseSchema = z.object({
  ok: z.literal(true),
  paper: PaperSchema,
  check: PaperCheckSchema,
});

/** POST .../swap and .../regenerate: the paper version the caller edited (409 when stale). */
export const ItemActionSchema = z.strictObject({ version: z.number().int().min(1).optional() });
