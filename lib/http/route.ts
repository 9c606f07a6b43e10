import "server-only";
import type { z } from "zod";
import {
  ErrorResponseSchema,
  type IContract,
  type TBody,
  type TContractAuth,
  type TParams,
  type TQuery,
} from "@/contracts/contract";
import { authorizeAccountAdmin, requireLocalAccounts } from "@/lib/auth/admin";
import { authorize } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { errorResponse, parseJson, parseQuery, zodDetails } from "@/lib/http/handler";
import { assertSameOrigin } from "@/lib/http/origin";
import { enforceRateLimit } from "@/lib/http/rate-limit";
import { log } from "@/lib/log";
import type { IPrincipal } from "@/types/auth.types";

type TPrincipalOf<C extends IContract> = C["auth"] extends { kind: "public" } ? null : IPrincipal;

/** What a handler gets: everything its contract names, parsed and authorised already. */
export interface IHandlerInput<C extends IContract> {
  request: Request;
  principal: TPrincipalOf<C>;
  params: TParams<C>;
  query: TQuery<C>;
  /** The parsed JSON body (a multipart body is read by the handler itself). */
  body: TBody<C>;
  /** `X-RateLimit-*` headers when the contract names a bucket (added to a JSON answer here). */
  rateHeaders: Record<string, string>;
}

/** A JSON body (checked by the compiler against the contract's response) or a whole Response. */
export type THandlerResult<C extends IContract> =
  | Response
  | (C["response"] extends z.ZodType ? z.input<C["response"]> : never);

/** Next's second argument: the path parameters as strings, when the path has any. */
export type TRouteContext<C extends IContract> = C["params"] extends z.ZodObject
  ? { params: Promise<{ [K in keyof z.infer<C["params"]>]: string }> }
  : unknown;

async function principalFor(request: Request, auth: TContractAuth): Promise<IPrincipal | null> {
  switch (auth.kind) {
    case "public":
      return null;
    case "account-admin": {
      const principal = await authorizeAccountAdmin(request);
      if (auth.localOnly) requireLocalAccounts();
      return principal;
    }
    case "user": {
      const principal = await authorize(request, { scope: auth.scope, roles: auth.roles });
      if (auth.sessionOnly && principal.via === "api-token")
        throw new AppError("forbidden", "API tokens cannot manage tokens");
      return principal;
    }
  }
}

/** Path parameters; a bad UUID answers 400 "Invalid paper id: expected a UUID". */
function parseParams(schema: z.ZodObject, raw: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, field] of Object.entries(schema.shape) as [string, z.ZodType][]) {
    const parsed = field.safeParse(raw[key]);
    if (!parsed.success) {
      const label = (field.meta() as { description?: string } | undefined)?.description ?? key;
      throw new AppError("bad_request", `Invalid ${label}: expected a UUID`);
    }
    out[key] = parsed.data as string;
  }
  return out;
}

/** Development and tests check every answer against the contract; production trusts it. */
const checkResponses = () => process.env.NODE_ENV !== "production";

/**
 * A JSON answer that does not match its contract (a success against the response schema, a
 * failure against the error envelope) becomes a logged 500 in development and tests, so drift
 * between code, contract and the OpenAPI document fails the test that hit it.
 */
async function checked(contract: IContract, response: Response): Promise<Response> {
  const type = response.headers.get("content-type") ?? "";
  const isJson = type.includes("application/json");
  const problem = (message: string, details?: unknown) => {
    log.error("contract.response_mismatch", {
      route: contract.name,
      status: response.status,
      message,
      details,
    });
    return new AppError(
      "internal",
      `${contract.name} answered outside its contract: ${message}`,
    ).toResponse();
  };
  if (response.ok) {
    const statuses = [contract.status ?? 200, ...(contract.alsoStatus ?? [])];
    if (!statuses.includes(response.status)) return problem(`status ${response.status}`);
    if (typeof contract.response === "string") {
      if (isJson) return problem(`JSON where the contract says ${contract.response}`);
      const bare = type.split(";")[0]!.trim();
      if (contract.fileTypes && !contract.fileTypes.includes(bare))
        return problem(`${bare || "no content type"} is not among the contract's file types`);
      return response;
    }
    if (!isJson) return problem(`${type || "no content type"} where the contract says JSON`);
  } else if (!isJson) return response;
  const schema =
    response.ok && typeof contract.response !== "string" ? contract.response : ErrorResponseSchema;
  const parsed = schema.safeParse(await response.clone().json());
  return parsed.success ? response : problem("body does not match the schema", zodDetails(parsed.error));
}

/**
 * API answers are per user (and errors say who may do what): no browser or shared cache keeps
 * them unless the route chose otherwise (the OpenAPI document, which is public). A response whose
 * headers cannot be changed (one built from another fetch) keeps what it has.
 */
function noStore(response: Response): void {
  if (response.headers.has("cache-control")) return;
  try {
    response.headers.set("Cache-Control", "no-store");
  } catch {
    // Immutable headers: left as they are.
  }
}

/**
 * Wraps a route handler in its contract: authenticate and authorise (auth), refuse cross-site
 * (sameOrigin), parse params, query and JSON body, spend the rate-limit bucket, then call `fn`;
 * every failure becomes a typed JSON error. This is the order every handler used before.
 */
export function handle<C extends IContract>(
  contract: C,
  fn: (input: IHandlerInput<C>) => Promise<THandlerResult<C>>,
): (request: Request, ctx: TRouteContext<C>) => Promise<Response> {
  return async (request, ctx) => {
    let response: Response;
    try {
      const principal = await principalFor(request, contract.auth);
      if (contract.sameOrigin) assertSameOrigin(request);
      const rawParams = contract.params
        ? await (ctx as { params: Promise<Record<string, string>> }).params
        : {};
      const params = contract.params ? parseParams(contract.params, rawParams) : undefined;
      const query = contract.query ? parseQuery(request, contract.query) : undefined;
      const body =
        contract.body && contract.bodyKind !== "multipart"
          ? await parseJson(request, contract.body, contract.maxBodyBytes)
          : undefined;
      const rate =
        contract.rateLimit && principal
          ? await enforceRateLimit(principal, contract.rateLimit)
          : { headers: {} };
      const result = await fn({
        request,
        principal: principal as TPrincipalOf<C>,
        params: params as TParams<C>,
        query: query as TQuery<C>,
        body: body as TBody<C>,
        rateHeaders: rate.headers,
      });
      response =
        result instanceof Response
          ? result
          : Response.json(result, { status: contract.status ?? 200, headers: rate.headers });
    } catch (err) {
      response = errorResponse(err, contract.name);
    }
    noStore(response);
    return checkResponses() ? checked(contract, response) : response;
  };
}
