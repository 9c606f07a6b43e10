/**
 * A circuit breaker for one provider and one kind of step: a pure state machine with an injected
 * clock and no timers, so it can be tested step by step and costs nothing while idle.
 *
 *   closed ──(failureThreshold consecutive outages within windowMs)──▶ open
 *   open ──(coolDownMs elapsed; the next caller gets the one trial permit)──▶ half-open
 *   half-open ──trial succeeds──▶ closed      half-open ──trial fails──▶ open (a new cool-down)
 *
 * Only outages count (a timeout, a 5xx, an unreachable server: the caller classifies them). A
 * success in between resets the count, so a few stray 5xx among healthy traffic, or a slow
 * provider that still answers within its budget, never open it. While open, and while the single
 * trial is in flight, every other caller is refused at once and takes its offline path.
 */
export type TBreakerState = "closed" | "open" | "half-open";

/** How one admitted call ended: the provider failed, it answered, or the caller gave up. */
export type TCallOutcome = "failure" | "success" | "ignored";

export interface IBreakerOptions {
  /** Consecutive outages that open the breaker… */
  failureThreshold: number;
  /** …when they all fall within this many milliseconds. */
  windowMs: number;
  /** How long an open breaker refuses calls before one trial call may probe the provider. */
  coolDownMs: number;
  /** Milliseconds since any fixed origin; injected by tests. */
  now?: () => number;
  onTransition?: (transition: IBreakerTransition) => void;
}

export interface IBreakerTransition {
  from: TBreakerState;
  to: TBreakerState;
  /** Consecutive outages that led here (0 when closing). */
  failures: number;
  reason?: string;
}

export interface IBreakerPermit {
  /** True for the single call that probes the provider after a cool-down. */
  readonly trial: boolean;
  /** Report how the call ended; only the first report counts. */
  settle(outcome: TCallOutcome, reason?: string): void;
}

export interface IBreakerSnapshot {
  state: TBreakerState;
  /** Outages since the last success, within the window. */
  consecutiveFailures: number;
  /** While open: milliseconds until a trial call is allowed (0 = the next call probes). */
  retryInMs: number | null;
  lastFailure: string | null;
  /** Times it opened, and calls it refused, since the process started. */
  opens: number;
  rejected: number;
}

export class CircuitBreaker {
  private state: TBreakerState = "closed";
  /** Timestamps of the outages since the last success. */
  private failures: number[] = [];
  private openedAt = 0;
  private trialStartedAt: number | null = null;
  /** Which trial permit is the current one: a replaced (lost) trial reporting late is ignored. */
  private trials = 0;
  private lastFailure: string | null = null;
  private opens = 0;
  private rejected = 0;
  private readonly now: () => number;

  constructor(private readonly options: IBreakerOptions) {
    if (options.failureThreshold < 1) throw new RangeError("failureThreshold must be at least 1");
    this.now = options.now ?? Date.now;
  }

  /**
   * A permit to call the provider, or null: the caller must not call and takes its fallback.
   * A trial that was never settled (its caller vanished) is replaced after one more cool-down,
   * so a lost permit cannot hold the breaker half-open for ever.
   */
  acquire(): IBreakerPermit | null {
    const now = this.now();
    if (this.state === "closed") return this.permit(false);
    if (this.state === "open" && now - this.openedAt >= this.options.coolDownMs) {
      this.transition("half-open");
      this.trialStartedAt = null;
    }
    if (this.state === "half-open") {
      const stale = this.trialStartedAt !== null && now - this.trialStartedAt >= this.options.coolDownMs;
      if (this.trialStartedAt === null || stale) {
        this.trialStartedAt = now;
        return this.permit(true);
      }
    }
    this.rejected++;
    return null;
  }

  /** Milliseconds until the next call could be admitted: 0 when closed or ready to probe. */
  retryInMs(): number {
    if (this.state === "closed") return 0;
    const now = this.now();
    if (this.state === "open") return Math.max(0, this.openedAt + this.options.coolDownMs - now);
    return this.trialStartedAt === null
      ? 0
      : Math.max(0, this.trialStartedAt + this.options.coolDownMs - now);
  }

  snapshot(): IBreakerSnapshot {
    this.pruneFailures();
    return {
      state: this.state,
      consecutiveFailures: this.failures.length,
      retryInMs: this.state === "closed" ? null : this.retryInMs(),
      lastFailure: this.lastFailure,
      opens: this.opens,
      rejected: this.rejected,
    };
  }

  private permit(trial: boolean): IBreakerPermit {
    let settled = false;
    const opensBefore = this.opens;
    const trialId = trial ? ++this.trials : 0;
    return {
      trial,
      settle: (outcome, reason) => {
        if (settled) return;
        settled = true;
        if (trial) this.settleTrial(outcome, trialId, reason);
        else this.settleCall(outcome, opensBefore, reason);
      },
    };
  }

  private settleCall(outcome: TCallOutcome, opensBefore: number, reason?: string): void {
    // A call admitted before the breaker last opened says nothing new when it ends: the trial
    // alone decides when an open breaker closes.
    if (this.state !== "closed" || opensBefore !== this.opens) return;
    if (outcome === "success") {
      this.failures = [];
    } else if (outcome === "failure") {
      this.lastFailure = reason ?? "failure";
      this.failures.push(this.now());
      this.pruneFailures();
      if (this.failures.length >= this.options.failureThreshold) this.open(reason);
    }
  }

  private settleTrial(outcome: TCallOutcome, trialId: number, reason?: string): void {
    if (this.state !== "half-open" || trialId !== this.trials) return;
    this.trialStartedAt = null;
    if (outcome === "success") {
      this.failures = [];
      this.transition("closed");
    } else if (outcome === "failure") {
      this.lastFailure = reason ?? "failure";
      this.open(reason);
    }
    // "ignored": the caller gave up before the provider could prove anything; the next call probes.
  }

  private open(reason?: string): void {
    this.openedAt = this.now();
    this.opens++;
    this.transition("open", reason);
  }

  private transition(to: TBreakerState, reason?: string): void {
    const from = this.state;
    if (from === to) return;
    this.state = to;
    this.options.onTransition?.({
      from,
      to,
      failures: to === "closed" ? 0 : this.failures.length,
      ...(reason ? { reason } : {}),
    });
  }

  private pruneFailures(): void {
    const since = this.now() - this.options.windowMs;
    while (this.failures.length > 0 && this.failures[0]! < since) this.failures.shift();
  }
}
