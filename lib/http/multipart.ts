import "server-only";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Busboy } from "@fastify/busboy";
import { AppError } from "@/lib/errors";

/**
 * A multipart upload read as a stream (@fastify/busboy): each file part goes straight to a file
 * in a fresh temporary folder, its bytes counted as they arrive. The first file that passes the
 * per-file limit stops the read at once (413): nothing waits for the rest of the body, and no
 * part of it is held in memory beyond the parser's buffers. A body that stalls for longer than
 * `idleTimeoutMs`, or takes longer than `totalTimeoutMs` altogether, is cut off (408).
 */
export interface IMultipartOptions {
  maxFileBytes: number;
  /**
   * The bytes of files this upload may add in all (the user's storage quota left): past it the
   * read stops at once with this error (413).
   */
  maxTotalFileBytes?: { bytes: number; error: () => AppError };
  maxFiles: number;
  /** The whole body, all parts together. */
  maxBodyBytes: number;
  idleTimeoutMs: number;
  totalTimeoutMs: number;
}

export interface IUploadedFile {
  filename: string;
  mimeType: string;
  /** Where its bytes are; removed by `cleanup()`. */
  path: string;
  size: number;
}

export interface IMultipartUpload {
  fields: Record<string, string>;
  files: IUploadedFile[];
  cleanup(): Promise<void>;
}

const MAX_FIELDS = 100;
const MAX_FIELD_BYTES = 64 * 1024;

const mb = (bytes: number) => Math.round(bytes / 1048576);

export async function readMultipart(request: Request, options: IMultipartOptions): Promise<IMultipartUpload> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!request.body) throw new AppError("bad_request", "Malformed multipart body");
  const dir = await mkdtemp(path.join(os.tmpdir(), "paperwise-upload-"));
  const cleanup = () => rm(dir, { recursive: true, force: true }).catch(() => undefined);
  const fields: Record<string, string> = {};
  const files: IUploadedFile[] = [];
  const writes: Promise<unknown>[] = [];
  const outs: ReturnType<typeof createWriteStream>[] = [];
  let failure: AppError | null = null;
  /** Bytes of every file so far (for the quota). */
  let fileBytes = 0;
  const fail = (err: AppError) => {
    failure ??= err;
  };

  let parser: ReturnType<typeof Busboy>;
  try {
    parser = Busboy({
      headers: { "content-type": contentType },
      limits: {
        fileSize: options.maxFileBytes,
        files: options.maxFiles,
        fields: MAX_FIELDS,
        fieldSize: MAX_FIELD_BYTES,
        parts: options.maxFiles + MAX_FIELDS,
      },
    });
  } catch {
    await cleanup();
    throw new AppError("bad_request", "Malformed multipart body (no boundary)");
  }

  parser.on("file", (field, stream, filename, _encoding, mimeType) => {
    if (field !== "file" || failure) {
      stream.resume();
      return;
    }
    const file: IUploadedFile = {
      filename: filename ?? "",
      mimeType: mimeType ?? "",
      path: path.join(dir, String(files.length)),
      size: 0,
    };
    files.push(file);
    const out = createWriteStream(file.path);
    outs.push(out);
    stream.on("data", (chunk: Buffer) => {
      file.size += chunk.byteLength;
      fileBytes += chunk.byteLength;
      const quota = options.maxTotalFileBytes;
      if (quota && fileBytes > quota.bytes && !failure) {
        fail(quota.error());
        stream.resume();
      }
    });
    stream.on("limit", () => {
      fail(
        new AppError(
          "payload_too_large",
          `${file.filename || "The file"} is over the ${mb(options.maxFileBytes)} MB limit`,
        ),
      );
      stream.resume();
    });
    stream.pipe(out);
    writes.push(
      new Promise<void>((resolve) => {
        out.on("close", resolve);
        out.on("error", () => {
          fail(new AppError("internal", "The upload could not be stored"));
          resolve();
        });
      }),
    );
  });
  parser.on("field", (name, value, _nameTruncated, valueTruncated) => {
    if (valueTruncated) fail(new AppError("bad_request", `Field ${name} is too long`));
    else fields[name] = value;
  });
  parser.on("filesLimit", () =>
    fail(new AppError("bad_request", `At most ${options.maxFiles} files per upload`)),
  );
  parser.on("fieldsLimit", () => fail(new AppError("bad_request", "Too many form fields")));
  parser.on("partsLimit", () => fail(new AppError("bad_request", "Too many form parts")));
  const finished = new Promise<void>((resolve) => {
    parser.on("finish", resolve);
    parser.on("error", () => {
      fail(new AppError("bad_request", "Malformed multipart body"));
      resolve();
    });
  });

  const reader = request.body.getReader();
  const started = Date.now();
  let total = 0;
  try {
    while (!failure) {
      const left = Math.min(options.idleTimeoutMs, options.totalTimeoutMs - (Date.now() - started));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), Math.max(0, left));
      });
      const next = await Promise.race([reader.read(), timeout]).finally(() => clearTimeout(timer));
      if (next === "timeout") {
        fail(new AppError("request_timeout", "The upload was sent too slowly and was cut off; try again"));
        break;
      }
      if (next.done) break;
      total += next.value.byteLength;
      if (total > options.maxBodyBytes) {
        fail(new AppError("payload_too_large", `Upload is over the ${mb(options.maxBodyBytes)} MB limit`));
        break;
      }
      if (!parser.write(next.value) && !failure) await Promise.race([once(parser, "drain"), finished]);
    }
  } catch {
    fail(new AppError("bad_request", "The upload body could not be read"));
  }
  if (failure) {
    await reader.cancel().catch(() => undefined);
    parser.destroy();
    // The parser's file streams never end now: close their files without waiting for them.
    for (const out of outs) out.destroy();
    await Promise.all(writes);
    await cleanup();
    throw failure;
  }
  parser.end();
  await finished;
  await Promise.all(writes);
  // Set by the parser's handlers while it drained the last bytes.
  const late = failure as AppError | null;
  if (late) {
    await cleanup();
    throw late;
  }
  return { fields, files, cleanup };
}
