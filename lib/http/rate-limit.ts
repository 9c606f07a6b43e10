import "server-only";
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
} from "rate-limiter-flexible";
import { getConfig } from "@/lib/config/env";
import { getDb, type ISqlExecutor } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { IPrincipal } from "@/types/auth.types";

/**
 * Counters for rate limits and login throttling, from rate-limiter-flexible. One process (the
 * embedded mode) counts in memory; with `DATABASE_URL` the counters live in the shared database
 * (`paperwise_rate_limits`), so several instances share one budget per user and per address, and
 * if that table cannot be reached each instance falls back to counting in its own memory.
 */

export interface ILimitSpec {
  /** Key prefix; also tells apart limiters that share the table. */
  name: string;
  points: number;
  durationSec: number;
}

export type TLimiterStore = { kind: "memory" } | { kind: "database"; db: ISqlExecutor };

/** The node-postgres `query()` shape the library's Postgres store speaks, over our executor. */
function pgAdapter(db: ISqlExecutor) {
  return {
    async query(q: { text: string; values?: unknown[] }) {
      const rows = await db.query<Record<string, unknown>>(q.text, q.values ?? []);
      // The store does arithmetic on `expire` (int8): PGlite returns it as a bigint.
      const plain = rows.map((r) =>
        Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : v])),
      );
      return { rows: plain, rowCount: plain.length };
    },
  };
}

export function createLimiter(spec: ILimitSpec, store: TLimiterStore): RateLimiterAbstract {
  const memory = new RateLimiterMemory({
    keyPrefix: spec.name,
    points: spec.points,
    duration: spec.durationSec,
  });
  if (store.kind === "memory") return memory;
  return new RateLimiterPostgres({
    storeClient: pgAdapter(store.db),
    storeType: "pool",
    tableName: "paperwise_rate_limits",
    // The table comes from our migrations, not from the library at run time.
    tableCreated: true,
    keyPrefix: spec.name,
    points: spec.points,
    duration: spec.durationSec,
    insuranceLimiter: memory,
  });
}

const limiters = new Map<string, RateLimiterAbstract>();
let storeOverride: TLimiterStore | null = null;
let override: number | null = null;

async function defaultStore(): Promise<TLimiterStore> {
  if (storeOverride) return storeOverride;
  return getConfig().database.kind === "postgres"
    ? { kind: "database", db: await getDb() }
    : { kind: "memory" };
}

/** The process's limiter for a spec (created on first use with the configured store). */
export async function limiterFor(spec: ILimitSpec): Promise<RateLimiterAbstract> {
  const key = `${spec.name}:${spec.points}:${spec.durationSec}`;
  let limiter = limiters.get(key);
  if (!limiter) {
    limiter = createLimiter(spec, await defaultStore());
    limiters.set(key, limiter);
  }
  return limiter;
}

/** Tests: a fixed per-minute API limit (null = configured), fresh counters, optionally another store. */
export function setRateLimitForProcess(perMinute: number | null, store: TLimiterStore | null = null): void {
  override = perMinute;
  storeOverride = store;
  limiters.clear();
}

/** Seconds until a refused caller may try again (at least 1). */
export function retryAfterSeconds(res: RateLimiterRes): number {
  return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
}

/**
 * Retrieval and generation requests per user per minute (fixed window). Returns the
 * `X-RateLimit-*` headers for the answer; over the limit it is a 429 with `Retry-After`.
 */
export async function enforceRateLimit(
  principal: IPrincipal,
  bucket: "retrieval" | "generation",
): Promise<{ headers: Record<string, string> }> {
  const limit = override ?? getConfig().rateLimitPerMinute;
  if (limit <= 0) return { headers: {} };
  const limiter = await limiterFor({ name: `api-${bucket}`, points: limit, durationSec: 60 });
  const headers = (res: RateLimiterRes) => ({
    "X-RateLimit-Limit": String(limit),
    "X-RateLimit-Remaining": String(Math.max(0, res.remainingPoints)),
    "X-RateLimit-Reset": String(retryAfterSeconds(res)),
  });
  try {
    return { headers: headers(await limiter.consume(principal.userId)) };
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    const wait = retryAfterSeconds(err);
    throw new AppError("rate_limited", `Too many ${bucket} requests; try again in ${wait} s`, {
      headers: { ...headers(err), "Retry-After": String(wait) },
    });
  }
}

export type TConcurrencyKind = "upload" | "generation" | "export";

/** The seconds a refused caller is told to wait: long enough for a typical job of the kind to end. */
const RETRY_AFTER_SEC: Record<TConcurrencyKind, number> = { upload: 10, generation: 15, export: 5 };

/** A claimed slot lives at most this long if its release is lost (a crashed request). */
const SLOT_TTL_SEC = 15 * 60;

/**
 * One slot of this user's concurrent uploads, generations or exports (at most
 * `isolation.maxConcurrentPerUser` of each kind at once), or a 429 with Retry-After. Counted
 * with rate-limiter-flexible: a slot is a point consumed, and `release()` gives it back. With
 * `DATABASE_URL` the count is shared by every instance. Release exactly once (later calls do
 * nothing); a lost release expires with the counter after SLOT_TTL_SEC.
 */
export async function acquireConcurrencySlot(
  principal: IPrincipal,
  kind: TConcurrencyKind,
): Promise<() => void> {
  const cap = getConfig().isolation.maxConcurrentPerUser;
  if (cap <= 0) return () => undefined;
  const limiter = await limiterFor({ name: `running-${kind}`, points: cap, durationSec: SLOT_TTL_SEC });
  try {
    await limiter.consume(principal.userId);
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    // A refused consume still counted its point: give it back, or every refusal would hold a slot.
    await limiter.reward(principal.userId, 1).catch(() => undefined);
    const wait = RETRY_AFTER_SEC[kind];
    const what = kind === "upload" ? "uploads" : kind === "generation" ? "question sets" : "exports";
    throw new AppError(
      "rate_limited",
      `You already have ${cap} ${what} running; try again in ${wait} s when one has finished`,
      { headers: { "Retry-After": String(wait) } },
    );
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    void limiter.reward(principal.userId, 1).catch(() => undefined);
  };
}

/**
 * Runs `fn` in one of this user's concurrency slots of a kind (429 when none is free) and keeps
 * the slot until the response body has been sent, or its reader went away: a streamed
 * generation or a large export holds its slot for as long as it works.
 */
export async function withConcurrencySlot(
  principal: IPrincipal,
  kind: TConcurrencyKind,
  fn: () => Promise<Response>,
): Promise<Response> {
  const release = await acquireConcurrencySlot(principal, kind);
  let response: Response;
  try {
    response = await fn();
  } catch (err) {
    release();
    throw err;
  }
  if (!response.body) {
    release();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (err) {
        release();
        controller.error(err);
      }
    },
    // Held until the body's own cancel settles: a generation whose reader went away and that
    // finishes its set anyway (a run with a runId) still counts against the user's cap.
    cancel(reason) {
      return reader.cancel(reason).finally(release);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
