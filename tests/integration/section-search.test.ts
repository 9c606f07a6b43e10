import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getEmbedder } from "@/lib/ai/embedder";
import { ingestFiles } from "@/lib/ingestion/ingest-files";
import {
  SECTION_INDEX_MAX_PASSAGES,
  scopeSectionLengths,
  searchSections,
  sectionTermHits,
} from "@/lib/retrieval/section-search";
import { getStorage } from "@/lib/storage";
import { createTestEnv, type ITestEnv } from "../support/test-env";

const DEMO = path.join(import.meta.dirname, "../../supabase/seed/demo");
const BIOLOGY = { board: "OpenStax", grade: "11", subject: "Biology" };
const RANK = { k1: 1.2, b: 0.75, headingWeight: 2, optionWeight: 0.5 };

let env: ITestEnv;
beforeAll(async () => {
  env = await createTestEnv();
  const results = await ingestFiles(env.db, getStorage(), getEmbedder(), {
    userId: env.admin.id,
    inputs: [path.join(DEMO, "biology-2e"), path.join(DEMO, "physics")],
    defaults: { resourceType: "textbook", visibility: "shared" },
    maxBytes: 50 * 1024 * 1024,
  });
  expect(results.every((r) => !r.error)).toBe(true);
});
afterAll(async () => env.close());

const scope = (filters: Record<string, unknown> = {}) => ({
  userId: env.teacher.id,
  filters: { ...BIOLOGY, ...filters },
});

describe("section-level retrieval over the BM25 postings (section-search.ts)", () => {
  it("reads every stored section path of the scope with its tokens, Biology only", async () => {
    const lengths = await scopeSectionLengths(env.db, scope());
    expect(lengths.length).toBeGreaterThan(10);
    expect(lengths.every((l) => l.length > 0 && l.chapterNumber !== null)).toBe(true);
    expect(new Set(lengths.map((l) => l.chapterNumber))).toEqual(new Set([4, 5, 8]));
  });

  it("ranks the section a pasted question examines first, with its chapter", async () => {
    const ranked = await searchSections(
      env.db,
      { ...scope(), passages: 1 },
      {
        stem: "water moves across a semipermeable membrane from low solute concentration osmosis",
        options: "hypertonic hypotonic isotonic",
      },
      RANK,
    );
    expect(ranked[0]?.key).toMatch(/5\.2 Passive Transport$/);
    expect(ranked[0]?.chapterNumber).toBe(5);
    for (let i = 1; i < ranked.length; i++)
      expect(ranked[i]!.score).toBeLessThanOrEqual(ranked[i - 1]!.score);
  });

  it("marks lexemes only the options use, and keeps to the chapter filter", async () => {
    const hits = await sectionTermHits(env.db, scope({ chapterNumber: 8 }), "chlorophyll", "osmosis", 2);
    expect(hits.length).toBeGreaterThan(0);
    const lexemes = new Set(hits.map((h) => h.lexeme));
    expect(lexemes.has("chlorophyl")).toBe(true);
    expect([...lexemes].every((l) => l === "chlorophyl" || l === "osmosi")).toBe(true);
    expect(hits.filter((h) => h.lexeme.startsWith("chloro")).every((h) => !h.option)).toBe(true);
    expect(hits.filter((h) => h.lexeme.startsWith("osmos")).every((h) => h.option)).toBe(true);
    const lengths = await scopeSectionLengths(env.db, scope({ chapterNumber: 8 }));
    const eight = new Set(lengths.map((l) => l.documentId));
    expect(eight.size).toBe(1);
    expect(hits.every((h) => eight.has(h.documentId))).toBe(true);
  });

  it("ranks the same from the cached section index and from the question's own postings", async () => {
    const text = {
      stem: "light energy absorbed by chlorophyll in the thylakoid",
      options: "stroma ATP NADPH",
    };
    const cached = await searchSections(env.db, { ...scope(), passages: 3 }, text, RANK);
    const direct = await searchSections(
      env.db,
      { ...scope(), passages: SECTION_INDEX_MAX_PASSAGES + 1 },
      text,
      RANK,
    );
    expect(cached.length).toBeGreaterThan(3);
    expect(cached.map((r) => r.key)).toEqual(direct.map((r) => r.key));
    for (const [i, r] of cached.entries()) expect(r.score).toBeCloseTo(direct[i]!.score, 9);
    expect(cached[0]?.chapterNumber).toBe(8);
  });

  it("finds nothing for words the scope lacks and for another subject's scope", async () => {
    expect(
      await searchSections(env.db, { ...scope(), passages: 2 }, { stem: "zzqx", options: "" }, RANK),
    ).toEqual([]);
    const ranked = await searchSections(
      env.db,
      { ...scope({ subject: "Nonexistent" }), passages: 0 },
      { stem: "osmosis membrane", options: "" },
      RANK,
    );
    expect(ranked).toEqual([]);
  });
});
