import { z } from "zod";
import { INGESTION_STATUSES, RESOURCE_TYPES, VISIBILITIES } from "@/types/curriculum.types";
import { queryIntOr } from "./query.schema";

/** A board, class or subject label: printable text, no control characters. */
const label = (name: string) =>
  z
    .string()
    .trim()
    .min(1, `${name} is required`)
    .max(80, `${name} is at most 80 characters`)
    .refine((s) => !/[\p{Cc}\p{Cf}]/u.test(s), `${name} contains control or invisible characters`);

export const ScopeSchema = z.object({
  board: label("Board"),
  grade: label("Class"),
  subject: label("Subject"),
});

/** Resource metadata sent with an upload (multipart fields or CLI flags). */
export const ResourceMetadataSchema = z.strictObject({
  board: label("Board"),
  grade: label("Class"),
  subject: label("Subject"),
  resourceType: z.enum(RESOURCE_TYPES).default("textbook"),
  chapterNumber: z.coerce.number().int().min(0).max(999).optional(),
  chapterName: z.string().trim().min(1).max(200).optional(),
  visibility: z.enum(VISIBILITIES).default("shared"),
  title: z.string().trim().min(1).max(200).optional(),
  /** Split a multi-chapter book into one resource per detected chapter. */
  splitChapters: z
    .union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")])
    .optional()
    .default(false),
});
export type TResourceMetadata = z.infer<typeof ResourceMetadataSchema>;
export type TResourceMetadataInput = z.input<typeof ResourceMetadataSchema>;

export const IngestionSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    originalFilename: z.string(),
    board: z.string(),
    grade: z.string(),
    subject: z.string(),
    resourceType: z.enum(RESOURCE_TYPES),
    chapterNumber: z.number().int().nullable(),
    chapterName: z.string().nullable(),
    visibility: z.enum(VISIBILITIES),
    mimeType: z.string(),
    byteSize: z.number().int(),
    status: z.enum(INGESTION_STATUSES),
    progressDone: z.number().int(),
    progressTotal: z.number().int(),
    error: z.string().nullable(),
    documentId: z.uuid().nullable(),
    chunkCount: z.number().int().nullable(),
    pageCount: z.number().int().nullable(),
    embeddingModel: z.string().nullable(),
    /** Display name (or role) of the uploader; never an email. */
    uploadedBy: z.string().nullable(),
    /** Chunks whose text reads as instructions to a language model (found at ingestion). */
    instructionLike: z.array(z.object({ chunkIndex: z.number().int(), phrases: z.array(z.string()) })),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Resource", description: "An uploaded resource and its processing status" });
export type TIngestion = z.infer<typeof IngestionSchema>;

export const ListResourcesQuerySchema = z.strictObject({
  board: z.string().max(80).optional(),
  grade: z.string().max(80).optional(),
  subject: z.string().max(80).optional(),
  resourceType: z.enum(RESOURCE_TYPES).optional(),
  status: z.enum(INGESTION_STATUSES).optional(),
  q: z.string().max(200).optional(),
  limit: queryIntOr(1, 500, 100),
  offset: queryIntOr(0, 100_000, 0),
});

export const UploadResponseSchema = z.object({
  ok: z.literal(true),
  ingestions: z.array(IngestionSchema.extend({ duplicate: z.boolean() })),
});
