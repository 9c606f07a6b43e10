/** npm run bench — every benchmark in turn: ingestion, retrieval (two books + 50k scale-up), generation, paper exports. */
import { spawnSync } from "node:child_process";

for (const name of ["bench:ingest", "bench:retrieval", "bench:generation", "bench:papers"]) {
  console.log(`\n# npm run ${name}`);
  const r = spawnSync("npm", ["run", "--silent", name], { stdio: "inherit" });
  if (r.status !== 0) process.exitCode = 1;
}
