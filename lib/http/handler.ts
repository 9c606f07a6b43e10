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

type THandler<C> = (request: Request, ctx: C) => Promise<Response>;

/** Wraps a route handler so every failure becomes a typed JSON error. */
export function handle<C = unknown>(name: string, fn: THandler<C>): THandler<C> {
  return async (request, ctx) => {
    try {
      return await fn(request, ctx);
    } catch (err) {
      return errorResponse(err, name);
    }
  };
}

export const DEFAULT_JSON_LIMIT = 256 * 1024;

/** Reads a JSON body with a size cap and parses it with a zod schema (400 with field paths). */
export async function parseJson<S extends z.ZodType>(
  request: Request,
  schema: S,
  maxBytes = DEFAULT_JSON_LIMIT,
): Promise<z.infer<S>> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new AppError("payload_too_large", `Body over ${maxBytes} bytes`);
  const type = request.headers.get("content-type") ?? "";
  if (type && !/^application\/(.+\+)?json\b/i.test(type)) {
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

/** Parses URL search params with a schema (400 with field paths). */
export function parseQuery<S extends z.ZodType>(request: Request, schema: S): z.infer<S> {
  const params = Object.fromEntries(new URL(request.url).searchParams.entries());
  const parsed = schema.safeParse(params);
  if (!parsed.success)
    throw new AppError("bad_request", "Invalid query parameters", { details: zodDetails(parsed.error) });
  return parsed.data;
}

export function json(body: unknown, init?: ResponseInit): Response {
  return Response.json(body, init);
}
