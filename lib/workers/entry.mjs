// The worker-thread entry of lib/workers/pool.ts: plain JavaScript, loaded from the source tree
// (not from a bundle), so it runs the same under `next dev`, `next start`, tsx CLIs and vitest.
// It registers tsx's loader for this thread and imports the task table written in TypeScript.
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

// A lower CPU priority for this thread only (Linux schedules threads, and setpriority with a
// thread id changes just that thread): when the machine is busy, the thread that serves requests
// runs first and a flood of pool work cannot starve another teacher's retrieval (issue 26).
if (workerData?.nice > 0) {
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (tid > 0) setPriority(tid, workerData.nice);
  } catch {
    // Not Linux (no /proc/thread-self): the worker keeps the process's priority.
  }
}

register({ tsconfig: new URL("../../tsconfig.json", import.meta.url).pathname });
const { TASKS } = await import("./tasks.ts");

function plainError(err) {
  if (err && typeof err === "object") {
    return {
      name: String(err.name ?? "Error"),
      message: String(err.message ?? err),
      code: typeof err.code === "string" ? err.code : undefined,
      details: Array.isArray(err.details) ? err.details : undefined,
    };
  }
  return { name: "Error", message: String(err) };
}

/** The running task's abort controller, by id (a worker runs one task at a time). */
const running = new Map();

parentPort.on("message", async ({ id, kind, args, cancel }) => {
  if (cancel) {
    running.get(id)?.abort(new DOMException("cancelled", "AbortError"));
    return;
  }
  const controller = new AbortController();
  running.set(id, controller);
  try {
    const task = TASKS[kind];
    if (!task) throw new Error(`no such task: ${kind}`);
    const emit = (event) => parentPort.postMessage({ id, event });
    parentPort.postMessage({ id, ok: true, value: await task(args, { emit, signal: controller.signal }) });
  } catch (err) {
    parentPort.postMessage({ id, ok: false, error: plainError(err) });
  } finally {
    running.delete(id);
  }
});
parentPort.postMessage({ ready: true });
