import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Marks work as background (ingestion) so that the embedded database can give the app's requests
 * precedence: PGlite runs one statement at a time for the whole process, in the order they are
 * queued, and a long ingestion would otherwise keep every request waiting (issue 15 finding 3).
 * Statements issued inside `runInBackground` are not counted as the app's own; between its steps
 * the background work calls `IDatabase.yieldToForeground()`.
 */
const background = new AsyncLocalStorage<true>();

export function runInBackground<T>(fn: () => Promise<T>): Promise<T> {
  return background.run(true, fn);
}

export function isBackground(): boolean {
  return background.getStore() === true;
}
