import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CircuitBreaker,
  type IBreakerOptions,
  type IBreakerPermit,
  type IBreakerTransition,
} from "@/lib/ai/circuit-breaker";

/** A breaker on a hand-driven clock: `advance(ms)` is the only way time passes. */
function breakerWithClock(overrides: Partial<IBreakerOptions> = {}) {
  let now = 1_000_000;
  const transitions: IBreakerTransition[] = [];
  const breaker = new CircuitBreaker({
    failureThreshold: 3,
    windowMs: 30_000,
    coolDownMs: 30_000,
    now: () => now,
    onTransition: (t) => transitions.push(t),
    ...overrides,
  });
  return {
    breaker,
    transitions,
    advance: (ms: number) => {
      now += ms;
    },
    time: () => now,
  };
}

function fail(breaker: CircuitBreaker, times = 1, reason = "timeout") {
  for (let i = 0; i < times; i++) breaker.acquire()!.settle("failure", reason);
}

describe("circuit breaker state machine (injected clock)", () => {
  it("opens after the threshold of consecutive outages in the window and then refuses at once", () => {
    const { breaker, transitions, advance } = breakerWithClock();
    fail(breaker, 2);
    expect(breaker.snapshot()).toMatchObject({ state: "closed", consecutiveFailures: 2, retryInMs: null });
    advance(1_000);
    fail(breaker);
    expect(breaker.snapshot()).toMatchObject({ state: "open", opens: 1, lastFailure: "timeout" });
    expect(transitions).toEqual([{ from: "closed", to: "open", failures: 3, reason: "timeout" }]);
    advance(10_000);
    expect(breaker.acquire()).toBeNull();
    expect(breaker.acquire()).toBeNull();
    expect(breaker.retryInMs()).toBe(20_000);
    expect(breaker.snapshot()).toMatchObject({ state: "open", rejected: 2, retryInMs: 20_000 });
  });

  it("does not open on outages spread wider than the window", () => {
    const { breaker, advance } = breakerWithClock();
    for (let i = 0; i < 10; i++) {
      fail(breaker);
      advance(16_000);
    }
    expect(breaker.snapshot().state).toBe("closed");
    // Two outages are ever inside one 30 s window.
    expect(breaker.snapshot().consecutiveFailures).toBeLessThanOrEqual(2);
  });

  it("does not open on stray outages among answers: a success resets the count", () => {
    const { breaker, advance } = breakerWithClock();
    for (let i = 0; i < 20; i++) {
      fail(breaker, 2);
      breaker.acquire()!.settle("success");
      advance(100);
    }
    expect(breaker.snapshot()).toMatchObject({ state: "closed", consecutiveFailures: 0, opens: 0 });
  });

  it("ignores calls the caller itself abandoned", () => {
    const { breaker } = breakerWithClock();
    for (let i = 0; i < 10; i++) breaker.acquire()!.settle("ignored");
    expect(breaker.snapshot()).toMatchObject({ state: "closed", consecutiveFailures: 0 });
  });

  it("after the cool-down admits exactly one trial; its success closes the breaker", () => {
    const { breaker, transitions, advance } = breakerWithClock();
    fail(breaker, 3);
    advance(29_999);
    expect(breaker.acquire()).toBeNull();
    advance(1);
    expect(breaker.retryInMs()).toBe(0);
    const trial = breaker.acquire();
    expect(trial?.trial).toBe(true);
    expect(breaker.snapshot().state).toBe("half-open");
    // Everyone else is still answered offline while the trial is out.
    expect(breaker.acquire()).toBeNull();
    advance(2_000);
    expect(breaker.acquire()).toBeNull();
    trial!.settle("success");
    expect(breaker.snapshot()).toMatchObject({ state: "closed", consecutiveFailures: 0 });
    const next = breaker.acquire();
    expect(next?.trial).toBe(false);
    expect(transitions.map((t) => t.to)).toEqual(["open", "half-open", "closed"]);
  });

  it("a failed trial opens it again for a whole new cool-down", () => {
    const { breaker, advance } = breakerWithClock();
    fail(breaker, 3);
    advance(30_000);
    const trial = breaker.acquire()!;
    advance(3_000);
    trial.settle("failure", "timeout");
    expect(breaker.snapshot()).toMatchObject({ state: "open", opens: 2, retryInMs: 30_000 });
    advance(29_000);
    expect(breaker.acquire()).toBeNull();
    advance(1_000);
    expect(breaker.acquire()?.trial).toBe(true);
  });

  it("an abandoned trial lets the next call probe; a lost one is replaced after a cool-down", () => {
    const { breaker, advance } = breakerWithClock();
    fail(breaker, 3);
    advance(30_000);
    breaker.acquire()!.settle("ignored");
    expect(breaker.snapshot().state).toBe("half-open");
    const lost = breaker.acquire();
    expect(lost?.trial).toBe(true);
    advance(29_000);
    expect(breaker.acquire()).toBeNull();
    advance(1_000);
    const replacement = breaker.acquire();
    expect(replacement?.trial).toBe(true);
    // The lost permit reporting late changes nothing: the replacement owns the probe.
    lost!.settle("failure", "timeout");
    expect(breaker.snapshot().state).toBe("half-open");
    replacement!.settle("success");
    expect(breaker.snapshot().state).toBe("closed");
  });

  it("calls admitted before it opened do not move it when they end later", () => {
    const { breaker, advance } = breakerWithClock();
    const slow: IBreakerPermit[] = [breaker.acquire()!, breaker.acquire()!];
    fail(breaker, 3);
    expect(breaker.snapshot().state).toBe("open");
    advance(30_000);
    const trial = breaker.acquire()!;
    slow[0]!.settle("success");
    expect(breaker.snapshot().state).toBe("half-open");
    trial.settle("success");
    slow[1]!.settle("failure", "timeout");
    expect(breaker.snapshot()).toMatchObject({ state: "closed", consecutiveFailures: 0 });
  });

  it("only the first report of a permit counts", () => {
    const { breaker } = breakerWithClock({ failureThreshold: 2 });
    const permit = breaker.acquire()!;
    permit.settle("failure", "timeout");
    permit.settle("failure", "timeout");
    expect(breaker.snapshot()).toMatchObject({ state: "closed", consecutiveFailures: 1 });
  });

  it("refuses a threshold below one", () => {
    expect(() => breakerWithClock({ failureThreshold: 0 })).toThrow(RangeError);
  });

  it("never has two trial permits out at once and never admits a call while open and cooling down", () => {
    type TAction =
      | { kind: "advance"; ms: number }
      | { kind: "acquire" }
      | { kind: "settle"; outcome: "failure" | "success" | "ignored" };
    const action = fc.oneof(
      fc.record({ kind: fc.constant("advance" as const), ms: fc.integer({ min: 0, max: 40_000 }) }),
      fc.record({ kind: fc.constant("acquire" as const) }),
      fc.record({
        kind: fc.constant("settle" as const),
        outcome: fc.constantFrom("failure" as const, "success" as const, "ignored" as const),
      }),
    );
    fc.assert(
      fc.property(fc.array(action, { maxLength: 80 }), (actions: TAction[]) => {
        const coolDownMs = 10_000;
        const { breaker, advance, time } = breakerWithClock({ failureThreshold: 2, coolDownMs });
        const unsettled: { permit: IBreakerPermit; at: number }[] = [];
        for (const a of actions) {
          if (a.kind === "advance") advance(a.ms);
          else if (a.kind === "settle") unsettled.shift()?.permit.settle(a.outcome);
          else {
            const before = breaker.snapshot();
            const permit = breaker.acquire();
            if (before.state === "open" && (before.retryInMs ?? 0) > 0) expect(permit).toBeNull();
            if (permit) unsettled.push({ permit, at: time() });
          }
          // A trial is replaced only once it has been out for a whole cool-down.
          const liveTrials = unsettled.filter((u) => u.permit.trial && time() - u.at < coolDownMs);
          expect(liveTrials.length).toBeLessThanOrEqual(1);
        }
      }),
    );
  });
});
