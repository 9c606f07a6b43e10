/** npm run db:migrate — applies supabase/migrations/*.sql to DATABASE_URL (or the embedded database). */
import { openDatabase, setDbForProcess } from "@/lib/db";
import { migrate } from "@/lib/db/migrate";
import { runCli } from "./support/cli";

await runCli("db:migrate", async () => {
  // No start-up work: on a new server database the tables it would touch do not exist yet.
  const db = await openDatabase({ bootstrap: false });
  setDbForProcess(db);
  const applied = await migrate(db);
  console.log(`migrations up to date (${db.kind})${applied.length ? `: applied ${applied.join(", ")}` : ""}`);
  return 0;
});
