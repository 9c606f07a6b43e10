import "server-only";
import { getConfig } from "@/lib/config/env";
import { AppError } from "@/lib/errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method.toUpperCase());
}

/**
 * The hosts this app is served as: the request's own host (as the proxy forwarded it, which a
 * page on another site cannot set) plus `PAPERWISE_ALLOWED_ORIGINS` for proxies that rewrite Host.
 */
function appHosts(request: Request): Set<string> {
  const hosts = new Set<string>();
  const add = (h: string | null | undefined) => {
    if (h) hosts.add(h.trim().toLowerCase());
  };
  add(new URL(request.url).host);
  add(request.headers.get("host"));
  add(request.headers.get("x-forwarded-host")?.split(",")[0]);
  for (const origin of getConfig().allowedOrigins) add(new URL(origin).host);
  return hosts;
}

/**
 * Refuses a cookie-authenticated state change that did not come from our own pages. Browsers send
 * `Origin` on every POST/PUT/PATCH/DELETE (fetch and forms alike) and `Sec-Fetch-Site` on every
 * request; a request with neither comes from a client that does not send cookies on its own
 * accord, so it is not a cross-site forgery.
 */
export function assertSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  if (origin !== null) {
    let host: string | null = null;
    try {
      host = origin === "null" ? null : new URL(origin).host.toLowerCase();
    } catch {
      host = null;
    }
    if (!host || !appHosts(request).has(host)) {
      throw new AppError("forbidden", "Cross-site request refused: it did not come from a Paperwise page");
    }
    return;
  }
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") {
    throw new AppError("forbidden", "Cross-site request refused: it did not come from a Paperwise page");
  }
}

/**
 * The caller's address for throttling. Each trusted reverse proxy (`PAPERWISE_PROXY_HOPS`) appends
 * the address it saw to X-Forwarded-For, so the client is the entry that many places from the right
 * (the outermost proxy's view); with none, the rightmost entry. Next.js fills the header from the
 * socket only when the client sent none, so with no proxy in front a client can name its own
 * address: a deployment puts one in front (see README, Security).
 */
export function clientAddress(request: Request): string {
  const entries = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const at = entries.length - Math.max(1, getConfig().proxyHops);
  return (entries[Math.max(0, at)] ?? "unknown").slice(0, 64);
}
