import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listChunks } from "@/app/api/resources/[id]/chunks/route";
import { POST as query } from "@/app/api/retrieval/query/route";
import { getEmbedder } from "@/lib/ai/embedder";
import { ingestFiles } from "@/lib/ingestion/ingest-files";
import { backfillZones } from "@/lib/ingestion/zones-backfill";
import { getStorage } from "@/lib/storage";
import { ZONES } from "@/types/chunk.types";
import { createTestEnv, type ITestEnv, makeRequest, params } from "../support/test-env";

const FILTERS = { board: "CBSE", grade: "9", subject: "Physics" };

// The lesson and an activity that use the same words; a video box; a caption.
const CHAPTER = `# Chapter 8: Motion

## 8.1 Describing Motion

### Reference Frames

A reference frame is the coordinate system from which the positions of objects are described. When a passenger walks toward the back of a moving train, the passenger's motion relative to the train differs from the passenger's motion relative to the platform. The platform is a convenient reference frame, but it is not the only one: any object, moving or not, can serve as a reference frame, and the description of motion depends on the frame chosen. Two observers in different reference frames can disagree about an object's velocity, yet both descriptions are correct within their own frames. Physicists therefore always state the reference frame before they describe motion. A car that looks stationary to its driver is moving quickly for a person standing beside the road. Earth itself moves around the Sun, so even the platform is moving relative to the Sun. Choosing the reference frame well makes the description of motion simpler.

Figure 8.1: A passenger on a train and an observer on the platform see the same ball move differently.

## 8.2 Observing Motion

### Activity 8.2

In this activity you will look at motion from two reference frames, the reference frame of a walking partner and the reference frame of a stationary observer.

- 1 basketball
- A long corridor or playground

Procedure
1. Work with a partner, as directed by your teacher. Stand a few meters away from your partner and watch your partner bounce the basketball while standing still; describe the ball's motion in your reference frame.
2. Have your partner walk forward while bouncing the ball and describe the ball's motion from your stationary reference frame.
3. Walk alongside your partner at the same speed and describe the ball's motion again from your moving reference frame.
4. Switch places with your partner and repeat the steps, recording how the motion looks from each reference frame in your notebook.

### Watch Physics

This video shows a ball thrown on a moving train, seen from two reference frames. Click the play button and pause the video when the ball reaches its highest point.
`;

let env: ITestEnv;
let dir: string;
let ingestionId: string;

async function ask(q: string) {
  const res = await query(
    makeRequest("POST", "/api/retrieval/query", {
      token: env.teacher.token,
      json: { filters: FILTERS, query: q, topK: 8 },
    }),
    {},
  );
  expect(res.status).toBe(200);
  return (await res.json()) as { items: { content: string; zone?: string; documentId: string }[] };
}

beforeAll(async () => {
  env = await createTestEnv();
  dir = await mkdtemp(path.join(tmpdir(), "paperwise-zones-"));
  const file = path.join(dir, "ch08-motion.md");
  await writeFile(file, CHAPTER);
  const [first] = await ingestFiles(env.db, getStorage(), getEmbedder(), {
    userId: env.admin.id,
    inputs: [file],
    defaults: {
      ...FILTERS,
      resourceType: "textbook",
      visibility: "shared",
      chapterNumber: 8,
      chapterName: "Motion",
    },
    maxBytes: 10 * 1024 * 1024,
  });
  expect(first?.error).toBeUndefined();
  ingestionId = first!.ingestion!.id;
  // The same text again, as a teacher's notes: a second document holding the same passages.
  const [copy] = await ingestFiles(env.db, getStorage(), getEmbedder(), {
    userId: env.admin.id,
    inputs: [file],
    defaults: {
      ...FILTERS,
      resourceType: "notes",
      visibility: "shared",
      chapterNumber: 8,
      chapterName: "Motion",
    },
    maxBytes: 10 * 1024 * 1024,
  });
  expect(copy?.error).toBeUndefined();
});
afterAll(async () => {
  await env.close();
  await rm(dir, { recursive: true, force: true });
});

describe("zones", () => {
  it("stores a zone and zone spans with every ingested chunk", async () => {
    const rows = await env.db.query<{ zone: string | null; zone_spans: unknown; content: string }>(
      "select zone, zone_spans, content from document_chunks order by document_id, chunk_index",
    );
    expect(rows.length).toBeGreaterThan(2);
    for (const r of rows) {
      expect(ZONES).toContain(r.zone);
      expect(Array.isArray(r.zone_spans)).toBe(true);
    }
    const activity = rows.find((r) => r.content.includes("Work with a partner"));
    expect(activity?.zone).toBe("activity");
    const lesson = rows.find((r) => r.content.includes("A reference frame is the coordinate system"));
    expect(["exposition", "definition"]).toContain(lesson?.zone);
  });

  it("answers the zones in the library preview", async () => {
    const res = await listChunks(
      makeRequest("GET", `/api/resources/${ingestionId}/chunks?limit=10`, { token: env.teacher.token }),
      params({ id: ingestionId }),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: { zone: string; zoneSpans: [number, number, string][] }[] };
    expect(body.items.length).toBeGreaterThan(0);
    for (const item of body.items) {
      expect(ZONES).toContain(item.zone);
      expect(item.zoneSpans.length).toBeGreaterThan(0);
    }
  });

  it("ranks the lesson above an activity with the same words by default", async () => {
    const { items } = await ask("motion seen from two reference frames");
    const lesson = items.findIndex((i) => i.content.includes("A reference frame is the coordinate system"));
    const activity = items.findIndex((i) => i.content.includes("Work with a partner"));
    expect(lesson).toBeGreaterThanOrEqual(0);
    expect(activity === -1 || lesson < activity).toBe(true);
    expect(items[0]?.zone).not.toBe("activity");
    expect(items.every((i) => i.zone !== undefined)).toBe(true);
  });

  it("returns the activity first when asked for an activity", async () => {
    const { items } = await ask("an activity on motion seen from two reference frames");
    expect(items[0]?.zone).toBe("activity");
    expect(items[0]?.content).toContain("Work with a partner");
  });

  it("backfills the zones of chunks stored before zones", async () => {
    await env.db.query("update document_chunks set zone = null, zone_spans = null where chunk_index < 2");
    const cleared = await env.db.query<{ n: number }>(
      "select count(*)::int as n from document_chunks where zone is null",
    );
    expect(cleared[0]!.n).toBeGreaterThan(0);
    expect(await backfillZones(env.db, 3)).toBe(cleared[0]!.n);
    const left = await env.db.query<{ n: number }>(
      "select count(*)::int as n from document_chunks where zone is null",
    );
    expect(left[0]!.n).toBe(0);
    const [first] = await env.db.query<{ zone: string; zone_spans: unknown }>(
      "select zone, zone_spans from document_chunks where chunk_index = 0 limit 1",
    );
    expect(ZONES).toContain(first!.zone);
    expect(Array.isArray(first!.zone_spans)).toBe(true);
  });

  it("keeps the same text from two documents once", async () => {
    const { items } = await ask("reference frame coordinate system");
    const texts = items.map((i) => i.content.replace(/\s+/g, " ").trim().toLowerCase());
    expect(new Set(texts).size).toBe(texts.length);
  });
});
