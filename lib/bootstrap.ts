import "server-only";
import path from "node:path";
import { getEmbedder } from "@/lib/ai/embedder";
import { seedDemoAccounts } from "@/lib/auth/accounts";
import { getConfig } from "@/lib/config/env";
import type { IDatabase } from "@/lib/db/types";
import { ingestFiles } from "@/lib/ingestion/ingest-files";
import { recoverInterruptedIngestions } from "@/lib/ingestion/store";
import { log } from "@/lib/log";
import { getStorage } from "@/lib/storage";

export const DEMO_DIR = path.join(process.cwd(), "supabase", "seed", "demo");

/**
 * First start of the embedded database: demo accounts and a small sample curriculum, so a new
 * user sees results at once. Every start: ingestions a killed process left behind go back to the
 * queue (or fail after repeated interruptions), for the app's worker to take up.
 */
export async function bootstrapEmbedded(db: IDatabase): Promise<void> {
  const interrupted = await recoverInterruptedIngestions(db);
  if (interrupted.requeued + interrupted.failed > 0) log.warn("ingestion.interrupted", { ...interrupted });
  const [{ n } = { n: 0 }] = await db.query<{ n: number }>("select count(*)::int as n from profiles");
  // PAPERWISE_SEED_DEMO=false is a school's own install: no accounts with published passwords;
  // the first admin comes from `npm run users -- add`.
  const config = getConfig();
  if (n > 0 || !config.seedDemo) return;
  await seedDemoAccounts(db);
  const [admin] = await db.query<{ id: string }>(
    "select id from profiles where role = 'admin' order by created_at limit 1",
  );
  const started = Date.now();
  const results = await ingestFiles(db, getStorage(), getEmbedder(), {
    userId: admin!.id,
    inputs: [path.join(DEMO_DIR, "biology-2e"), path.join(DEMO_DIR, "physics")],
    defaults: { resourceType: "textbook", visibility: "shared" },
    maxBytes: config.maxUploadBytes,
  });
  log.info("demo.seeded", {
    files: results.length,
    failed: results.filter((r) => r.error).length,
    ms: Date.now() - started,
  });
}
