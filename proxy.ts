import { type NextRequest, NextResponse } from "next/server";
import { newNonce, pageContentSecurityPolicy } from "@/lib/http/security-headers";

/**
 * Pages get a nonce-based Content-Security-Policy, new on every request. Next.js reads the nonce
 * from the CSP header on the request and puts it on its scripts, which is why every page renders
 * dynamically (see app/layout.tsx). HSTS is sent when the request came over HTTPS.
 */
export function proxy(request: NextRequest) {
  const nonce = newNonce();
  const https =
    request.nextUrl.protocol === "https:" ||
    request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https";
  // NODE_ENV is fixed by Next.js at build time; the proxy cannot use lib/config (server-only).
  const csp = pageContentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === "development", https });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", csp);
  if (https) response.headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  return response;
}

export const config = {
  matcher: [
    {
      // Not the API (its headers come from next.config.ts; running the proxy there would also make
      // Next.js buffer every upload body for it) and not static files.
      source: "/((?!api/|_next/static|_next/image|favicon.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
