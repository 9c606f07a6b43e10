import "server-only";
import { getConfig } from "@/lib/config/env";
import { AppError } from "@/lib/errors";
import type { IPrincipal } from "@/types/auth.types";

/**
 * Fixed-window limiter per user (or token) and bucket, in process memory — right for one
 * server process (embedded mode); behind several instances put a shared limiter in front.
 */
const windows = new Map<string, { start: number; count: number }>();
const WINDOW_MS = 60_000;

let override: number | null = null;

export function setRateLimitForProcess(perMinute: number | null): void {
  override = perMinute;
  windows.clear();
}

export function enforceRateLimit(
  principal: IPrincipal,
  bucket: "retrieval" | "generation",
  now = Date.now(),
): { headers: Record<string, string> } {
  const limit = override ?? getConfig().rateLimitPerMinute;
  if (limit <= 0) return { headers: {} };
  const key = `${bucket}:${principal.userId}`;
  let w = windows.get(key);
  if (!w || now - w.start >= WINDOW_MS) {
    w = { start: now, count: 0 };
    windows.set(key, w);
    if (windows.size > 10_000) {
      for (const [k, v] of windows) if (now - v.start >= WINDOW_MS) windows.delete(k);
    }
  }
  w.count += 1;
  const remaining = Math.max(0, limit - w.count);
  const resetSec = Math.ceil((w.start + WINDOW_MS - now) / 1000);
  const headers = {
    "X-RateLimit-Limit": String(limit),
    "X-RateLimit-Remaining": String(remaining),
    "X-RateLimit-Reset": String(resetSec),
  };
  if (w.count > limit) {
    throw new AppError("rate_limited", `Too many ${bucket} requests; try again in ${resetSec} s`, {
      headers: { ...headers, "Retry-After": String(resetSec) },
    });
  }
  return { headers };
}
