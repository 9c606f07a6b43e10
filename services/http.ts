import { AppError } from "@/lib/errors";

/** Client-side fetch for the JSON API: `{ ok:false, error }` bodies become AppError, as on the server. */
export async function apiFetch<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const { json, headers, ...rest } = init;
  let res: Response;
  try {
    res = await fetch(path, {
      ...rest,
      headers: { ...(json !== undefined ? { "content-type": "application/json" } : {}), ...headers },
      body: json !== undefined ? JSON.stringify(json) : rest.body,
      credentials: "same-origin",
    });
  } catch {
    throw new AppError(
      "unavailable",
      "Cannot reach the Paperwise server. Check your connection and try again.",
    );
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) throw AppError.fromBody(res.status, body);
  return body as T;
}
