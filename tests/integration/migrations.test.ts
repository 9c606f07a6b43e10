import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { MIGRATIONS_DIR, migrate } from "@/lib/db/migrate";
import { createTestDatabase } from "../support/test-db";

it("an upgrade repairs jsonb values that the old postgres.js setup stored as JSON strings", async () => {
  const target = await createTestDatabase({ migrate: false });
  const before = await mkdtemp(path.join(os.tmpdir(), "paperwise-migrations-"));
  try {
    // The schema as it was before the repair migration.
    const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f < "20261123001401").sort();
    for (const f of files) await cp(path.join(MIGRATIONS_DIR, f), path.join(before, f));
    await migrate(target.db, before);
    const db = target.db;
    await db.query("insert into profiles (email) values ('old@school.example')");
    // What the driver used to write: the document's JSON text, wrapped in a JSON string.
    await db.query(
      `insert into question_sets (user_id, board, grade, subject, title, request, generator, warnings)
       select id, 'B', '1', 'S', 'old set', to_jsonb($1::text), 'offline', to_jsonb('[]'::text) from profiles`,
      [JSON.stringify({ filters: { board: "B" } })],
    );
    expect(await migrate(db)).toContain("20261123001401_jsonb_string_repair.sql");
    const [row] = await db.query<{ request: unknown; t: string; w: string }>(
      "select request, jsonb_typeof(request) as t, jsonb_typeof(warnings) as w from question_sets",
    );
    expect(row).toEqual({ request: { filters: { board: "B" } }, t: "object", w: "array" });
  } finally {
    await target.dispose();
    await rm(before, { recursive: true, force: true });
  }
});
