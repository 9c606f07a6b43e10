import "server-only";
import { getConfig } from "@/lib/config/env";
import { AppError } from "@/lib/errors";
import { installedPeerSecret, PEER_HEADER } from "./server-guard";

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
 * The caller's address for throttling, from what cannot be forged:
 * - no trusted proxy (`PAPERWISE_PROXY_HOPS=0`, the default): the socket's address, which the
 *   server guard (lib/http/server-guard.ts) writes into a header signed with a per-process secret.
 *   `X-Forwarded-For` is ignored: Next.js fills it from the socket only when the client sent none,
 *   so a client could name any address. Without the guard (route handlers called in-process) the
 *   answer is the single bucket `"unknown"`.
 * - N trusted proxies, each appending the address it saw: the entry N places from the right of
 *   `X-Forwarded-For` (what the outermost trusted proxy saw); entries left of it are the client's
 *   own claims. Too few entries (a request that bypassed the proxies): the socket's address.
 */
export function clientAddress(request: Request): string {
  const peer = signedPeer(request.headers.get(PEER_HEADER));
  const hops = getConfig().proxyHops;
  if (hops === 0) return peer ?? "unknown";
  const entries = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const entry = entries.length >= hops ? entries[entries.length - hops] : undefined;
  return (entry ?? peer ?? "unknown").slice(0, 64);
}

function signedPeer(value: string | null): string | null {
  const secret = installedPeerSecret();
  if (!value || !secret) return null;
  const [given, address] = value.split(" ");
  return given === secret && address ? address.slice(0, 64) : null;
}
