import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { resetBreakersForProcess } from "@/lib/ai/provider-guard";
import { setLanguageModelForProcess } from "@/lib/ai/providers";
import { createAccount, seedDemoAccounts } from "@/lib/auth/accounts";
import { resetJwtSecretCache } from "@/lib/auth/secret";
import { issueSession } from "@/lib/auth/sessions";
import { buildConfig, setConfigForProcess } from "@/lib/config/env";
import { setDbForProcess } from "@/lib/db";
import type { IDatabase } from "@/lib/db/types";
import { setRateLimitForProcess } from "@/lib/http/rate-limit";
import { stopIngestionWorker } from "@/lib/ingestion/queue";
import { setStorageForProcess } from "@/lib/storage";
import type { ERole } from "@/types/curriculum.types";
import { createTestDatabase, type TTestDbKind } from "./test-db";

export interface ITestUser {
  id: string;
  email: string;
  role: ERole;
  token: string;
}

export interface ITestEnv {
  /** Which database this run tests: embedded PGlite or the real Postgres server (test-db.ts). */
  kind: TTestDbKind;
  db: IDatabase;
  /** Where a second connection finds the same database (test-db.ts `open`); "" for in-memory PGlite. */
  location: string;
  dataDir: string;
  admin: ITestUser;
  teacher: ITestUser;
  otherTeacher: ITestUser;
  close(): Promise<void>;
}

/**
 * A real, fresh database (in-memory PGlite, or a new database on the real Postgres server in the
 * Postgres pass: see test-db.ts) with migrations, demo accounts and a second teacher, a temp data
 * dir for stored files, offline providers. Route handlers imported by the test use it through the
 * normal `getDb()`/`getStorage()` paths.
 */
export async function createTestEnv(env: Record<string, string> = {}): Promise<ITestEnv> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "paperwise-test-"));
  const testDb = await createTestDatabase();
  setConfigForProcess(
    buildConfig({
      NODE_ENV: "test",
      ...testDb.env,
      PAPERWISE_DATA_DIR: dataDir,
      PAPERWISE_SEED_DEMO: "false",
      PAPERWISE_LLM: "offline",
      PAPERWISE_EMBEDDER: "offline",
      PAPERWISE_LOG_LEVEL: "silent",
      PAPERWISE_JWT_SECRET: "test-secret-test-secret-test-secret-0123456789",
      ...env,
    }),
  );
  resetJwtSecretCache();
  setStorageForProcess(null);
  setLanguageModelForProcess(undefined);
  resetBreakersForProcess();
  setRateLimitForProcess(null);
  const db = testDb.db;
  await seedDemoAccounts(db);
  setDbForProcess(db);
  const other = await createAccount(db, {
    email: "teacher2@paperwise.local",
    password: "paperwise-teacher2",
    role: "teacher",
  });
  const users = await db.query<{ id: string; email: string; role: ERole }>(
    "select id, email, role from profiles",
  );
  const make = async (email: string): Promise<ITestUser> => {
    const u = users.find((x) => x.email === email) ?? { ...other, role: other.role };
    return {
      id: u.id,
      email: u.email,
      role: u.role,
      token: (await issueSession(db, u)).accessToken,
    };
  };
  return {
    kind: testDb.kind,
    db,
    location: testDb.location,
    dataDir,
    admin: await make("admin@paperwise.local"),
    teacher: await make("teacher@paperwise.local"),
    otherTeacher: await make("teacher2@paperwise.local"),
    async close() {
      // The process's queue worker uses this database: it finishes and stops first.
      await stopIngestionWorker();
      setDbForProcess(undefined);
      await testDb.dispose();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface IRequestOptions {
  token?: string;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  /** Aborted when the client goes away (Next.js aborts `request.signal` when the connection closes). */
  signal?: AbortSignal;
}

/** A Request as Next.js would hand it to a route handler. */
export function makeRequest(method: string, url: string, opts: IRequestOptions = {}): Request {
  const headers = new Headers(opts.headers);
  if (opts.token) headers.set("authorization", `Bearer ${opts.token}`);
  let body = opts.body;
  if (opts.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(opts.json);
  }
  return new Request(new URL(url, "http://localhost"), { method, headers, body, signal: opts.signal });
}

export function params<T extends Record<string, string>>(p: T): { params: Promise<T> } {
  return { params: Promise.resolve(p) };
}

/** Text that shows server internals: a stack frame or a source path. */
export const STACK_TRACE = /\bat [\w.<>]+ \(|node_modules|\.tsx?:\d+/;

/**
 * Row counts (and paper revisions) of everything a request can write, as one comparable string:
 * a refused request must leave it unchanged.
 */
export async function dbSnapshot(db: IDatabase): Promise<string> {
  const [row] = await db.query(
    `select (select count(*)::int from profiles) as profiles, (select count(*)::int from ingestions) as ingestions,
       (select count(*)::int from documents) as documents, (select count(*)::int from document_chunks) as chunks,
       (select count(*)::int from api_tokens) as tokens, (select count(*)::int from question_sets) as sets,
       (select count(*)::int from questions) as questions, (select count(*)::int from papers) as papers,
       (select coalesce(sum(version), 0)::int from papers) as paper_versions`,
  );
  return JSON.stringify(row);
}
