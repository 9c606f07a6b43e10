/**
 * Runs once when a Next.js server starts: the instance begins consuming the ingestion queue, so
 * uploads queued before a restart (or by another instance) are processed without waiting for a
 * new one. Not while `next build` collects pages: the build must not open the database.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { startIngestionWorker } = await import("@/lib/ingestion/queue");
  startIngestionWorker();
}
