import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { BASE_SECURITY_HEADERS } from "./security-headers";

/**
 * What Paperwise does to every HTTP request before Next.js sees it (installed by
 * instrumentation.ts on the Node.js server, so it runs under `next start` and `next dev`):
 *
 * 1. **Methods the Fetch standard forbids** (TRACE, TRACK): Next.js builds a `Request` from every
 *    incoming request, and undici throws `'TRACE' HTTP method is unsupported` for these, which
 *    Next.js answered as a 500 with a stack trace in the log. They get a 405 JSON answer here
 *    instead, before Next.js builds anything. (CONNECT never reaches this event: Node.js emits
 *    `connect`, and with no listener closes the socket.)
 * 2. **The socket's address**: route handlers only see headers, and Next.js fills
 *    `X-Forwarded-For` from the socket only when the client sent none, so a client can name its
 *    own address. The guard writes the socket's address into {@link PEER_HEADER}, signed with a
 *    per-process secret, after removing whatever the client sent under that name;
 *    `clientAddress()` (lib/http/origin.ts) trusts the header only with that secret.
 *
 * Dependency-free but for node:http types: instrumentation.ts loads it before the app.
 */

export const UNSUPPORTED_METHODS: ReadonlySet<string> = new Set(["TRACE", "TRACK"]);
export const ALLOWED_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";
export const PEER_HEADER = "x-paperwise-peer";

const SECRET_KEY = Symbol.for("paperwise.peer-secret");
const INSTALLED = Symbol.for("paperwise.server-guard");

type TGlobalWithSecret = typeof globalThis & { [SECRET_KEY]?: string };

/**
 * The per-process secret the peer header is signed with. It lives on globalThis, because Next.js
 * bundles instrumentation and route handlers as separate module graphs in one process.
 */
export function peerSecret(): string {
  const g = globalThis as TGlobalWithSecret;
  if (!g[SECRET_KEY]) {
    const bytes = crypto.getRandomValues(new Uint8Array(18));
    g[SECRET_KEY] = Buffer.from(bytes).toString("base64url");
  }
  return g[SECRET_KEY];
}

/** The secret if a guard installed one in this process (null: no guard, the header means nothing). */
export function installedPeerSecret(): string | null {
  return (globalThis as TGlobalWithSecret)[SECRET_KEY] ?? null;
}

/** The header value the guard writes: `<secret> <address>`. */
export function peerHeaderValue(address: string): string {
  return `${peerSecret()} ${address}`;
}

/**
 * Handles one incoming request: answers 405 for an unsupported method (true: done, Next.js must
 * not see it), otherwise records the socket's address for the app and returns false.
 */
export function guardRequest(req: IncomingMessage, res: ServerResponse): boolean {
  if (UNSUPPORTED_METHODS.has((req.method ?? "").toUpperCase())) {
    const body = JSON.stringify({
      ok: false,
      error: {
        code: "method_not_allowed",
        message: `${req.method} is not supported; use ${ALLOWED_METHODS}`,
      },
    });
    res.writeHead(405, {
      ...Object.fromEntries(BASE_SECURITY_HEADERS.map((h) => [h.key, h.value])),
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(body),
      "Cache-Control": "no-store",
      Allow: ALLOWED_METHODS,
    });
    res.end(body);
    req.resume();
    return true;
  }
  // Node.js keeps headers both as a map and as raw pairs; Next.js reads the map.
  delete req.headers[PEER_HEADER];
  const address = req.socket?.remoteAddress;
  if (address) req.headers[PEER_HEADER] = peerHeaderValue(address);
  return false;
}

/**
 * Puts {@link guardRequest} in front of every `request` event of every HTTP server in this
 * process (once; later calls do nothing). Patching the prototype reaches the server Next.js
 * already created, which instrumentation cannot get hold of otherwise.
 */
export function installServerGuard(serverProto: Server): void {
  const proto = serverProto as Server & { [INSTALLED]?: true };
  if (proto[INSTALLED]) return;
  peerSecret();
  const emit = proto.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
  proto.emit = function guardedEmit(this: Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request" && guardRequest(args[0] as IncomingMessage, args[1] as ServerResponse)) {
      return true;
    }
    return emit.call(this, event, ...args);
  } as Server["emit"];
  proto[INSTALLED] = true;
}
