import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as generate } from "@/app/api/generation/route";
import { POST as support } from "@/app/api/generation/support/route";
import { runGeneration } from "@/lib/generation/generate";
import { loadContext, loadScope } from "@/lib/generation/store";
import { GenerationRequestSchema } from "@/schema/generation.schema";
import type { TSupportRow } from "@/schema/support.schema";
import type { TQuestion } from "@/types/generation.types";
import { BIOLOGY, countChunks, ingestDemoChapter } from "../support/demo-data";
import { failingModel } from "../support/mock-models";
import { createTestEnv, type ITestEnv, makeRequest } from "../support/test-env";
import { finalQuestions, readGenerationStream } from "../support/ui-stream";

/**
 * Levels placed where questions can be written (issue 25, point 4): an offline set is planned on
 * the forms' candidates that pass the gate, and the blueprint panel reports the same counts. The
 * comparison set is planned as before — by material alone — which is still how a set is planned
 * when a language model writes it: a model that fails every call leaves each slot to the same
 * offline search, so the two sets differ only in where their levels were placed.
 */
const BLUEPRINT = {
  items: [
    { type: "mcq", count: 4 },
    { type: "short", count: 2, marks: 3 },
    { type: "long", count: 1, marks: 5 },
  ],
  bloomTargets: ["Remember", "Understand", "Apply", "Analyze", "Evaluate", "Create"],
  // No nearer level may stand in: a slot is filled at its own level or stays empty.
  strictLevels: true,
};

let env: ITestEnv;
let docId: string;
let total: number;

beforeAll(async () => {
  env = await createTestEnv();
  docId = await ingestDemoChapter(env, WINDOW.file, WINDOW.chapter);
  total = await countChunks(env, docId);
});
afterAll(async () => {
  await env.close();
});

// Eight passages of the plasma-membrane chapter that support only some levels.
const WINDOW = { file: "ch05-structure-and-function-of-plasma-membranes.md", chapter: 5, from: 4, size: 8 };

const refsAt = (from: number, size: number) =>
  Array.from({ length: Math.min(size, total - from) }, (_, i) => ({
    documentId: docId,
    chunkIndex: from + i,
  }));

async function viaRoute(refs: { documentId: string; chunkIndex: number }[]) {
  const res = await generate(
    makeRequest("POST", "/api/generation", {
      token: env.teacher.token,
      json: { filters: BIOLOGY, context: refs, blueprint: BLUEPRINT, seed: 3 },
    }),
    {},
  );
  expect(res.status).toBe(200);
  const { chunks } = await readGenerationStream(res);
  return finalQuestions(chunks);
}

/** The same request planned by material (the model path), each slot then searched offline. */
async function plannedByMaterial(refs: { documentId: string; chunkIndex: number }[]): Promise<TQuestion[]> {
  const chunks = await loadContext(env.db, env.teacher.id, refs);
  const scope = await loadScope(
    env.db,
    env.teacher.id,
    chunks.map((c) => c.documentId),
  );
  const request = GenerationRequestSchema.parse({
    filters: BIOLOGY,
    context: refs,
    blueprint: BLUEPRINT,
    seed: 3,
  });
  const result = await runGeneration(
    { model: failingModel(), timeoutMs: 2_000, scope },
    chunks,
    request,
    { question: () => undefined, progress: () => undefined, error: () => undefined },
    String,
  );
  return result.questions;
}

async function supportTable(refs: { documentId: string; chunkIndex: number }[]): Promise<TSupportRow[]> {
  const res = await support(
    makeRequest("POST", "/api/generation/support", { token: env.teacher.token, json: { context: refs } }),
    {},
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { support: TSupportRow[] }).support;
}

describe("levels placed where questions can be written", () => {
  it("fills more slots at their own level than the plan by material, with labels that match", async () => {
    const refs = refsAt(WINDOW.from, WINDOW.size);
    const now = await viaRoute(refs);
    const before = await plannedByMaterial(refs);
    // These passages support only some levels: the material plan put them where nothing passes.
    expect(now.length).toBeGreaterThan(before.length);
    for (const q of now) {
      // Its own level (no stand-in under strict levels), read by the gate at that level.
      expect(q.validation.substitutedFor).toBeUndefined();
      expect(q.validation.demand).toBe(q.bloomLevel);
      expect(BLUEPRINT.bloomTargets).toContain(q.bloomLevel);
    }
  });

  it("the panel reports the dry run: a level it counts is delivered, one it zeroes stays empty", async () => {
    const refs = refsAt(WINDOW.from, WINDOW.size);
    const rows = await supportTable(refs);
    expect(rows).toHaveLength(18);
    for (const r of rows) {
      expect(r.count).toBeLessThanOrEqual(3);
      expect(r.reason === "").toBe(r.count > 0);
      // What "Also use the rest of the section" would give: never less than the selection alone.
      expect(r.withSection).toBeGreaterThanOrEqual(r.count);
      expect(r.withSection).toBeLessThanOrEqual(3);
    }
    const now = await viaRoute(refs);
    const delivered = new Set(now.map((q) => `${q.type}/${q.bloomLevel}`));
    // Every question the set holds is in a cell the panel counted.
    for (const cell of delivered)
      expect(rows.find((r) => `${r.type}/${r.level}` === cell)?.count).toBeGreaterThan(0);
    // A level the panel zeroes on every type is not delivered.
    const zeroed = new Set(
      BLUEPRINT.bloomTargets.filter((l) => rows.filter((r) => r.level === l).every((r) => r.count === 0)),
    );
    expect(zeroed.size).toBeGreaterThan(0);
    for (const q of now) expect(zeroed.has(q.bloomLevel)).toBe(false);
  });

  it("the panel says what the rest of the section adds, and a set with it delivers there", async () => {
    const refs = refsAt(WINDOW.from, WINDOW.size);
    const rows = await supportTable(refs);
    const gained = rows.filter((r) => (r.withSection ?? 0) > r.count);
    // These eight passages are part of a longer section: the rest of it holds more material.
    expect(gained.length).toBeGreaterThan(0);
    const res = await generate(
      makeRequest("POST", "/api/generation", {
        token: env.teacher.token,
        json: { filters: BIOLOGY, context: refs, blueprint: BLUEPRINT, seed: 3, useSection: true },
      }),
      {},
    );
    expect(res.status).toBe(200);
    const wide = finalQuestions((await readGenerationStream(res)).chunks);
    // Every cell the wider set fills is one the panel counted with the section.
    for (const q of wide)
      expect(rows.find((r) => r.type === q.type && r.level === q.bloomLevel)?.withSection).toBeGreaterThan(0);
    expect(wide.length).toBeGreaterThanOrEqual((await viaRoute(refs)).length);
  });
});
