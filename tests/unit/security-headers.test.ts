import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import nextConfig from "@/next.config";
import { proxy, config as proxyConfig } from "@/proxy";

/** Finding 6: security headers on every response, with a nonce-based CSP on pages. */

const directives = (csp: string) =>
  Object.fromEntries(
    csp.split(";").map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name!, values];
    }),
  );

describe("proxy: nonce-based CSP on pages", () => {
  it("sets a fresh nonce on the response and on the request Next.js renders with", () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const res = proxy(new NextRequest("http://localhost:3000/papers"));
      const csp = res.headers.get("content-security-policy")!;
      const d = directives(csp);
      const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
      expect(nonce).toBeDefined();
      nonces.add(nonce!);
      expect(d["script-src"]).toEqual(["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"]);
      expect(d["script-src"]).not.toContain("'unsafe-inline'");
      expect(d["frame-ancestors"]).toEqual(["'none'"]);
      expect(d["object-src"]).toEqual(["'none'"]);
      expect(d["base-uri"]).toEqual(["'self'"]);
      expect(d["form-action"]).toEqual(["'self'"]);
      // Next.js reads the nonce from the CSP header of the (rewritten) request.
      expect(res.headers.get("x-middleware-request-content-security-policy")).toBe(csp);
      expect(res.headers.get("x-middleware-request-x-nonce")).toBe(nonce);
      expect(res.headers.get("strict-transport-security")).toBeNull();
      expect(csp).not.toContain("upgrade-insecure-requests");
    }
    expect(nonces.size).toBe(5);
  });

  it("behind HTTPS adds HSTS and upgrade-insecure-requests", () => {
    const res = proxy(
      new NextRequest("http://localhost:3000/", { headers: { "x-forwarded-proto": "https" } }),
    );
    expect(res.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
    expect(res.headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
  });

  it("runs on pages but not on the API (whose uploads Next.js would otherwise buffer) or static files", () => {
    const [matcher] = proxyConfig.matcher;
    const re = new RegExp(`^${matcher!.source}$`);
    for (const p of ["/", "/papers", "/papers/123", "/library", "/login", "/api-reference", "/nope"])
      expect(re.test(p), p).toBe(true);
    for (const p of [
      "/api/resources",
      "/api/auth/login",
      "/_next/static/chunks/a.js",
      "/_next/image",
      "/favicon.ico",
    ])
      expect(re.test(p), p).toBe(false);
  });
});

describe("next.config.ts headers on every other response", () => {
  it("sends nosniff, DENY framing, a same-origin referrer policy everywhere and a locked-down CSP on the API", async () => {
    const rules = await nextConfig.headers!();
    const all = rules.find((r) => r.source === "/:path*")!;
    const api = rules.find((r) => r.source === "/api/:path*")!;
    const get = (r: typeof all, key: string) => r.headers.find((h) => h.key === key)?.value;
    expect(get(all, "X-Content-Type-Options")).toBe("nosniff");
    expect(get(all, "X-Frame-Options")).toBe("DENY");
    expect(get(all, "Referrer-Policy")).toBe("same-origin");
    expect(get(all, "Permissions-Policy")).toContain("camera=()");
    expect(directives(get(api, "Content-Security-Policy")!)).toMatchObject({
      "default-src": ["'none'"],
      "frame-ancestors": ["'none'"],
      sandbox: [],
    });
  });
});
