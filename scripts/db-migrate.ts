/** npm run db:migrate — applies supabase/migrations/*.sql to DATABASE_URL (or the embedded database). */
import { getDb } from "@/lib/db";
import { migrate } from "@/lib/db/migrate";

try {
  const db = await getDb();
  const applied = await migrate(db);
  console.log(`migrations up to date (${db.kind})`, applied ?? "");
  await db.close();
} catch (err) {
  console.error(`db:migrate: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
