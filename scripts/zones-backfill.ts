/**
 * npm run zones:backfill -- [--batch 500]
 *
 * Stores the zones (lib/ingestion/zones.ts) of chunks ingested before zones existed, reading each
 * chunk's text with its section path as the heading trail. Readers already classify such chunks on
 * the fly; this makes it once. A re-ingest (library's Re-ingest, `npm run reembed -- --all`)
 * stores zones from the whole document instead, which sees a box's title even when a chunk
 * starts inside it. Embedded data dir (server stopped) or DATABASE_URL.
 */
import { Command } from "commander";
import { getDb } from "@/lib/db";
import { backfillZones } from "@/lib/ingestion/zones-backfill";
import { runCli } from "./support/cli";

const opts = new Command()
  .name("zones:backfill")
  .option("--batch <n>", "chunks per transaction", "500")
  .parse()
  .opts<{ batch: string }>();

await runCli(
  "zones:backfill",
  async () => {
    const db = await getDb();
    const batch = Math.max(1, Math.min(5000, Number(opts.batch) || 500));
    const done = await backfillZones(db, batch, (n) => console.log(`${n} chunks zoned`));
    console.log(done === 0 ? "every chunk already has its zones" : `done: ${done} chunks`);
    return 0;
  },
  { whileServerRuns: "stop the server first (the embedded database has one process)" },
);
