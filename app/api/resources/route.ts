import { readFile } from "node:fs/promises";
import { listResourcesContract, uploadResourcesContract } from "@/contracts/resources.contract";
import { getConfig } from "@/lib/config/env";
import { getDb, getReadDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { assertPlainFileNames, assertWellFormedStrings, zodDetails } from "@/lib/http/handler";
import { type IMultipartUpload, readMultipart } from "@/lib/http/multipart";
import { acquireConcurrencySlot } from "@/lib/http/rate-limit";
import { handle } from "@/lib/http/route";
import { assertMayUpload } from "@/lib/ingestion/access";
import { registerSplitUpload, registerUpload } from "@/lib/ingestion/pipeline";
import { enqueueIngestion } from "@/lib/ingestion/queue";
import { quotaExceeded, uploadQuotaOf } from "@/lib/ingestion/quota";
import { listIngestions, toIngestion } from "@/lib/ingestion/store";
import { getStorage } from "@/lib/storage";
import { ResourceMetadataSchema } from "@/schema/resources.schema";
import type { IPrincipal } from "@/types/auth.types";

const MAX_FILES = 20;

/** Upload one or more files with shared metadata (multipart/form-data, field `file`). */
export const POST = handle(uploadResourcesContract, async ({ request, principal }) => {
  const { maxUploadBytes, isolation } = getConfig();
  const maxBody = maxUploadBytes * 4 + 1_000_000;
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBody)
    throw new AppError("payload_too_large", `Upload is over the ${Math.round(maxBody / 1048576)} MB limit`);
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(contentType)) {
    throw new AppError(
      "unsupported_media_type",
      "Send the upload as multipart/form-data with a 'file' field",
    );
  }
  const release = await acquireConcurrencySlot(principal, "upload");
  try {
    // The user's storage quota: what is left bounds this upload's files while they stream (413).
    const quota = await uploadQuotaOf(await getDb(), principal.userId);
    if (quota && quota.leftBytes === 0) throw quotaExceeded(quota);
    // Streamed to temporary files; the first file over the limit stops the read (413).
    const upload = await readMultipart(request, {
      ...(quota ? { maxTotalFileBytes: { bytes: quota.leftBytes, error: () => quotaExceeded(quota) } } : {}),
      maxFileBytes: maxUploadBytes,
      maxFiles: MAX_FILES,
      maxBodyBytes: maxBody,
      idleTimeoutMs: isolation.bodyIdleTimeoutMs,
      totalTimeoutMs: isolation.bodyTimeoutMs,
    });
    try {
      return await register(upload, principal, maxUploadBytes);
    } finally {
      await upload.cleanup();
    }
  } finally {
    release();
  }
});

async function register(upload: IMultipartUpload, principal: IPrincipal, maxUploadBytes: number) {
  const { files } = upload;
  if (files.length === 0) {
    throw new AppError("bad_request", "No file uploaded", {
      details: [{ path: "file", message: "Required" }],
    });
  }
  const fields: Record<string, string> = {};
  // Empty form fields mean "not given" (browsers send every input of a form).
  for (const [k, v] of Object.entries(upload.fields)) if (v.trim() !== "") fields[k] = v;
  assertWellFormedStrings(fields);
  assertWellFormedStrings(
    files.map((f) => f.filename),
    "file",
  );
  assertPlainFileNames(files.map((f) => f.filename));
  const parsed = ResourceMetadataSchema.safeParse(fields);
  if (!parsed.success)
    throw new AppError("bad_request", "Invalid metadata", { details: zodDetails(parsed.error) });
  assertMayUpload(principal, parsed.data.visibility);

  const db = await getDb();
  const storage = getStorage();
  const results = [];
  for (const file of files) {
    const bytes = new Uint8Array(await readFile(file.path));
    const metadata = files.length > 1 ? { ...parsed.data, title: undefined } : parsed.data;
    const params = {
      userId: principal.userId,
      filename: file.filename || "upload",
      bytes,
      declaredMime: file.mimeType,
      metadata,
      maxBytes: maxUploadBytes,
    };
    const registered = metadata.splitChapters
      ? await registerSplitUpload(db, storage, params)
      : [await registerUpload(db, storage, params)];
    for (const { ingestion, duplicate } of registered) {
      if (!duplicate) enqueueIngestion(ingestion.id);
      results.push({ ...toIngestion(ingestion), duplicate });
    }
  }
  return Response.json(
    { ok: true, ingestions: results },
    { status: results.every((r) => r.duplicate) ? 200 : 202 },
  );
}

export const GET = handle(listResourcesContract, async ({ principal, query }) => {
  const { items, total } = await listIngestions(await getReadDb(), { userId: principal.userId, ...query });
  return Response.json({ ok: true, items: items.map(toIngestion), total });
});
