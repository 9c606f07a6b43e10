import "server-only";
import { randomBytes } from "node:crypto";
import os from "node:os";
import type { IDatabase } from "@/lib/db";
import { describeError, log } from "@/lib/log";
import type { IObjectStorage } from "@/lib/storage";
import type { IEmbedder } from "@/types/chunk.types";
import { processIngestion } from "./pipeline";
import { purgeUnpublishedVersions } from "./stage";
import { claimNextIngestion, type IIngestionRow, recoverInterruptedIngestions } from "./store";

export interface IWorkerDeps {
  db: IDatabase;
  storage: IObjectStorage;
  embedder: IEmbedder;
}

export interface IIngestionWorkerOptions {
  /** Recorded in `ingestions.claimed_by`: which process took which ingestion. */
  id?: string;
  /** Ingestions processed side by side (PGlite: always 1; it runs one statement at a time anyway). */
  concurrency?: number;
  /** Idle poll for work other processes queued; 0: only when kicked (one embedded process). */
  pollMs?: number;
  /**
   * Shared database: requeue ingestions idle this long (their worker died), checked at most once a
   * minute. null: never (embedded mode requeues at start, where every unfinished one is dead).
   */
  staleAfterMs?: number | null;
  onProcessed?: (row: IIngestionRow) => void;
}

export function workerId(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
}

const RECOVER_EVERY_MS = 60_000;
const ERROR_BACKOFF_MS = 5_000;

/**
 * Consumes the ingestion queue (the `ingestions` table): claims queued rows one at a time per
 * slot, processes each, and sleeps when there is nothing to claim until it is kicked or its poll
 * interval passes. One runs in every app instance (unless PAPERWISE_INGEST_WORKER=off) and in
 * `npm run worker`.
 */
export class IngestionWorker {
  readonly id: string;
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly staleAfterMs: number | null;
  private slots: Promise<void>[] = [];
  private stopped = true;
  /** Bumped by every kick; a slot is idle only if it found nothing after the latest kick. */
  private generation = 0;
  private idleAt = new Map<number, number>();
  private sleepers = new Set<() => void>();
  private idleWaiters = new Set<() => void>();
  private lastRecovery = 0;
  private processedCount = 0;

  constructor(
    private readonly deps: () => Promise<IWorkerDeps>,
    private readonly opts: IIngestionWorkerOptions = {},
  ) {
    this.id = opts.id ?? workerId();
    this.concurrency = Math.max(1, opts.concurrency ?? 1);
    this.pollMs = opts.pollMs ?? 0;
    this.staleAfterMs = opts.staleAfterMs ?? null;
  }

  get processed(): number {
    return this.processedCount;
  }

  get running(): boolean {
    return !this.stopped;
  }

  /** Starts the slots (idempotent). They first sweep what a previous run left unpublished. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.generation++;
    this.slots = Array.from({ length: this.concurrency }, (_, slot) => this.loop(slot));
  }

  /** New work was queued: wake sleeping slots now rather than at their next poll. */
  kick(): void {
    this.generation++;
    this.idleAt.clear();
    for (const wake of this.sleepers) wake();
  }

  /** Stops claiming; resolves when the ingestions in progress are finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.kick();
    await Promise.all(this.slots);
    this.slots = [];
  }

  /**
   * Resolves once every slot has looked for work after the latest kick and found none (tests,
   * `npm run worker -- --once`). Work another process queues later is not waited for.
   */
  whenIdle(): Promise<void> {
    if (this.stopped || this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.add(resolve));
  }

  private isIdle(): boolean {
    if (this.idleAt.size < this.slots.length) return false;
    for (const generation of this.idleAt.values()) if (generation !== this.generation) return false;
    return true;
  }

  private markIdle(slot: number, generation: number): void {
    this.idleAt.set(slot, generation);
    if (!this.isIdle()) return;
    for (const resolve of this.idleWaiters) resolve();
    this.idleWaiters.clear();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      // 0: sleep until kicked. The timer never keeps a finished CLI or test process alive.
      const timer = ms > 0 ? setTimeout(done, ms) : undefined;
      timer?.unref();
      this.sleepers.add(done);
    });
  }

  private async maintain(db: IDatabase, first: boolean): Promise<void> {
    const now = Date.now();
    if (!first && (this.staleAfterMs === null || now - this.lastRecovery < RECOVER_EVERY_MS)) return;
    this.lastRecovery = now;
    if (this.staleAfterMs !== null) {
      const recovered = await recoverInterruptedIngestions(db, { staleAfterMs: this.staleAfterMs });
      if (recovered.requeued + recovered.failed > 0) log.warn("ingestion.recovered", { ...recovered });
    }
    const purged = await purgeUnpublishedVersions(db);
    if (purged > 0) log.info("ingestion.unpublished_purged", { versions: purged });
  }

  private async loop(slot: number): Promise<void> {
    let first = slot === 0;
    while (!this.stopped) {
      const generation = this.generation;
      let deps: IWorkerDeps;
      let claimed: string | null;
      try {
        deps = await this.deps();
        if (slot === 0) await this.maintain(deps.db, first);
        first = false;
        claimed = await claimNextIngestion(deps.db, this.id);
      } catch (err) {
        log.warn("ingestion.worker_error", { worker: this.id, error: describeError(err) });
        this.markIdle(slot, generation);
        await this.sleep(Math.max(this.pollMs, ERROR_BACKOFF_MS));
        continue;
      }
      if (claimed) {
        const row = await processIngestion(deps.db, deps.storage, deps.embedder, claimed).catch(
          (err: unknown) => {
            log.error("ingestion.worker_failed", { ingestionId: claimed, error: describeError(err) });
            return null;
          },
        );
        this.processedCount++;
        if (row) this.opts.onProcessed?.(row);
        continue;
      }
      this.markIdle(slot, generation);
      if (this.stopped) break;
      if (generation === this.generation) await this.sleep(this.pollMs);
    }
  }
}
