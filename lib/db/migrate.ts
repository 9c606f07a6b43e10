import "server-only";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { IDatabase } from "./types";

export const MIGRATIONS_DIR = path.join(process.cwd(), "supabase", "migrations");

/**
 * Applies `supabase/migrations/*.sql` in name order, each in its own transaction, recording
 * each in `paperwise_migrations`. Already-applied files are skipped, so running it twice is a no-op.
 */
export async function migrate(db: IDatabase, dir = MIGRATIONS_DIR): Promise<string[]> {
  await db.exec(
    `create table if not exists public.paperwise_migrations (
       name text primary key,
       applied_at timestamptz not null default now()
     )`,
  );
  const applied = new Set(
    (await db.query<{ name: string }>("select name from public.paperwise_migrations")).map((r) => r.name),
  );
  // `dir` is a parameter (tests pass their own): the ignore comments keep the build from tracing
  // the whole project for it; next.config.ts includes supabase/migrations in the output instead.
  const files = (await readdir(/*turbopackIgnore: true*/ dir)).filter((f) => f.endsWith(".sql")).sort();
  const ran: string[] = [];
  for (const file of files) {
    if (applied.has(file)) continue;
    const sql = await readFile(path.join(/*turbopackIgnore: true*/ dir, file), "utf8");
    await db.transaction(async (tx) => {
      await tx.exec(sql);
      await tx.query("insert into public.paperwise_migrations (name) values ($1)", [file]);
    });
    ran.push(file);
  }
  return ran;
}
