import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ISqlExecutor } from "@/lib/db";
import { loadOptionPool, loadScope } from "@/lib/generation/store";
import { ingestOne } from "../support/demo-data";
import { createTestEnv, type ITestEnv } from "../support/test-env";

/**
 * The subject's option pool (issue 25, point 3): `loadScope` adds the defining sentences of the
 * other documents of the same board, class and subject that the caller may see, marked
 * options-only; never another subject's, never another user's private notes.
 */
let env: ITestEnv;
let cells: string;
let energy: string;
let physics: string;
let privateNotes: string;

const BIO = {
  board: "CBSE",
  grade: "9",
  subject: "Biology",
  resourceType: "textbook",
  visibility: "shared",
} as const;

beforeAll(async () => {
  env = await createTestEnv();
  cells = await ingestOne(env, {
    userId: env.admin.id,
    markdown: {
      name: "cells.md",
      text: "# Chapter 5 The Fundamental Unit of Life\n\n## 5.2 Cell Organelles\n\nLysosomes are the organelles that break down worn-out cell parts with digestive enzymes. The cell is the basic unit of life in every organism that we know.\n",
    },
    defaults: { ...BIO, chapterNumber: 5 },
  });
  energy = await ingestOne(env, {
    userId: env.admin.id,
    markdown: {
      name: "energy.md",
      text: "# Chapter 6 Tissues\n\n## 6.1 Plant Tissues\n\nMitochondria are the organelles that carry out cellular respiration and release energy. Leaves turn towards the light during the day.\n",
    },
    defaults: { ...BIO, chapterNumber: 6 },
  });
  physics = await ingestOne(env, {
    userId: env.admin.id,
    markdown: {
      name: "motion.md",
      text: "# Chapter 8 Motion\n\n## 8.1 Describing Motion\n\nVelocity is the rate of change of displacement of an object in a given direction.\n",
    },
    defaults: { ...BIO, subject: "Physics", chapterNumber: 8 },
  });
  privateNotes = await ingestOne(env, {
    userId: env.admin.id,
    markdown: {
      name: "notes.md",
      text: "# Chapter 7 Diversity\n\n## 7.1 Notes\n\nChloroplasts are the organelles that carry out photosynthesis in the cells of green plants.\n",
    },
    defaults: { ...BIO, resourceType: "notes", visibility: "private", chapterNumber: 7 },
  });
});
afterAll(async () => {
  await env.close();
});

describe("the option pool of loadScope", () => {
  it("adds only other documents of the same subject, cut to their defining sentences", async () => {
    // A loaded machine may take longer than the app's wait to read a cold subject: wait for it here.
    const scope = await loadScope(env.db, env.teacher.id, [cells], 400, { pool: true, poolWaitMs: 60_000 });
    const chapter = scope.filter((c) => !c.optionsOnly);
    const pool = scope.filter((c) => c.optionsOnly);
    expect(new Set(chapter.map((c) => c.documentId))).toEqual(new Set([cells]));
    expect(pool.map((c) => c.documentId)).toEqual([energy]);
    expect(pool[0]!.content).toContain("Mitochondria are the organelles");
    expect(pool[0]!.content).not.toContain("Leaves turn towards the light");
    // Another subject's document and another user's private notes never enter it.
    expect(scope.some((c) => c.documentId === physics || c.documentId === privateNotes)).toBe(false);
  });

  it("shows the owner their private notes of the subject, and is off unless asked for", async () => {
    const own = await loadOptionPool(env.db, env.admin.id, [cells], 6000, 60_000);
    expect(new Set(own.map((c) => c.documentId))).toEqual(new Set([energy, privateNotes]));
    // Off unless asked for (round 11 readers rejected the definition MCQs its options made).
    const off = await loadScope(env.db, env.teacher.id, [cells]);
    expect(off.some((c) => c.optionsOnly)).toBe(false);
  });
});

describe("a cold subject's pool", () => {
  it("is read in the background: the set waits at most its wait, and the next set has the pool", async () => {
    // The documents query answers at once; the scan of the subject's chunks waits for `release`.
    let release: () => void = () => {};
    const scanned = new Promise<void>((resolve) => {
      release = resolve;
    });
    let scans = 0;
    const db = {
      query: async (sql: string) => {
        if (/from documents d\s+where/.test(sql))
          return [
            { id: "00000000-0000-4000-8000-00000000000a", chunk_count: 1 },
            { id: "00000000-0000-4000-8000-00000000000b", chunk_count: 1 },
          ];
        scans++;
        await scanned;
        return [
          {
            document_id: "00000000-0000-4000-8000-00000000000b",
            chunk_index: 0,
            content: "Mitochondria are the organelles that carry out cellular respiration.",
            title: "Tissues",
            bucket: "b",
            path: "p",
            section_path: "6.1 Plant Tissues",
            zone: null,
            zone_spans: null,
          },
        ];
      },
    } as unknown as ISqlExecutor;
    const ids = ["00000000-0000-4000-8000-00000000000a"];
    const cold = await Promise.all([
      loadOptionPool(db, "u", ids, 6000, 20),
      loadOptionPool(db, "u", ids, 6000, 20),
    ]);
    expect(cold).toEqual([[], []]);
    // Both sets shared one read of the subject.
    expect(scans).toBe(1);
    release();
    await new Promise((r) => setTimeout(r, 10));
    const warm = await loadOptionPool(db, "u", ids, 6000, 0);
    expect(warm.map((c) => c.documentId)).toEqual(["00000000-0000-4000-8000-00000000000b"]);
    expect(scans).toBe(1);
  });
});
