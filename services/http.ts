import type { z } from "zod";
import type { IContract, TResponse } from "@/contracts/contract";
import { AppError } from "@/lib/errors";

type TParamsIn<C extends IContract> = C["params"] extends z.ZodObject
  ? { params: { [K in keyof z.infer<C["params"]>]: string } }
  : { params?: never };
type TQueryIn<C extends IContract> = C["query"] extends z.ZodObject
  ? { query?: z.input<C["query"]> }
  : { query?: never };
type TBodyIn<C extends IContract> = C["body"] extends z.ZodType
  ? C["bodyKind"] extends "multipart"
    ? { form: FormData; body?: never }
    : { body: z.input<C["body"]> }
  : { body?: never };

/** What `apiFetch` needs for a contract: its path params, query and body, typed from it. */
export type TFetchInput<C extends IContract> = TParamsIn<C> & TQueryIn<C> & TBodyIn<C>;

/** `/api/papers/{id}` with `{ id }` → `/api/papers/<id>` (each value URL-encoded). */
export function contractUrl(contract: IContract, params?: Record<string, string>, query?: object): string {
  const path = contract.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${contract.name}: missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null && v !== "") search.set(k, String(v));
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

async function send(path: string, init: RequestInit): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(path, { ...init, credentials: "same-origin" });
  } catch {
    throw new AppError(
      "unavailable",
      "Cannot reach the Paperwise server. Check your connection and try again.",
    );
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) throw AppError.fromBody(res.status, body);
  return body;
}

/**
 * Client-side call of one endpoint, typed from its contract: path params, query and body in,
 * the contract's response type out. `{ ok:false, error }` bodies become AppError, as on the server.
 * The body's shape is checked by the server in development and tests (lib/http/route.ts), so the
 * client does not parse it again.
 */
export function apiFetch<C extends IContract>(contract: C, input: TFetchInput<C>): Promise<TResponse<C>>;
/**
 * The older form by path (two call sites in components/ and hooks/ still use it; prefer a
 * contract, which types the answer instead of trusting a type argument).
 */
export function apiFetch<T>(path: string, init?: RequestInit & { json?: unknown }): Promise<T>;
export async function apiFetch(
  target: IContract | string,
  input: (RequestInit & { json?: unknown }) | TFetchInput<IContract> = {},
): Promise<unknown> {
  if (typeof target === "string") {
    const { json, headers, ...rest } = input as RequestInit & { json?: unknown };
    return send(target, {
      ...rest,
      headers: { ...(json !== undefined ? { "content-type": "application/json" } : {}), ...headers },
      body: json !== undefined ? JSON.stringify(json) : rest.body,
    });
  }
  const { params, query, body, form } = input as {
    params?: Record<string, string>;
    query?: object;
    body?: unknown;
    form?: FormData;
  };
  const url = contractUrl(target, params, query);
  if (form) return send(url, { method: target.method, body: form });
  if (body !== undefined) {
    return send(url, {
      method: target.method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  }
  return send(url, { method: target.method });
}
