import "server-only";
import { z } from "zod";
import { AppError, type IErrorDetail } from "@/lib/errors";
import { describeError, log } from "@/lib/log";

/** zod issues → `[{ path: "filters.board", message }]` for 400 bodies. */
export function zodDetails(error: z.ZodError): IErrorDetail[] {
  return error.issues.slice(0, 20).map((issue) => ({
    path: issue.path.map(String).join(".") || "(root)",
    message: issue.message,
  }));
}

function isDatabaseUnavailable(err: unknown): boolean {
  const text = describeError(err).toLowerCase();
  return /(econnrefused|connection terminated|statement timeout|canceling statement|too many clients|database is closed|pglite is closed)/.test(
    text,
  );
}

/** Maps any thrown value to a JSON error response; never leaks a stack or raw DB message. */
export function errorResponse(err: unknown, context: string): Response {
  if (err instanceof AppError) return err.toResponse();
  if (err instanceof z.ZodError) {
    return new AppError("bad_request", "Invalid request", { details: zodDetails(err) }).toResponse();
  }
  if (isDatabaseUnavailable(err)) {
    log.error("db.unavailable", { context, error: describeError(err) });
    return new AppError("unavailable", "The database is busy or unavailable; try again shortly", {
      headers: { "Retry-After": "2" },
    }).toResponse();
  }
  log.error("request.failed", { context, error: describeError(err) });
  return new AppError("internal", "Something went wrong on our side; the error was logged").toResponse();
}

export const DEFAULT_JSON_LIMIT = 256 * 1024;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function stringProblem(s: string): string | null {
  if (s.includes("\u0000")) return "Contains a NUL character";
  if (LONE_SURROGATE.test(s)) return "Contains broken Unicode (an unpaired UTF-16 surrogate)";
  return null;
}

/**
 * The one place every request string is checked, before any schema sees it: Postgres cannot store
 * a NUL in text or jsonb, and a lone UTF-16 surrogate cannot be encoded as UTF-8, so either would
 * fail deep inside a query as a 500. Both are refused as a 400 naming the field. Iterative, since a
 * JSON body may nest thousands of levels deep.
 */
export function malformedStrings(value: unknown, root = ""): IErrorDetail[] {
  const out: IErrorDetail[] = [];
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length > 0 && out.length < 20) {
    const [v, at] = stack.pop()!;
    if (typeof v === "string") {
      const problem = stringProblem(v);
      if (problem) out.push({ path: at || "(root)", message: problem });
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], at ? `${at}.${i}` : String(i)]);
    } else if (v !== null && typeof v === "object") {
      for (const [k, child] of Object.entries(v)) {
        const path = at ? `${at}.${k}` : k;
        const problem = stringProblem(k);
        if (problem) out.push({ path, message: `Field name: ${problem.toLowerCase()}` });
        stack.push([child, path]);
      }
    }
  }
  return out;
}

/** Throws a 400 with field paths when any string in `value` holds a NUL or broken Unicode. */
export function assertWellFormedStrings(value: unknown, root = ""): void {
  const details = malformedStrings(value, root);
  if (details.length > 0) throw new AppError("bad_request", "Invalid request", { details });
}

const INVISIBLE_CHAR = /[\p{Cc}\p{Cf}]/u;

/**
 * File names are shown in the library and sent back in Content-Disposition: like labels, they may
 * not hold control characters or invisible format characters (Unicode Cc and Cf: bidi overrides
 * such as U+202E that display `gpj.exe` as `exe.jpg`, marks U+200E/U+200F, isolates U+2066–2069,
 * zero-width characters). A 400 names the file and the character.
 */
export function assertPlainFileNames(names: readonly string[], root = "file"): void {
  const details: IErrorDetail[] = [];
  names.forEach((name, i) => {
    const bad = INVISIBLE_CHAR.exec(name)?.[0];
    if (bad === undefined) return;
    const code = `U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
    details.push({
      path: `${root}.${i}`,
      message: `File name contains a control or invisible character (${code}); rename the file`,
    });
  });
  if (details.length > 0) throw new AppError("bad_request", "Invalid file name", { details });
}

/** Reads a JSON body with a size cap and parses it with a zod schema (400 with field paths). */
export async function parseJson<S extends z.ZodType>(
  request: Request,
  schema: S,
  maxBytes = DEFAULT_JSON_LIMIT,
): Promise<z.infer<S>> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new AppError("payload_too_large", `Body over ${maxBytes} bytes`);
  // A declared JSON type is required, not assumed: a browser can send a body without one (or as
  // text/plain) cross-site without a CORS preflight, application/json it cannot.
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new AppError("unsupported_media_type", "Send the body as application/json");
  }
  let text: string;
  try {
    text = await readLimited(request, maxBytes);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError("bad_request", "Could not read the request body");
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new AppError("bad_request", "Malformed JSON body");
  }
  assertWellFormedStrings(raw);
  const parsed = schema.safeParse(raw);
  if (!parsed.success)
    throw new AppError("bad_request", "Invalid request", { details: zodDetails(parsed.error) });
  return parsed.data;
}

async function readLimited(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new AppError("payload_too_large", `Body over ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));
}

/**
 * The request body as a stream that fails once more than `maxBytes` have arrived, whatever the
 * Content-Length says (chunked uploads have none). `exceeded()` tells that failure apart from a
 * malformed body. The source is cancelled at the limit, so nothing past it is read or buffered.
 */
export function limitBody(
  request: Request,
  maxBytes: number,
): { body: ReadableStream<Uint8Array> | null; exceeded: () => boolean } {
  let total = 0;
  let over = false;
  if (!request.body) return { body: null, exceeded: () => false };
  const reader = request.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      total += value.byteLength;
      if (total > maxBytes) {
        over = true;
        await reader.cancel().catch(() => undefined);
        return controller.error(new AppError("payload_too_large", `Body over ${maxBytes} bytes`));
      }
      controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason).catch(() => undefined),
  });
  return { body, exceeded: () => over };
}

/** Parses URL search params with a schema (400 with field paths). */
export function parseQuery<S extends z.ZodType>(request: Request, schema: S): z.infer<S> {
  const params = Object.fromEntries(new URL(request.url).searchParams.entries());
  assertWellFormedStrings(params);
  const parsed = schema.safeParse(params);
  if (!parsed.success)
    throw new AppError("bad_request", "Invalid query parameters", { details: zodDetails(parsed.error) });
  return parsed.data;
}
