import { listResourcesContract, uploadResourcesContract } from "@/contracts/resources.contract";
import { getConfig } from "@/lib/config/env";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { assertPlainFileNames, assertWellFormedStrings, limitBody, zodDetails } from "@/lib/http/handler";
import { handle } from "@/lib/http/route";
import { assertMayUpload } from "@/lib/ingestion/access";
import { registerSplitUpload, registerUpload } from "@/lib/ingestion/pipeline";
import { enqueueIngestion } from "@/lib/ingestion/queue";
import { listIngestions, toIngestion } from "@/lib/ingestion/store";
import { getStorage } from "@/lib/storage";
import { ResourceMetadataSchema } from "@/schema/resources.schema";

const MAX_FILES = 20;

/** Upload one or more files with shared metadata (multipart/form-data, field `file`). */
export const POST = handle(uploadResourcesContract, async ({ request, principal }) => {
  const { maxUploadBytes } = getConfig();
  const maxBody = maxUploadBytes * 4 + 1_000_000;
  const tooLarge = () =>
    new AppError("payload_too_large", `Upload is over the ${Math.round(maxUploadBytes / 1048576)} MB limit`);
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBody) throw tooLarge();
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(contentType)) {
    throw new AppError(
      "unsupported_media_type",
      "Send the upload as multipart/form-data with a 'file' field",
    );
  }
  // Content-Length is only a claim (a chunked body has none): count while reading instead.
  const limited = limitBody(request, maxBody);
  let form: FormData;
  try {
    form = await new Response(limited.body, { headers: { "content-type": contentType } }).formData();
  } catch {
    if (limited.exceeded()) throw tooLarge();
    throw new AppError("bad_request", "Malformed multipart body");
  }
  const files = form
    .getAll("file")
    .filter((f): f is File => typeof f === "object" && f !== null && "arrayBuffer" in f);
  if (files.length === 0) {
    throw new AppError("bad_request", "No file uploaded", {
      details: [{ path: "file", message: "Required" }],
    });
  }
  if (files.length > MAX_FILES) throw new AppError("bad_request", `At most ${MAX_FILES} files per upload`);
  const fields: Record<string, string> = {};
  // Empty form fields mean "not given" (browsers send every input of a form).
  for (const [k, v] of form.entries())
    if (k !== "file" && typeof v === "string" && v.trim() !== "") fields[k] = v;
  assertWellFormedStrings(fields);
  assertWellFormedStrings(
    files.map((f) => f.name),
    "file",
  );
  assertPlainFileNames(files.map((f) => f.name));
  const parsed = ResourceMetadataSchema.safeParse(fields);
  if (!parsed.success)
    throw new AppError("bad_request", "Invalid metadata", { details: zodDetails(parsed.error) });
  assertMayUpload(principal, parsed.data.visibility);

  const db = await getDb();
  const storage = getStorage();
  const results = [];
  for (const file of files) {
    if (file.size > maxUploadBytes) {
      throw new AppError(
        "payload_too_large",
        `${file.name} is over the ${Math.round(maxUploadBytes / 1048576)} MB limit`,
      );
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    const metadata = files.length > 1 ? { ...parsed.data, title: undefined } : parsed.data;
    const params = {
      userId: principal.userId,
      filename: file.name || "upload",
      bytes,
      declaredMime: file.type,
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
});

export const GET = handle(listResourcesContract, async ({ principal, query }) => {
  const { items, total } = await listIngestions(await getDb(), { userId: principal.userId, ...query });
  return Response.json({ ok: true, items: items.map(toIngestion), total });
});
