import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInBackground } from "@/lib/db/background";
import { LANE_MAX_WAIT_MS, openPglite, PriorityLane } from "@/lib/db/pglite";
import type { IDatabase } from "@/lib/db/types";

/**
 * The embedded database's priority lane (issue 26): a request's statement goes ahead of queued
 * background work (ingestion inserts, generation saves), a transaction's statements stay
 * together, and background work still progresses under constant request load.
 */
let db: IDatabase;
/** A statement that keeps PGlite busy for a while (tens of ms in WASM). */
const SLOW = "select count(*)::int as n from generate_series(1, 100000)";

beforeAll(async () => {
  db = await openPglite();
  await db.exec("create table lane_t (x int)");
});
afterAll(async () => {
  await db?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the PGlite priority lane", () => {
  it("runs a request's read before background statements queued ahead of it", async () => {
    const order: string[] = [];
    const background = Array.from({ length: 4 }, (_, i) =>
      runInBackground(() => db.query(SLOW)).then(() => order.push(`bg${i}`)),
    );
    const read = db.query<{ n: number }>("select 1 as n").then((rows) => {
      order.push("fg");
      return rows;
    });
    expect(await read).toEqual([{ n: 1 }]);
    await Promise.all(background);
    // Only the background statement already running finishes first (without the lane: last).
    expect(order.indexOf("fg")).toBeLessThanOrEqual(1);
    expect(order.filter((o) => o.startsWith("bg"))).toEqual(["bg0", "bg1", "bg2", "bg3"]);
  });

  it("keeps a background transaction's statements together; a read waits for its commit", async () => {
    await db.exec("truncate lane_t");
    let readDuring: Promise<{ n: number }[]> | null = null;
    const tx = runInBackground(() =>
      db.transaction(async (t) => {
        await t.query("insert into lane_t values (1)");
        // A request arrives while the transaction is between two statements.
        readDuring = db.query<{ n: number }>("select count(*)::int as n from lane_t");
        await sleep(30);
        await t.query("insert into lane_t values (2)");
        return "committed";
      }),
    );
    expect(await tx).toBe("committed");
    // Never one row: the read ran after the commit, not between the transaction's statements.
    expect(await readDuring!).toEqual([{ n: 2 }]);
  });

  it("rolls back a failed transaction and goes on with the next statements", async () => {
    await db.exec("truncate lane_t");
    await expect(
      runInBackground(() =>
        db.transaction(async (t) => {
          await t.query("insert into lane_t values (1)");
          await t.query("select * from no_such_table");
        }),
      ),
    ).rejects.toThrow(/no_such_table/);
    await expect(db.query("select * from no_such_table")).rejects.toThrow(/no_such_table/);
    expect(await db.query("select count(*)::int as n from lane_t")).toEqual([{ n: 0 }]);
    expect(await runInBackground(() => db.query("select 2 as n"))).toEqual([{ n: 2 }]);
  });

  it("lets background work through under constant request load (it waits at most its bound)", async () => {
    let stop = false;
    const loops = Array.from({ length: 3 }, async () => {
      while (!stop) {
        await db.query("select 1");
        // Requests arrive through the event loop (in memory, PGlite answers in microtasks).
        await new Promise((r) => setImmediate(r));
      }
    });
    await sleep(20);
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      await runInBackground(() => db.query("select 1"));
      waits.push(performance.now() - t0);
    }
    stop = true;
    await Promise.all(loops);
    // Bounded by LANE_MAX_WAIT_MS plus a few statements; generous for a loaded machine.
    expect(Math.max(...waits)).toBeLessThan(LANE_MAX_WAIT_MS + 1500);
  });
});

describe("PriorityLane", () => {
  const job =
    (log: string[], name: string, ms = 5) =>
    async () => {
      await sleep(ms);
      log.push(name);
      return name;
    };

  it("waits a grace after a request's statement, and ages background work past its bound", async () => {
    const lane = new PriorityLane(40, 200);
    const log: string[] = [];
    await lane.run(false, job(log, "fg1"));
    // Just after a request statement: background waits for the grace, and a request coming
    // within it goes first.
    const bg = lane.run(true, job(log, "bg1"));
    await sleep(10);
    const fg2 = lane.run(false, job(log, "fg2"));
    await Promise.all([bg, fg2]);
    expect(log).toEqual(["fg1", "fg2", "bg1"]);
    expect(lane.stats()).toMatchObject({ foreground: 0, background: 0, aged: 0 });

    // A constant stream of request statements: the background entry still runs once aged.
    let stop = false;
    const stream = (async () => {
      while (!stop) await lane.run(false, job(log, "fg", 2));
    })();
    const t0 = performance.now();
    await lane.run(true, job(log, "bg2"));
    const waited = performance.now() - t0;
    stop = true;
    await stream;
    expect(waited).toBeGreaterThanOrEqual(150);
    expect(lane.stats().aged).toBe(1);
  });

  it("passes errors to their caller and goes on", async () => {
    const lane = new PriorityLane();
    await expect(
      lane.run(true, async () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    await expect(lane.run(false, async () => 7)).resolves.toBe(7);
  });
});
