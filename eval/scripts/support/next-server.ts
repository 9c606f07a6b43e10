import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

/**
 * `next start` on 127.0.0.1 for the HTTP benchmarks (built first when there is no build), with
 * the offline providers and no rate limit unless `env` says otherwise.
 */
export interface INextServer {
  base: string;
  child: ChildProcess;
  /** The server's log lines (stdout, JSON) that mention ingestion. */
  ingestionLogs: string[];
  /** Resident memory of the server and its forked worker, in MB. */
  rssMb(): number;
  stop(): Promise<void>;
}

export async function startNextServer(port: number, env: Record<string, string>): Promise<INextServer> {
  if (!existsSync(".next/BUILD_ID")) spawnSync("npx", ["next", "build"], { stdio: "inherit" });
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      env: {
        ...process.env,
        PAPERWISE_RATE_LIMIT_PER_MIN: "0",
        PAPERWISE_LOG_LEVEL: "warn",
        PAPERWISE_LLM: "offline",
        PAPERWISE_EMBEDDER: "offline",
        ...env,
      },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const ingestionLogs: string[] = [];
  let partial = "";
  child.stdout!.on("data", (d: Buffer) => {
    const lines = (partial + d.toString()).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) if (line.includes('"ingestion.')) ingestionLogs.push(line);
  });
  const server: INextServer = {
    base,
    child,
    ingestionLogs,
    rssMb() {
      // next start forks its server worker; count the whole process tree.
      const pids = [
        child.pid!,
        ...spawnSync("pgrep", ["-P", String(child.pid)], { encoding: "utf8" })
          .stdout.split("\n")
          .filter(Boolean)
          .map(Number),
      ];
      let kb = 0;
      for (const p of pids) {
        const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"));
        kb += m ? Number(m[1]) : 0;
      }
      return kb / 1024;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    },
  };
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return server;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  await server.stop();
  throw new Error("server did not become ready");
}

export async function login(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`login as ${email} failed: ${res.status}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

export const percentile = (xs: number[], q: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;
