import "server-only";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { getConfig } from "@/lib/config/env";

let cached: Uint8Array | null = null;

/**
 * The HS256 signing secret. Supabase mode uses the project's JWT secret; embedded mode
 * generates one on first use and keeps it in the data directory so sessions survive restarts.
 */
export function getJwtSecret(): Uint8Array {
  if (cached) return cached;
  const config = getConfig();
  if (config.auth.jwtSecret) {
    cached = new TextEncoder().encode(config.auth.jwtSecret);
    return cached;
  }
  const file = path.join(config.dataDir, "jwt-secret");
  let secret: string;
  try {
    secret = readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(config.dataDir, { recursive: true });
    secret = randomBytes(48).toString("base64url");
    writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
  }
  cached = new TextEncoder().encode(secret);
  return cached;
}

export function resetJwtSecretCache(): void {
  cached = null;
}
