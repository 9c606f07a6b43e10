import { getEmbedder } from "@/lib/ai/embedder";
import { createAccount, generatePassword } from "@/lib/auth/accounts";
import { buildConfig, setConfigForProcess } from "@/lib/config/env";
import { getDb } from "@/lib/db";
import { ingestFiles } from "@/lib/ingestion/ingest-files";
import { getStorage } from "@/lib/storage";
import type { TResourceMetadataInput } from "@/schema/resources.schema";

/**
 * The embedded, offline Paperwise the evals and benchmarks run against: a data directory of
 * their own (never the app's), no demo seeding, offline LLM steps, the offline embedder unless
 * PAPERWISE_EMBEDDER says otherwise.
 */
export async function openOfflineWorkspace(dataDir: string, env: Record<string, string> = {}) {
  setConfigForProcess(
    buildConfig({
      ...process.env,
      PAPERWISE_DATA_DIR: dataDir,
      PAPERWISE_SEED_DEMO: "false",
      PAPERWISE_LLM: "offline",
      PAPERWISE_EMBEDDER: process.env.PAPERWISE_EMBEDDER ?? "offline",
      PAPERWISE_LOG_LEVEL: "warn",
      ...env,
    }),
  );
  const db = await getDb();
  // Without demo seeding a new workspace has no account: its resources belong to a bench admin.
  const [admin] = await db.query<{ id: string }>(
    "select id from profiles where role = 'admin' order by created_at limit 1",
  );
  const owner =
    admin ??
    (await createAccount(db, {
      email: "bench@paperwise.local",
      password: generatePassword(),
      role: "admin",
    }));
  const embedder = getEmbedder();
  return {
    db,
    embedder,
    userId: owner.id,
    /** Ingests files/folders as shared textbooks (idempotent); throws if any file fails. */
    async ingest(inputs: string[], defaults: Partial<TResourceMetadataInput> = {}) {
      const results = await ingestFiles(db, getStorage(), embedder, {
        userId: owner.id,
        inputs,
        defaults: { resourceType: "textbook", visibility: "shared", ...defaults },
        maxBytes: 500 * 1024 * 1024,
      });
      const failed = results.filter((r) => r.error);
      if (failed.length)
        throw new Error(`ingestion failed: ${failed.map((f) => `${f.file}: ${f.error}`).join("; ")}`);
      return results;
    },
  };
}
