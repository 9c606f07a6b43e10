import { z } from "zod";
import { queryInt, queryIntOr } from "@/schema/query.schema";
import {
  IngestionSchema,
  ListResourcesQuerySchema,
  ResourceMetadataSchema,
  UploadResponseSchema,
} from "@/schema/resources.schema";
import { ZoneSchema, ZoneSpanSchema } from "@/schema/zones.schema";
import { defineContract, ORIGINAL_FILE_TYPES, stringParams, uuidParams } from "./contract";

// The ingestion lookups check the id themselves (lib/ingestion/access.ts), after authorising.
const resourceId = stringParams({ id: "resource id (UUID)" });

export const uploadResourcesContract = defineContract({
  name: "resources.upload",
  method: "POST",
  path: "/api/resources",
  summary:
    "Upload one or more files (multipart: file + metadata fields); processing continues in the background",
  tag: "resources",
  auth: { kind: "user", scope: "resources:write" },
  bodyKind: "multipart",
  body: ResourceMetadataSchema.extend({ file: z.string().meta({ format: "binary" }) }),
  response: UploadResponseSchema,
  status: 202,
  // 200 when every file was already there (duplicates).
  alsoStatus: [200],
  // 408: the body stalled; 429: too many uploads of this user at once.
  errors: [408, 413, 415, 429],
});

export const listResourcesContract = defineContract({
  name: "resources.list",
  method: "GET",
  path: "/api/resources",
  summary: "List resources (shared ones and your private ones) with status",
  tag: "resources",
  auth: { kind: "user", scope: "resources:read" },
  query: ListResourcesQuerySchema,
  response: z.object({ ok: z.literal(true), items: z.array(IngestionSchema), total: z.number().int() }),
});

export const getResourceContract = defineContract({
  name: "resources.get",
  method: "GET",
  path: "/api/resources/{id}",
  summary: "Status and progress of one resource",
  tag: "resources",
  auth: { kind: "user", scope: "resources:read" },
  params: resourceId,
  response: z.object({ ok: z.literal(true), ingestion: IngestionSchema }),
  errors: [404],
});

export const deleteResourceContract = defineContract({
  name: "resources.delete",
  method: "DELETE",
  path: "/api/resources/{id}",
  summary: "Delete a resource with its chunks and original",
  tag: "resources",
  auth: { kind: "user", scope: "resources:write" },
  params: resourceId,
  response: z.object({ ok: z.literal(true), deleted: z.uuid() }),
  errors: [404],
});

export const retryResourceContract = defineContract({
  name: "resources.retry",
  method: "POST",
  path: "/api/resources/{id}/retry",
  summary: "Retry a failed ingestion or re-ingest a ready one",
  tag: "resources",
  auth: { kind: "user", scope: "resources:write" },
  params: resourceId,
  response: z.object({ ok: z.literal(true), ingestion: IngestionSchema }),
  status: 202,
  errors: [404, 409],
});

export const ChunkPreviewSchema = z
  .object({
    chunkIndex: z.number().int(),
    content: z.string(),
    tokens: z.number().int(),
    pageStart: z.number().int().nullable(),
    pageEnd: z.number().int().nullable(),
    sectionPath: z.string().nullable(),
    zone: ZoneSchema,
    /** The chunk's runs by zone, for tinting: [start, end, zone] offsets into `content`. */
    zoneSpans: z.array(ZoneSpanSchema),
  })
  .meta({
    id: "SourceChunk",
    description: "A chunk of a resource's extracted text with its pages and section",
    example: {
      chunkIndex: 3,
      content: "The plasma membrane controls what enters and leaves the cell.",
      tokens: 12,
      pageStart: 88,
      pageEnd: 88,
      sectionPath: "4 Cell Structure > 4.3 Eukaryotic Cells",
      zone: "exposition",
      zoneSpans: [[0, 61, "exposition"]],
    },
  });

export const resourceChunksContract = defineContract({
  name: "resources.chunks",
  method: "GET",
  path: "/api/resources/{id}/chunks",
  summary: "Preview a resource's chunks: text, pages and section of each",
  tag: "resources",
  auth: { kind: "user", scope: "resources:read" },
  params: resourceId,
  query: z.strictObject({
    offset: queryIntOr(0, 1_000_000, 0),
    limit: queryIntOr(1, 200, 50),
  }),
  response: z.object({ ok: z.literal(true), items: z.array(ChunkPreviewSchema), total: z.number().int() }),
  errors: [404],
});

export const resourceFileContract = defineContract({
  name: "resources.file",
  method: "GET",
  path: "/api/resources/{id}/file",
  summary: "The original file (View source), inline so #page=N opens PDFs at the cited page",
  tag: "resources",
  auth: { kind: "user", scope: "resources:read" },
  params: resourceId,
  response: "binary",
  fileTypes: ORIGINAL_FILE_TYPES,
  errors: [404],
});

export const sourceFileContract = defineContract({
  name: "sources.get",
  method: "GET",
  path: "/api/sources/{documentId}",
  summary: "The original file of a retrieved passage, by document id",
  tag: "resources",
  auth: { kind: "user", scope: "resources:read" },
  params: uuidParams({ documentId: "document id" }),
  response: "binary",
  // Text originals are sent as text/plain here.
  fileTypes: ORIGINAL_FILE_TYPES.filter((t) => t !== "text/markdown"),
  errors: [404],
});

export const sourcePassageContract = defineContract({
  name: "sources.passage",
  method: "GET",
  path: "/api/sources/{documentId}/passage",
  summary:
    "A retrieved passage in its source's text: the cited chunk with the chunks around it (View source at the passage)",
  tag: "resources",
  auth: { kind: "user", scope: "resources:read" },
  params: uuidParams({ documentId: "document id" }),
  query: z.strictObject({
    chunk: queryInt(0, 1_000_000, "a chunk index"),
    around: queryIntOr(0, 50, 10),
  }),
  response: z.object({
    ok: z.literal(true),
    title: z.string(),
    mimeType: z.string(),
    chunkIndex: z.number().int(),
    items: z.array(ChunkPreviewSchema),
  }),
  errors: [404],
});
