import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticatePassword } from "@/lib/auth/accounts";
import { createTestDatabase, type ITestDatabase, open, testDbKind } from "../support/test-db";

/**
 * The CLIs as a school's admin runs them (`npm run users|ingest|reembed|token|db:migrate`), spawned as
 * real processes against this run's database (embedded data dir, or DATABASE_URL in the Postgres
 * pass). Each must finish on its own: a CLI that leaves its database open never exits, which the
 * timeout turns into a failure.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const EXIT_WITHIN_MS = 45_000;

interface IRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

let target: ITestDatabase;
let dataDir: string;

function cli(script: string, args: string[], env: Record<string, string> = {}): Promise<IRun> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "--conditions=react-server", `scripts/${script}.ts`, ...args],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          ...target.env,
          PAPERWISE_DATA_DIR: dataDir,
          PAPERWISE_SEED_DEMO: "false",
          PAPERWISE_LOG_LEVEL: "silent",
          ...env,
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), EXIT_WITHIN_MS);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A failure is one readable line on stderr: no stack trace, no source paths. */
function expectCleanFailure(run: IRun, message: RegExp): void {
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
  expect(run.stderr).toMatch(message);
  expect(run.stderr).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "paperwise-cli-"));
  target = await createTestDatabase({ dir: path.join(dataDir, "pglite") });
  // The CLIs open the database themselves; an embedded one must be released first.
  await target.db.close();
});
afterAll(async () => {
  await target.dispose();
  await rm(dataDir, { recursive: true, force: true });
});

describe("CLIs exit, non-zero on error, with their database closed", () => {
  it("ingest without any admin account says how to create one and exits 1", async () => {
    const run = await cli("ingest", ["supabase/seed/demo/physics"]);
    expectCleanFailure(run, /^ingest: No admin account; create one first: npm run users -- add/m);
  });

  it("token, users and db:migrate fail cleanly on bad input and succeed otherwise", async () => {
    expectCleanFailure(await cli("token", ["--email", "nobody@school.example"]), /token: No account nobody/);
    expectCleanFailure(
      await cli("users", ["set-role", "--email", "nobody@school.example", "--role", "admin"]),
      /users set-role: No account nobody@school.example/,
    );
    expectCleanFailure(
      await cli("users", ["add", "--email", "a@school.example", "--role", "admin", "--password", "short"]),
      /--password: Use at least 8 characters/,
    );
    const badRole = await cli("users", ["add", "--email", "a@school.example", "--role", "owner"]);
    expect(badRole.code).toBe(1);
    expect(badRole.stderr).toMatch(/Allowed choices are teacher, admin/);
    const migrated = await cli("db-migrate", []);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toMatch(/migrations up to date \((pglite|postgres)\)/);
  });

  it("a database that cannot be reached is one line and exit 1, not a hang", async () => {
    const run = await cli("users", ["list"], { DATABASE_URL: "postgres://postgres@127.0.0.1:1/paperwise" });
    expectCleanFailure(run, /users list: .*ECONNREFUSED/);
  });
});

describe("npm run users", () => {
  it("adds, lists, re-roles and resets accounts that then sign in", async () => {
    const head = await cli("users", ["add", "--email", "Head@School.example", "--role", "admin"]);
    expect(head.code, head.stderr).toBe(0);
    expect(head.stdout).toMatch(/created admin head@school\.example/);
    const generated = /password: (\S+)/.exec(head.stdout)?.[1];
    expect(generated).toMatch(/^[\w-]{16}$/);

    const teacher = await cli("users", [
      "add",
      "--email",
      "t1@school.example",
      "--role",
      "teacher",
      "--password",
      "teacher-pass-1",
    ]);
    expect(teacher.code, teacher.stderr).toBe(0);
    expect(teacher.stdout).not.toMatch(/password:/);

    const promoted = await cli("users", ["set-role", "--email", "t1@school.example", "--role", "admin"]);
    expect(promoted.stdout).toMatch(/t1@school\.example is now admin/);
    const reset = await cli("users", ["reset-password", "--email", "t1@school.example"]);
    expect(reset.code, reset.stderr).toBe(0);
    const newPassword = /password: (\S+)/.exec(reset.stdout)?.[1];

    const listed = await cli("users", ["list"]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/head@school\.example\s+admin\s+password/);
    expect(listed.stdout).toMatch(/t1@school\.example\s+admin\s+password/);

    const db = await open(target.location);
    try {
      expect((await authenticatePassword(db, "head@school.example", generated!)).role).toBe("admin");
      expect((await authenticatePassword(db, "t1@school.example", newPassword!)).role).toBe("admin");
      await expect(authenticatePassword(db, "t1@school.example", "teacher-pass-1")).rejects.toThrow(
        /Wrong email or password/,
      );
      await db.query("update profiles set disabled_at = now() where email = 't1@school.example'");
    } finally {
      await db.close();
    }
    // A disabled account (the Users page disables) says so in the list.
    const relisted = await cli("users", ["list"]);
    expect(relisted.stdout).toMatch(/t1@school\.example\s+admin\s+password\s+\S+\s+disabled \d{4}-\d\d-\d\d/);

    // Now there is an admin: the same ingest that failed above runs to the end and exits 0.
    const ingest = await cli("ingest", [
      ...["--board", "OpenStax", "--grade", "11", "--subject", "Physics", "--chapter", "1"],
      "supabase/seed/demo/physics/ch01-what-is-physics.md",
    ]);
    expect(ingest.code, ingest.stderr).toBe(0);
    expect(ingest.stdout).toMatch(/1 of 1 files ready, \d+ chunks/);
    const reembed = await cli("reembed", ["--all"]);
    expect(reembed.code, reembed.stderr).toBe(0);
    expect(reembed.stdout).toMatch(/1 resources to re-embed with paperwise-offline/);
    expect(reembed.stdout).toMatch(/1\/1 .+: \d+ chunks/);
    // Ten CLI processes one after another: a busy machine needs more than the default minute.
  }, 180_000);
});

// Only embedded mode has a data directory a server can hold; a server database has no such lock.
if (testDbKind() === "pglite") {
  describe("embedded data directory held by the app server", () => {
    it("users CLI says the server holds it and what to do instead", async () => {
      const server = await open(target.location);
      try {
        const run = await cli("users", ["list"]);
        expectCleanFailure(
          run,
          new RegExp(
            `is in use by process ${process.pid} \\(the app server\\?\\)\\. Stop it first, or manage accounts on the Users page`,
          ),
        );
      } finally {
        await server.close();
      }
    });
  });
}
