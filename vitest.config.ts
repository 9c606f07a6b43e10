import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * Two projects over one set of test modules (tests/support/test-db.ts picks the database):
 * - `pglite`: every unit and integration suite on in-memory embedded PGlite;
 * - `postgres`: the suites that touch the database through the route handlers, run a second time
 *   against the real PostgreSQL + pgvector server at PAPERWISE_TEST_POSTGRES_URL (production
 *   path), plus the row-level-security suite, which needs real roles and so runs only there.
 * `npm test` (scripts/test-all.sh) starts that server when it can; without the URL only `pglite`
 * runs and the runner says so.
 */
const POSTGRES_SUITES = [
  "auth",
  "resources",
  "retrieval",
  "generation",
  "papers",
  "faults",
  "users",
  "accounts",
  "cli",
  "migrations",
  "ingestion-staging",
  "ingestion-queue",
  "resource-subset",
  "question-sets",
  "read-replica",
  "vector-index",
  "section-search",
].map((name) => `tests/integration/${name}.test.ts`);
/** Suites that only mean something on a real server (roles, RLS). */
const POSTGRES_ONLY_SUITES = ["tests/integration/rls.test.ts"];

const postgresUrl = process.env.PAPERWISE_TEST_POSTGRES_URL;

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // `server-only` throws outside the react-server condition; tests run server code directly.
      "server-only": path.resolve(import.meta.dirname, "tests/support/server-only-stub.ts"),
    },
  },
  test: {
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    projects: [
      {
        extends: true,
        test: {
          name: "pglite",
          include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
          exclude: POSTGRES_ONLY_SUITES,
          env: { PAPERWISE_TEST_DB: "pglite" },
        },
      },
      ...(postgresUrl
        ? [
            {
              extends: true as const,
              test: {
                name: "postgres",
                include: [...POSTGRES_SUITES, ...POSTGRES_ONLY_SUITES],
                env: { PAPERWISE_TEST_DB: "postgres", PAPERWISE_TEST_POSTGRES_URL: postgresUrl },
              },
            },
          ]
        : []),
    ],
  },
});
