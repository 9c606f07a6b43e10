/**
 * npm run reembed -- [--all]
 *
 * Re-ingests every ready resource whose chunks were embedded by another model than the one now
 * configured (after switching PAPERWISE_EMBEDDER / PAPERWISE_EMBEDDING_MODEL), the same way the
 * library's Re-ingest does: from the stored original, each published in one short step. Retrieval
 * only compares a query with vectors of its own model, so until then those resources are found by
 * keywords alone. --all re-ingests every ready resource. Embedded data dir (server stopped) or
 * DATABASE_URL.
 */
import { Command } from "commander";
import { getEmbedder } from "@/lib/ai/embedder";
import { getDb } from "@/lib/db";
import { processIngestion } from "@/lib/ingestion/pipeline";
import { claimIngestion } from "@/lib/ingestion/store";
import { workerId } from "@/lib/ingestion/worker";
import { registerStartTasks } from "@/lib/start";
import { getStorage } from "@/lib/storage";
import { runCli } from "./support/cli";

const opts = new Command()
  .name("reembed")
  .option("--all", "re-ingest every ready resource, whatever its model")
  .parse()
  .opts<{ all?: boolean }>();

await runCli(
  "reembed",
  async () => {
    registerStartTasks();
    const db = await getDb();
    const embedder = getEmbedder();
    const stale = await db.query<{ id: string; title: string; embedding_model: string }>(
      `select i.id, i.title, d.embedding_model from ingestions i join documents d on d.ingestion_id = i.id
       where i.status = 'ready' and ($1 or d.embedding_model <> $2) order by i.created_at`,
      [opts.all === true, embedder.modelId],
    );
    console.log(`${stale.length} resources to re-embed with ${embedder.modelId}`);
    let failed = 0;
    const self = workerId();
    for (const [n, row] of stale.entries()) {
      const label = `${n + 1}/${stale.length} ${row.title} (${row.embedding_model})`;
      // Claimed for this process, so no queue worker takes it meanwhile; skipped if one has it.
      if (!(await claimIngestion(db, row.id, self))) {
        console.log(`= ${label}: being processed elsewhere`);
        continue;
      }
      const result = await processIngestion(db, getStorage(), embedder, row.id);
      if (result.status === "ready") console.log(`${label}: ${result.chunk_count} chunks`);
      else {
        failed++;
        console.error(`✗ ${label}: ${result.error}`);
      }
    }
    return failed > 0 ? 1 : 0;
  },
  { whileServerRuns: "use Re-ingest in the library while it runs" },
);
