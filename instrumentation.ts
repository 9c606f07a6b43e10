/**
 * Runs once when the server starts, before the first request: registers what opening the database
 * does on a start (demo seeding, the sweep of interrupted ingestions), which lib/db leaves to its
 * callers.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { registerStartTasks } = await import("@/lib/start");
  registerStartTasks();
}
