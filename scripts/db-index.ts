/**
 * npm run db:index -- [--dry-run] [--force] [--drop] [--m 16] [--ef-construction 64]
 *   [--maintenance-work-mem 1GB] [--no-concurrently]
 *
 * HNSW at the crossover (docs/scaling.md): creates the HNSW index on the companion vectors
 * (`chunk_lite`) of DATABASE_URL once a scope (board, grade, subject) is past the crossover that
 * retrieval's `paperwise_vector_candidates` applies (`paperwise.hnsw_min_chunks`, default 100000,
 * and `paperwise.hnsw_min_share`, default 2 % of all chunks), and says why not otherwise. Below it
 * the index would only slow ingestion (each new chunk walks the graph). Built CONCURRENTLY, so
 * ingestion keeps writing meanwhile. Run it again after large loads (cron is fine): it does
 * nothing once the index exists. `--drop` removes it (the exact scan everywhere again).
 */
import { Command } from "commander";
import { getConfig } from "@/lib/config/env";
import { openPostgres } from "@/lib/db/postgres";
import {
  createVectorIndex,
  currentPolicy,
  decideVectorIndex,
  dropVectorIndex,
  HNSW_INDEX,
  scopeSizes,
  vectorIndexBytes,
} from "@/lib/db/vector-index";
import { runCli } from "./support/cli";

const opts = new Command()
  .option("--dry-run", "only say whether the index is due")
  .option("--force", "create it even if no scope is past the crossover")
  .option("--drop", "remove the index")
  .option("--m <n>", "HNSW graph degree", "32")
  .option("--ef-construction <n>", "candidates kept while building", "128")
  .option("--maintenance-work-mem <size>", "memory for the build (the graph should fit)", "1GB")
  .option("--no-concurrently", "build with a lock on writes (faster; ingestion waits)")
  .parse()
  .opts<{
    dryRun?: boolean;
    force?: boolean;
    drop?: boolean;
    m: string;
    efConstruction: string;
    maintenanceWorkMem: string;
    concurrently: boolean;
  }>();

await runCli("db:index", async () => {
  const config = getConfig();
  if (config.database.kind !== "postgres") {
    console.error(
      "db:index: the embedded database keeps the exact scoped scan (one school's scopes are far below the crossover); set DATABASE_URL",
    );
    return 1;
  }
  // One connection: the build's memory setting is the session's.
  const db = openPostgres(config.database.url, { max: 1 });
  try {
    const existing = await vectorIndexBytes(db);
    if (opts.drop) {
      await dropVectorIndex(db);
      console.log(existing === null ? `${HNSW_INDEX}: none to drop` : `${HNSW_INDEX}: dropped`);
      return 0;
    }
    const { scopes, total } = await scopeSizes(db);
    const decision = decideVectorIndex(scopes, total, await currentPolicy(db));
    console.log(`${decision.create ? "due" : "not due"}: ${decision.reason}`);
    if (existing !== null) {
      console.log(`${HNSW_INDEX} exists (${(existing / 1048576).toFixed(0)} MB)`);
      return 0;
    }
    if (opts.dryRun || (!decision.create && !opts.force)) return 0;
    const ms = await createVectorIndex(db, {
      m: Number(opts.m),
      efConstruction: Number(opts.efConstruction),
      maintenanceWorkMem: opts.maintenanceWorkMem,
      concurrently: opts.concurrently,
    });
    const bytes = (await vectorIndexBytes(db)) ?? 0;
    console.log(
      `${HNSW_INDEX} built in ${(ms / 1000).toFixed(1)} s over ${total} chunks, ${(bytes / 1048576).toFixed(0)} MB`,
    );
    return 0;
  } finally {
    await db.close();
  }
});
