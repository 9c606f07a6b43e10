/**
 * One error type for the whole app. A code maps to an HTTP status; the server turns it into
 * `{ ok: false, error: { code, message, details? } }` and the client rebuilds the same type.
 */
export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type TErrorCode = keyof typeof ERROR_STATUS;

export interface IErrorDetail {
  path?: string;
  message: string;
  [key: string]: unknown;
}

export interface IErrorBody {
  ok: false;
  error: { code: TErrorCode; message: string; details?: IErrorDetail[] };
}

export class AppError extends Error {
  readonly code: TErrorCode;
  readonly details?: IErrorDetail[];
  readonly headers?: Record<string, string>;

  constructor(
    code: TErrorCode,
    message: string,
    options: { details?: IErrorDetail[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.details = options.details;
    this.headers = options.headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): IErrorBody {
    return {
      ok: false,
      error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) },
    };
  }

  toResponse(): Response {
    return Response.json(this.toBody(), { status: this.status, headers: this.headers });
  }

  static fromBody(status: number, body: unknown): AppError {
    const err = (body as Partial<IErrorBody> | null)?.error;
    if (err && typeof err.code === "string" && err.code in ERROR_STATUS && typeof err.message === "string") {
      return new AppError(err.code as TErrorCode, err.message, { details: err.details });
    }
    const code = (Object.entries(ERROR_STATUS).find(([, s]) => s === status)?.[0] ??
      "internal") as TErrorCode;
    return new AppError(code, `Request failed with status ${status}`);
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}
