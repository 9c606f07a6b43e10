import { getDb } from "@/lib/db";
import { handle } from "@/lib/http/handler";

/** Liveness + database readiness (Playwright's webServer waits on it). */
export const GET = handle("health", async () => {
  const db = await getDb();
  await db.query("select 1");
  return Response.json({ ok: true, database: db.kind });
});
