/**
 * Security headers, in one place for the proxy (pages) and next.config.ts (everything else).
 * Pure and dependency-free: the proxy imports it, and it must not pull server modules in.
 */

/** On every response: no MIME sniffing, no framing, no referrer to other sites, no powerful features. */
export const BASE_SECURITY_HEADERS: readonly { key: string; value: string }[] = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  {
    key: "Permissions-Policy",
    value: "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()",
  },
];

/**
 * API answers are data or downloads, never pages: nothing in them may run or be framed, and an
 * uploaded original opened from the library stays sandboxed even if a browser renders it.
 */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; sandbox";

/**
 * The pages' policy. Scripts run only with this response's nonce (Next.js puts it on its own
 * scripts, read from the request's CSP header) or when loaded by such a script ('strict-dynamic');
 * inline `<script>` injected through content has no nonce and is blocked. Styles allow inline:
 * React renders `style` attributes and the toast/dialog libraries inject `<style>` at run time,
 * and style injection cannot run code. Development adds 'unsafe-eval' (React's dev tooling).
 */
export function pageContentSecurityPolicy(nonce: string, opts: { dev: boolean; https: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${opts.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(opts.https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** A fresh, unguessable nonce per response (128 bits, base64). */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}
