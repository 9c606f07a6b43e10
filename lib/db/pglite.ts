import "server-only";
import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { AppError } from "@/lib/errors";
import { describeError, log } from "@/lib/log";
import { isBackground } from "./background";
import { encodeBinaryCopy } from "./copy-binary";
import type { ICopyColumn, IDatabase, ISqlExecutor } from "./types";

type TPgliteLike = Pick<PGlite, "query" | "exec"> | Transaction;

function executor(target: TPgliteLike): ISqlExecutor {
  return {
    async query<T>(sql: string, params: unknown[] = []) {
      const res = await target.query<T>(sql, params);
      return res.rows;
    },
    async exec(sql: string) {
      await target.exec(sql);
    },
    async copyRows(table: string, columns: readonly ICopyColumn[], rows: readonly unknown[][]) {
      if (rows.length === 0) return;
      const blob = new Blob([new Uint8Array(encodeBinaryCopy(columns, rows))]);
      const cols = columns.map((c) => `"${c.name}"`).join(", ");
      await target.query(`COPY ${table} (${cols}) FROM '/dev/blob' WITH (FORMAT binary)`, [], { blob });
    },
  };
}

/** The app's own (foreground) statements: in flight now, and when the last one ended. */
interface IForeground {
  inFlight: number;
  lastEnd: number;
}

/** A gap this long between the app's statements means no request is mid-way through its queries. */
const QUIET_MS = 50;
/** Background work waits at most this long per step, so it still progresses under constant load. */
const MAX_YIELD_MS = 150;
/** The app counts as busy (background work takes short steps) within this long of its last statement. */
const BUSY_WINDOW_MS = 1000;

function tracked(base: ISqlExecutor, fg: IForeground): ISqlExecutor {
  const track = async <T>(run: () => Promise<T>): Promise<T> => {
    if (isBackground()) return run();
    fg.inFlight++;
    try {
      return await run();
    } finally {
      fg.inFlight--;
      fg.lastEnd = performance.now();
    }
  };
  return {
    query: (sql, params) => track(() => base.query(sql, params)),
    exec: (sql) => track(() => base.exec(sql)),
    copyRows: (table, columns, rows) => track(() => base.copyRows(table, columns, rows)),
  };
}

/**
 * The priority lane of the embedded database. PGlite runs one statement (or transaction) at a
 * time, in the order they are queued: a bystander's retrieval read queued behind an ingestion's
 * inserts or a generation's saves waited for all of them. Here every statement and transaction
 * passes through two queues instead, and only one is handed to PGlite at a time:
 * - the app's own work (requests: retrieval, facets, listings, page reads) goes first;
 * - background work (`runInBackground`: ingestion, the generation's statements, checkpoints)
 *   runs when no request statement is waiting and the app's last statement ended at least
 *   `LANE_GRACE_MS` ago (a request's next query usually follows within that), or once it has
 *   gone `LANE_MAX_WAIT_MS` without a turn (so it still progresses under constant load).
 * So bulk work yields between every two statements. A transaction is one entry: its statements
 * go to PGlite directly and stay together (nothing else runs between them, as before).
 */
export const LANE_GRACE_MS = 10;
export const LANE_MAX_WAIT_MS = 100;

interface ILaneJob {
  run: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
  queuedAt: number;
}

export interface ILaneStats {
  /** Statements or transactions waiting, by queue. */
  foreground: number;
  background: number;
  /** Background entries that went ahead because they had waited `LANE_MAX_WAIT_MS`. */
  aged: number;
}

export class PriorityLane {
  private readonly fg: ILaneJob[] = [];
  private readonly bg: ILaneJob[] = [];
  private busy = false;
  private lastForegroundEnd = -Infinity;
  private lastBackgroundEnd = -Infinity;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private aged = 0;

  constructor(
    private readonly graceMs = LANE_GRACE_MS,
    private readonly maxWaitMs = LANE_MAX_WAIT_MS,
  ) {}

  run<T>(background: boolean, run: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const job: ILaneJob = {
        run,
        resolve: resolve as (value: unknown) => void,
        reject,
        queuedAt: performance.now(),
      };
      (background ? this.bg : this.fg).push(job);
      this.pump();
    });
  }

  stats(): ILaneStats {
    return { foreground: this.fg.length, background: this.bg.length, aged: this.aged };
  }

  private pump(): void {
    if (this.busy) return;
    const next = this.pick();
    if (!next) return;
    this.busy = true;
    const { job, foreground } = next;
    job
      .run()
      .then(job.resolve, job.reject)
      .finally(() => {
        this.busy = false;
        if (foreground) this.lastForegroundEnd = performance.now();
        else this.lastBackgroundEnd = performance.now();
        this.pump();
      });
  }

  private pick(): { job: ILaneJob; foreground: boolean } | null {
    const head = this.bg[0];
    const now = performance.now();
    // How long background work has gone without a turn (not how long it has been queued: a
    // queue of slow background statements must not age while its own head runs).
    const waited = head ? now - Math.max(head.queuedAt, this.lastBackgroundEnd) : 0;
    const quiet = now - this.lastForegroundEnd;
    // Background work that has waited its bound goes next, whatever is queued.
    if (head && waited >= this.maxWaitMs) {
      if (this.fg.length > 0 || quiet < this.graceMs) this.aged++;
      return { job: this.bg.shift()!, foreground: false };
    }
    if (this.fg.length > 0) return { job: this.fg.shift()!, foreground: true };
    if (!head) return null;
    if (quiet >= this.graceMs) return { job: this.bg.shift()!, foreground: false };
    // A request may be between two of its statements: look again when the grace (or the
    // oldest entry's wait) is over, unless a request statement arrives first.
    if (!this.timer) {
      const wait = Math.max(1, Math.min(this.graceMs - quiet, this.maxWaitMs - waited));
      this.timer = setTimeout(() => {
        this.timer = null;
        this.pump();
      }, wait);
    }
    return null;
  }
}

/** Every statement and transaction of `target` through the lane (request work first). */
function laned(base: ISqlExecutor, lane: PriorityLane): ISqlExecutor {
  return {
    query: (sql, params) => lane.run(isBackground(), () => base.query(sql, params)),
    exec: (sql) => lane.run(isBackground(), () => base.exec(sql)),
    copyRows: (table, columns, rows) => lane.run(isBackground(), () => base.copyRows(table, columns, rows)),
  };
}

/**
 * PGlite runs statements one at a time in the order they are queued, and its statements run
 * synchronously in WASM, so background work that chains statement after statement never lets a
 * request in. Between steps it lets the event loop take new requests, then waits until the app's
 * statements pause.
 */
async function yieldTo(fg: IForeground): Promise<boolean> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  const started = performance.now();
  const busy = fg.inFlight > 0 || started - fg.lastEnd < BUSY_WINDOW_MS;
  for (;;) {
    const now = performance.now();
    const quietFor = now - fg.lastEnd;
    if ((fg.inFlight === 0 && quietFor >= QUIET_MS) || now - started >= MAX_YIELD_MS) return busy;
    const wait = fg.inFlight > 0 ? 5 : QUIET_MS - quietFor;
    await new Promise<void>((resolve) => setTimeout(resolve, Math.max(1, wait)));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Another live process (the app server?) holds the embedded database: each CLI says what to do. */
export class DatabaseInUseError extends AppError {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super("unavailable", `The embedded database at ${dir} is in use by process ${pid} (the app server?)`);
    this.name = "DatabaseInUseError";
  }
}

/**
 * PGlite does not lock its directory, and two processes on one directory lose writes. A pid
 * lock file turns that into a clear error.
 */
async function acquireLock(dir: string): Promise<string> {
  const lock = path.join(dir, "..", `${path.basename(dir)}.lock`);
  const held = Number((await readFile(lock, "utf8").catch(() => "")).trim());
  if (held && held !== process.pid && isAlive(held)) throw new DatabaseInUseError(dir, held);
  await writeFile(lock, String(process.pid));
  return lock;
}

/**
 * The write-ahead log of the embedded database. PGlite runs Postgres in single-user mode, which has
 * no checkpointer: without an explicit CHECKPOINT its pg_wal only grows (a 10 MB Markdown upload
 * left 640 MB, and it reached 6 GB against `max_wal_size = 1GB`), and a restart after a kill
 * replays all of it. So the WAL limits are set low and a timer checks pg_wal's size on disk: past
 * the limit, at the next quiet moment, a CHECKPOINT lets Postgres recycle the old segments down to
 * `min_wal_size` (measured: 561 MB → 97 MB). Restart after a kill then replays at most about
 * WAL_LIMIT_MB plus what was written since the last check.
 */
export const WAL_LIMIT_MB = 96;
const WAL_MIN_MB = 32;
const WAL_CHECK_EVERY_MS = 5_000;

async function walBytes(dir: string): Promise<number> {
  const walDir = path.join(dir, "pg_wal");
  const names = await readdir(walDir).catch(() => [] as string[]);
  let total = 0;
  for (const name of names) {
    const st = await stat(path.join(walDir, name)).catch(() => null);
    if (st?.isFile()) total += st.size;
  }
  return total;
}

/** Opens (or creates) an embedded Postgres with pgvector. `dir` undefined → in memory. */
export async function openPglite(dir?: string): Promise<IDatabase> {
  let lock: string | null = null;
  if (dir) {
    await mkdir(dir, { recursive: true });
    lock = await acquireLock(dir);
  }
  const db = dir
    ? await PGlite.create(dir, {
        extensions: { vector },
        startParams: [
          ...PGlite.defaultStartParams,
          ...["-c", `max_wal_size=${WAL_LIMIT_MB}MB`, "-c", `min_wal_size=${WAL_MIN_MB}MB`],
        ],
      })
    : await PGlite.create({ extensions: { vector } });
  const fg: IForeground = { inFlight: 0, lastEnd: 0 };
  const lane = new PriorityLane();
  const base = tracked(laned(executor(db), lane), fg);
  let checking = false;
  const walTimer = dir
    ? setInterval(() => {
        if (checking) return;
        checking = true;
        checkpointIfLarge(dir, db, fg, lane)
          .catch((err: unknown) => log.warn("pglite.checkpoint_failed", { error: describeError(err) }))
          .finally(() => {
            checking = false;
          });
      }, WAL_CHECK_EVERY_MS)
    : null;
  walTimer?.unref();
  return {
    kind: "pglite",
    ...base,
    // One in-process database: nothing to replicate.
    read: base,
    // One lane entry: the transaction's statements go to PGlite directly and stay together.
    transaction: async (fn) => {
      const run = () => db.transaction((tx) => fn(executor(tx)));
      if (isBackground()) return lane.run(true, run);
      fg.inFlight++;
      try {
        return await lane.run(false, run);
      } finally {
        fg.inFlight--;
        fg.lastEnd = performance.now();
      }
    },
    yieldToForeground: () => yieldTo(fg),
    close: async () => {
      if (walTimer) clearInterval(walTimer);
      await db.close();
      if (lock) await rm(lock, { force: true });
    },
  };
}

/** A CHECKPOINT when pg_wal is past its limit, at a moment the app's requests leave free. */
async function checkpointIfLarge(
  dir: string,
  db: PGlite,
  fg: IForeground,
  lane: PriorityLane,
): Promise<void> {
  const before = await walBytes(dir);
  if (before <= WAL_LIMIT_MB * 1024 * 1024) return;
  await yieldTo(fg);
  const t0 = performance.now();
  await lane.run(true, () => db.query("checkpoint"));
  log.info("pglite.checkpoint", {
    walMbBefore: Math.round(before / 1048576),
    walMbAfter: Math.round((await walBytes(dir)) / 1048576),
    ms: Math.round(performance.now() - t0),
  });
}
