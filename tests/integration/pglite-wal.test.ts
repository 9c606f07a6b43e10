import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { openPglite, WAL_LIMIT_MB } from "@/lib/db/pglite";

/**
 * The embedded database keeps its write-ahead log near its limit: PGlite has no checkpointer, so
 * without the periodic CHECKPOINT a large load leaves all of its WAL on disk (issue 26).
 */
let dir = "";
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function walMb(pgDir: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(path.join(pgDir, "pg_wal"))) {
    // A segment the checkpoint removes meanwhile counts as gone.
    const st = await stat(path.join(pgDir, "pg_wal", name)).catch(() => null);
    if (st?.isFile()) total += st.size;
  }
  return total / 1048576;
}

it("checkpoints after a large load: pg_wal falls back under its limit", async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "paperwise-wal-"));
  const pgDir = path.join(dir, "pglite");
  const db = await openPglite(pgDir);
  try {
    await db.exec("create table filler (id int, body text)");
    const lsn = async () =>
      Number(
        (await db.query<{ b: string }>("select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text as b"))[0]
          ?.b,
      ) / 1048576;
    const start = await lsn();
    // About 28 MB of WAL per statement; the periodic check checkpoints between statements.
    for (let i = 0; i < 6; i++)
      await db.query(
        "insert into filler select g, repeat(md5(g::text), 20) from generate_series(1, 40000) g",
      );
    // Far more WAL was written than the limit (it would all still be on disk without checkpoints)…
    expect((await lsn()) - start).toBeGreaterThan(WAL_LIMIT_MB * 1.4);
    const deadline = Date.now() + 30_000;
    while ((await walMb(pgDir)) > WAL_LIMIT_MB + 16 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 250));
    // …and what stays on disk is back under the limit.
    expect(await walMb(pgDir)).toBeLessThanOrEqual(WAL_LIMIT_MB + 16);
    expect((await db.query<{ n: number }>("select count(*)::int as n from filler"))[0]?.n).toBe(240_000);
  } finally {
    await db.close();
  }
});
