/**
 * npm run token -- [--email admin@paperwise.local] [--api --scopes retrieval:read,generation:write --days 30]
 * Prints a bearer token: a session JWT (default, 12 h; POST /api/auth/logout with it ends it) or a
 * personal API token (--api).
 */

import { Command } from "commander";
import { createApiToken } from "@/lib/auth/api-tokens";
import { issueSession } from "@/lib/auth/sessions";
import { getDb } from "@/lib/db";
import { registerStartTasks } from "@/lib/start";
import { API_SCOPES } from "@/schema/enums.schema";
import type { TApiScope } from "@/types/auth.types";
import type { ERole } from "@/types/curriculum.types";
import { runCli } from "./support/cli";

const opts = new Command()
  .option("--email <email>", "account", "admin@paperwise.local")
  .option("--api", "create a personal API token instead of a session JWT")
  .option("--scopes <list>", "API token scopes", API_SCOPES.join(","))
  .option("--days <n>", "API token lifetime in days", "30")
  .parse()
  .opts<{ email: string; api?: boolean; scopes: string; days: string }>();

await runCli(
  "token",
  async () => {
    registerStartTasks();
    const db = await getDb();
    const [user] = await db.query<{ id: string; email: string; role: ERole }>(
      "select id, email, role from profiles where email = $1",
      [opts.email.toLowerCase()],
    );
    if (!user) throw new Error(`No account ${opts.email}`);
    if (opts.api) {
      const scopes = opts.scopes.split(",").map((s) => s.trim()) as TApiScope[];
      const bad = scopes.filter((s) => !API_SCOPES.includes(s));
      if (bad.length) throw new Error(`Unknown scopes: ${bad.join(", ")} (known: ${API_SCOPES.join(", ")})`);
      const { token } = await createApiToken(db, {
        userId: user.id,
        name: "cli",
        scopes,
        expiresInDays: Number(opts.days),
      });
      console.log(token);
    } else {
      console.log((await issueSession(db, user)).accessToken);
    }
    return 0;
  },
  { whileServerRuns: "sign in and create a token in Settings → API" },
);
