/**
 * Runs once when a Next.js server starts, before the first request. It registers what opening the
 * database does on a start (demo seeding, interrupted ingestions back to the queue), which lib/db
 * leaves to its callers; starts this instance's consumer of the shared ingestion queue, so uploads
 * queued before a restart (or by another instance) are processed without waiting for a new one;
 * and opens the database right away: the embedded mode's migrations and first-start demo seeding
 * (seconds) happen while nobody waits, not behind the first teacher's "Signing in…". The open is
 * not awaited: pages are served meanwhile, and a request that needs the database waits on the
 * same open (getDb keeps one promise per process).
 */
export async function register(): Promise<void> {
  // The Edge runtime has no database; `next build` must not open (or lock) the data directory.
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  // First, before any request: TRACE/TRACK answer 405 instead of crashing Next.js's Request, and
  // the socket's address reaches the sign-in throttle (lib/http/server-guard.ts).
  (await import("@/lib/http/install-server-guard")).installOnNodeServer();
  const [{ registerStartTasks }, { getDb }, { startIngestionWorker }, { describeError, log }] =
    await Promise.all([
      import("@/lib/start"),
      import("@/lib/db"),
      import("@/lib/ingestion/queue"),
      import("@/lib/log"),
    ]);
  registerStartTasks();
  startIngestionWorker();
  const started = Date.now();
  getDb().then(
    () => log.info("db.ready", { ms: Date.now() - started }),
    // A failed open is not cached: the first request tries again and reports its own error.
    (err: unknown) => log.warn("db.open_failed_at_start", { error: describeError(err) }),
  );
}
