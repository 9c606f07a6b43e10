// Starts `next start` for Playwright on a fresh embedded database (demo accounts + demo chapters).
// Builds first unless PW_SKIP_BUILD=1 and a build exists.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const port = process.env.E2E_PORT ?? "3100";
if (!(process.env.PW_SKIP_BUILD === "1" && existsSync(".next/BUILD_ID"))) {
  const build = spawnSync("npx", ["next", "build"], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const dataDir = mkdtempSync(path.join(os.tmpdir(), "paperwise-e2e-"));
const child = spawn("npx", ["next", "start", "-p", port, "-H", "127.0.0.1"], {
  stdio: "inherit",
  env: {
    ...process.env,
    PAPERWISE_DATA_DIR: dataDir,
    PAPERWISE_LOG_LEVEL: "warn",
    PAPERWISE_RATE_LIMIT_PER_MIN: "0",
    // Test-only: requests with `x-paperwise-e2e-model: slow` get a slow streaming model for their
    // questions (lib/ai/e2e-slow-model.ts); every other request stays offline.
    PAPERWISE_E2E_SLOW_MODEL: "true",
  },
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));
