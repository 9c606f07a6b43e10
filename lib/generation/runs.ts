import "server-only";

/**
 * Generations started with a client `runId`, so the teacher's Stop (`POST /api/generation/stop`)
 * can be told apart from a dropped connection (a reload, a closed tab): only Stop cancels such a
 * run; a run whose reader went away is finished and saved. Per process (one Node server in both
 * modes); keyed by user, so nobody can stop another user's run.
 */
const running = new Map<string, () => void>();
/** Stops that arrived before their run started (Stop pressed while the request was on its way). */
const early = new Map<string, number>();
const EARLY_MS = 60_000;
const MAX_EARLY = 10_000;

const key = (userId: string, runId: string) => `${userId}:${runId}`;

function sweep(now: number) {
  for (const [k, until] of early) if (until <= now) early.delete(k);
  // A flood of stops for runs that never start cannot grow the map without bound.
  while (early.size > MAX_EARLY) {
    const oldest = early.keys().next().value;
    if (oldest === undefined) break;
    early.delete(oldest);
  }
}

/** Registers a run; `stop` is called at once if its Stop came first. Returns the unregister. */
export function registerRun(userId: string, runId: string, stop: () => void): () => void {
  const k = key(userId, runId);
  const now = Date.now();
  sweep(now);
  const stoppedFirst = (early.get(k) ?? 0) > now;
  early.delete(k);
  running.set(k, stop);
  if (stoppedFirst) stop();
  return () => {
    if (running.get(k) === stop) running.delete(k);
  };
}

/** The teacher's Stop: true when a run of theirs with this id was going on (it is cancelled). */
export function stopRun(userId: string, runId: string): boolean {
  const k = key(userId, runId);
  const stop = running.get(k);
  if (stop) {
    running.delete(k);
    stop();
    return true;
  }
  const now = Date.now();
  sweep(now);
  early.set(k, now + EARLY_MS);
  return false;
}
