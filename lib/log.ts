import "server-only";
import { getConfig } from "@/lib/config/env";

/** Structured one-line JSON logs. Never pass chunk text or passwords here. */
type TLevel = "debug" | "info" | "warn" | "error";
const ORDER: Record<TLevel | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

function emit(level: TLevel, event: string, fields: Record<string, unknown>): void {
  if (ORDER[level] < ORDER[getConfig().logLevel]) return;
  const line = JSON.stringify({ t: new Date().toISOString(), level, event, ...fields });
  if (level === "error" || level === "warn") console.error(line);
  else console.log(line);
}

export const log = {
  debug: (event: string, fields: Record<string, unknown> = {}) => emit("debug", event, fields),
  info: (event: string, fields: Record<string, unknown> = {}) => emit("info", event, fields),
  warn: (event: string, fields: Record<string, unknown> = {}) => emit("warn", event, fields),
  error: (event: string, fields: Record<string, unknown> = {}) => emit("error", event, fields),
};

/** A loggable description of an unknown error without its stack. */
export function describeError(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`.slice(0, 500);
  return String(err).slice(0, 500);
}
