import "server-only";
import os from "node:os";
import path from "node:path";
import type { Worker as TWorker } from "node:worker_threads";
import { getConfig } from "@/lib/config/env";
import { AppError, type TErrorCode } from "@/lib/errors";
import { describeError, log } from "@/lib/log";
import type { ITaskContext, TTaskKind, TTasks } from "./tasks";

/**
 * CPU-heavy work off the thread that serves requests: a small pool of worker threads
 * (node:worker_threads) that run the tasks of `tasks.ts` — text extraction, chunking, export
 * rendering. One hostile file then costs one worker, not every teacher's requests.
 *
 * - Size: PAPERWISE_POOL_THREADS, or the CPU count minus one (at least 1, at most 4); workers
 *   start on first use and stay.
 * - Each task has a time limit (PAPERWISE_POOL_TASK_TIMEOUT_MS) and each worker a heap limit
 *   (PAPERWISE_POOL_MEMORY_MB, `resourceLimits`): past either, that worker is stopped and
 *   replaced, and only that task fails, with a message a person can act on (422).
 * - Tasks wait in a FIFO queue while every worker is busy.
 * - The entry (`entry.mjs`) is plain JavaScript loaded from the source tree with tsx's loader,
 *   so the same code runs under `next dev`, `next start`, the tsx CLIs and vitest. If it cannot
 *   be loaded (tsx not installed), the pool says so once in the log and runs tasks inline.
 *
 * Why not piscina: it would need the same loader set-up for TypeScript tasks and a worker file
 * outside Next.js's bundle; its extra features (atomics wake-ups, task transfer lists) are not
 * needed for a few tasks per upload or export.
 */

type TArgs<K extends TTaskKind> = Parameters<TTasks[K]>[0];
type TResult<K extends TTaskKind> = Awaited<ReturnType<TTasks[K]>>;

interface IJob {
  id: number;
  kind: TTaskKind;
  args: unknown;
  /** Events a streaming task sends before its result. */
  onEvent?: (event: unknown) => void;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

interface ISlot {
  worker: TWorker;
  /** The entry has loaded its tasks: the time limit of a task starts from here. */
  ready: boolean;
  job: IJob | null;
  timer: ReturnType<typeof setTimeout> | null;
}

interface IWorkerReply {
  id: number;
  /** An event of a streaming task (the task goes on). */
  event?: unknown;
  ok?: boolean;
  value?: unknown;
  error?: { name: string; message: string; code?: string; details?: { path?: string; message: string }[] };
}

const ENTRY = path.join(process.cwd(), "lib", "workers", "entry.mjs");

/**
 * `worker_threads` fetched at run time: Next.js's bundler follows `new Worker(path)` from a
 * static import and would bundle the entry (and tsx, and esbuild's binary) into the server build.
 */
function workerClass(): typeof TWorker {
  return (process.getBuiltinModule("node:worker_threads") as typeof import("node:worker_threads")).Worker;
}

/** What a task is called in messages. */
const TASK_LABEL: Record<TTaskKind, string> = {
  extract: "Reading the file",
  chunk: "Splitting the text into passages",
  embed: "Embedding the passages",
  export: "Rendering the export",
  generate: "Writing the questions",
  runPrepare: "Reading the passages for the set",
  runGate: "Checking a question",
  runFill: "Writing a question offline",
  support: "Reading what the passages can support",
  spin: "The test task",
};

export interface IPoolOptions {
  threads: number;
  taskTimeoutMs: number;
  memoryMb: number;
  /** Niceness of each worker thread (0 = as the process); Linux only, elsewhere ignored. */
  nice?: number;
  /** Tests: another worker entry (one that cannot load shows the inline fallback). */
  entry?: string;
}

export interface IPoolStats {
  threads: number;
  busy: number;
  queued: number;
  /** Workers stopped for a time or memory limit since start. */
  stopped: number;
  inline: boolean;
  /** Tasks a worker thread finished (not inline), by kind, since start. */
  ran: Partial<Record<TTaskKind, number>>;
}

export class WorkerPool {
  private readonly slots: ISlot[] = [];
  private readonly queue: IJob[] = [];
  private nextId = 1;
  private stopped = 0;
  private readonly ran: Partial<Record<TTaskKind, number>> = {};
  private inline = false;
  private closed = false;

  constructor(readonly options: IPoolOptions) {}

  run<K extends TTaskKind>(kind: K, args: TArgs<K>): Promise<TResult<K>> {
    return this.submit(kind, args);
  }

  /**
   * A task that reports events while it works (`emit` in tasks.ts), forwarded to `onEvent` in
   * order. When `signal` aborts, the task is told to stop (its own AbortSignal aborts).
   */
  stream<K extends TTaskKind>(
    kind: K,
    args: TArgs<K>,
    onEvent: (event: unknown) => void,
    signal?: AbortSignal,
  ): Promise<TResult<K>> {
    return this.submit(kind, args, onEvent, signal);
  }

  private submit<K extends TTaskKind>(
    kind: K,
    args: TArgs<K>,
    onEvent?: (event: unknown) => void,
    signal?: AbortSignal,
  ): Promise<TResult<K>> {
    if (this.closed) return Promise.reject(new Error("the worker pool is closed"));
    if (this.inline) return runInline(kind, args, onEvent, signal);
    return new Promise<TResult<K>>((resolve, reject) => {
      const job: IJob = {
        id: this.nextId++,
        kind,
        args,
        ...(onEvent ? { onEvent } : {}),
        resolve: resolve as (value: unknown) => void,
        reject,
      };
      signal?.addEventListener(
        "abort",
        () => {
          const queued = this.queue.indexOf(job);
          if (queued >= 0) {
            this.queue.splice(queued, 1);
            reject(signal.reason);
            return;
          }
          this.slots.find((s) => s.job === job)?.worker.postMessage({ id: job.id, cancel: true });
        },
        { once: true },
      );
      this.queue.push(job);
      this.dispatch();
    });
  }

  stats(): IPoolStats {
    return {
      threads: this.options.threads,
      busy: this.slots.filter((s) => s.job).length,
      queued: this.queue.length,
      stopped: this.stopped,
      inline: this.inline,
      ran: { ...this.ran },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error("the worker pool is closed"));
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => !s.job);
      if (!slot && this.slots.length < this.options.threads) slot = this.spawn();
      if (!slot) return;
      const job = this.queue.shift()!;
      this.start(slot, job);
    }
  }

  private spawn(): ISlot {
    const Worker = workerClass();
    const worker = new Worker(this.options.entry ?? ENTRY, {
      // `server-only` resolves to its empty server build, as in the app's server bundles.
      execArgv: ["--conditions=react-server"],
      resourceLimits: { maxOldGenerationSizeMb: this.options.memoryMb },
      env: process.env,
      workerData: { nice: this.options.nice ?? 0 },
    });
    // An idle worker does not keep the process alive; a busy one does (see start/finish).
    worker.unref();
    const slot: ISlot = { worker, ready: false, job: null, timer: null };
    const bornAt = performance.now();
    worker.on("message", (msg: IWorkerReply | { ready: true }) => {
      if ("ready" in msg) {
        slot.ready = true;
        log.debug("pool.worker_ready", { ms: Math.round(performance.now() - bornAt) });
        if (slot.job) this.startTimer(slot, slot.job);
        return;
      }
      this.finish(slot, msg);
    });
    worker.on("error", (err: Error & { code?: string }) => {
      if (!slot.ready && err.code !== "ERR_WORKER_OUT_OF_MEMORY") return this.fallBackInline(slot, err);
      const job = slot.job;
      this.remove(slot);
      if (job) job.reject(this.limitError(job, err.code === "ERR_WORKER_OUT_OF_MEMORY" ? "memory" : err));
    });
    worker.on("exit", () => {
      const job = slot.job;
      this.remove(slot);
      if (job) job.reject(this.limitError(job, new Error("the worker stopped")));
    });
    this.slots.push(slot);
    return slot;
  }

  private start(slot: ISlot, job: IJob): void {
    slot.job = job;
    slot.worker.ref();
    // A new worker takes the message once its tasks are loaded; its clock starts then.
    if (slot.ready) this.startTimer(slot, job);
    slot.worker.postMessage({ id: job.id, kind: job.kind, args: job.args });
  }

  private startTimer(slot: ISlot, job: IJob): void {
    slot.timer = setTimeout(() => {
      if (slot.job !== job) return;
      slot.job = null;
      this.stopped++;
      log.warn("pool.task_timeout", { kind: job.kind, timeoutMs: this.options.taskTimeoutMs });
      job.reject(this.limitError(job, "time"));
      this.remove(slot);
      void slot.worker.terminate();
    }, this.options.taskTimeoutMs);
  }

  private finish(slot: ISlot, reply: IWorkerReply): void {
    const job = slot.job;
    if (!job || job.id !== reply.id) return;
    if ("event" in reply) {
      job.onEvent?.(reply.event);
      return;
    }
    if (slot.timer) clearTimeout(slot.timer);
    slot.job = null;
    slot.timer = null;
    slot.worker.unref();
    this.ran[job.kind] = (this.ran[job.kind] ?? 0) + 1;
    if (reply.ok) job.resolve(reply.value);
    else job.reject(rebuildError(reply.error));
    this.dispatch();
  }

  private remove(slot: ISlot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    slot.job = null;
    this.dispatch();
  }

  private limitError(job: IJob, why: "time" | "memory" | Error): AppError {
    const label = TASK_LABEL[job.kind];
    if (why === "time") {
      return new AppError(
        "unprocessable",
        `${label} took longer than ${Math.round(this.options.taskTimeoutMs / 1000)} s and was stopped; the file may be malformed or too complex`,
      );
    }
    if (why === "memory") {
      this.stopped++;
      log.warn("pool.task_out_of_memory", { kind: job.kind, memoryMb: this.options.memoryMb });
      return new AppError(
        "unprocessable",
        `${label} needed more than ${this.options.memoryMb} MB of memory and was stopped; the file may be malformed or too large`,
      );
    }
    log.error("pool.worker_failed", { kind: job.kind, error: describeError(why) });
    return new AppError("internal", `${label} failed unexpectedly`);
  }

  private fallBackInline(slot: ISlot, err: Error): void {
    if (!this.inline) {
      this.inline = true;
      log.error("pool.unavailable", { entry: this.options.entry ?? ENTRY, error: describeError(err) });
    }
    // Every waiting task (and the one that was sent) runs inline from now on. Taken before the
    // slot is removed: removing it forgets its task.
    const jobs = [...(slot.job ? [slot.job] : []), ...this.queue.splice(0)];
    this.remove(slot);
    for (const job of jobs) runInline(job.kind, job.args as never, job.onEvent).then(job.resolve, job.reject);
  }
}

async function runInline<K extends TTaskKind>(
  kind: K,
  args: TArgs<K>,
  onEvent?: (event: unknown) => void,
  signal?: AbortSignal,
): Promise<TResult<K>> {
  const { TASKS } = await import("./tasks");
  const task = TASKS[kind] as (a: TArgs<K>, ctx: ITaskContext) => Promise<TResult<K>>;
  return task(args, { emit: onEvent ?? (() => undefined), signal: signal ?? new AbortController().signal });
}

function rebuildError(error: IWorkerReply["error"]): Error {
  if (error?.name === "AppError" && error.code) {
    return new AppError(error.code as TErrorCode, error.message, {
      ...(error.details ? { details: error.details } : {}),
    });
  }
  return new AppError("unprocessable", error?.message ?? "The task failed");
}

export function poolOptionsFromConfig(): IPoolOptions {
  const { poolThreads, poolTaskTimeoutMs, poolMemoryMb, poolNice } = getConfig().isolation;
  const cpus = typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;
  return {
    threads: poolThreads > 0 ? poolThreads : Math.max(1, Math.min(4, cpus - 1)),
    taskTimeoutMs: poolTaskTimeoutMs,
    memoryMb: poolMemoryMb,
    nice: poolNice,
  };
}

const globalForPool = globalThis as unknown as {
  __paperwisePool?: WorkerPool;
  __paperwiseShortLane?: WorkerPool;
};

/** The process's pool (created on first use from the configuration). */
export function getPool(): WorkerPool {
  globalForPool.__paperwisePool ??= new WorkerPool(poolOptionsFromConfig());
  return globalForPool.__paperwisePool;
}

/** The short lane's options: one thread, the pool's limits otherwise. */
function shortLaneOptions(options: IPoolOptions): IPoolOptions {
  return { ...options, threads: 1 };
}

/**
 * The short-task lane: a second, one-thread pool for the offline parts of model-written sets
 * (`runPrepare`, `runGate`, `runFill`: tens to hundreds of milliseconds each, while a teacher
 * watches the set stream in). They never queue behind a 120 s extraction or a 60-slot offline
 * set in the main pool. Created on first use, like the main pool; its idle worker keeps nothing
 * alive.
 */
export function getShortLane(): WorkerPool {
  globalForPool.__paperwiseShortLane ??= new WorkerPool(shortLaneOptions(poolOptionsFromConfig()));
  return globalForPool.__paperwiseShortLane;
}

/** Runs a heavy task in the process's pool: `runInPool("extract", { bytes, mime })`. */
export function runInPool<K extends TTaskKind>(kind: K, args: TArgs<K>): Promise<TResult<K>> {
  return getPool().run(kind, args);
}

/** Tests: a pool (and short lane) with other limits or entry (the old ones are closed). */
export async function setPoolForProcess(options: IPoolOptions | null): Promise<void> {
  const old = [globalForPool.__paperwisePool, globalForPool.__paperwiseShortLane];
  globalForPool.__paperwisePool = options ? new WorkerPool(options) : undefined;
  globalForPool.__paperwiseShortLane = options ? new WorkerPool(shortLaneOptions(options)) : undefined;
  await Promise.all(old.map((p) => p?.close()));
}
