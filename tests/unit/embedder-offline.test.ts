import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createOfflineEmbedder,
  embedOffline,
  OFFLINE_DIMENSIONS,
  OFFLINE_MODEL_ID,
} from "@/lib/ai/embedder/offline";

function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function norm(v: Float32Array): number {
  return Math.sqrt(cosine(v, v));
}

describe("offline embedder", () => {
  const embedder = createOfflineEmbedder();

  it("declares its model id and 1536 dimensions", async () => {
    expect(embedder.modelId).toBe(OFFLINE_MODEL_ID);
    expect(embedder.dimensions).toBe(1536);
    const v = await embedder.embedQuery("Photosynthesis converts light energy into chemical energy.");
    expect(v).toBeInstanceOf(Float32Array);
    expect(v.length).toBe(OFFLINE_DIMENSIONS);
  });

  it("returns unit vectors", async () => {
    const docs = await embedder.embedDocuments([
      "The mitochondrion makes ATP.",
      "Newton's second law: F = ma.",
    ]);
    for (const v of docs) expect(norm(v)).toBeCloseTo(1, 5);
  });

  it("is deterministic, and queries and documents share one algorithm", async () => {
    const text = "Enzymes lower the activation energy of chemical reactions.";
    const [doc] = await embedder.embedDocuments([text]);
    const query = await embedder.embedQuery(text);
    expect(Array.from(query)).toEqual(Array.from(doc!));
    expect(Array.from(embedOffline(text))).toEqual(Array.from(query));
  });

  it("pins the vector so a code change that alters it is noticed (bump the model id)", () => {
    const v = embedOffline("Cells divide by mitosis.");
    const nonZero = v.reduce((n, x) => n + (x !== 0 ? 1 : 0), 0);
    const checksum = v.reduce((s, x, i) => s + x * ((i % 7) + 1), 0);
    expect(nonZero).toBeGreaterThan(10);
    expect(checksum).toBeCloseTo(5.966433, 5);
  });

  it("puts a paraphrase closer than an unrelated sentence", () => {
    const text = embedOffline("The car needs fuel before the long journey.");
    const paraphrase = embedOffline("An automobile must be refuelled prior to a lengthy trip.");
    const unrelated = embedOffline("Chloroplasts capture sunlight in the leaves of green plants.");
    expect(cosine(text, paraphrase)).toBeGreaterThan(cosine(text, unrelated) + 0.05);
  });

  it("matches a definition to the passage about the defined term", () => {
    const passage = embedOffline(
      "Each kidney drains into a ureter, which carries urine to the urinary bladder for storage.",
    );
    const definition = embedOffline("tube that carries urine from the kidney to the bladder");
    const other = embedOffline("The heart pumps blood through arteries to the body's tissues.");
    expect(cosine(definition, passage)).toBeGreaterThan(cosine(definition, other));
  });

  it("embeds empty and stop-word-only text to finite unit vectors", async () => {
    for (const text of ["", "   ", "the of and", "!!! ???", "\uD800 lone surrogate"]) {
      const v = await embedder.embedQuery(text);
      expect(v.every(Number.isFinite)).toBe(true);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
  });

  it("never yields NaN for arbitrary unicode", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => {
        const v = embedOffline(text);
        expect(v.length).toBe(OFFLINE_DIMENSIONS);
        expect(v.every(Number.isFinite)).toBe(true);
        expect(norm(v)).toBeCloseTo(1, 4);
      }),
      { numRuns: 300 },
    );
  });

  it("embeds many documents quickly once the word cache is warm", async () => {
    const paragraph =
      "During meiosis, homologous chromosomes pair and exchange segments by crossing over, " +
      "producing genetically distinct haploid gametes. Velocity, acceleration and force relate by Newton's laws. ";
    const texts = Array.from({ length: 300 }, (_, i) => `${paragraph.repeat(6)} item ${i}`);
    await embedder.embedDocuments(texts.slice(0, 1));
    const t0 = performance.now();
    const out = await embedder.embedDocuments(texts);
    expect(out).toHaveLength(300);
    // ≈ 0.35 ms per 1,000-char chunk measured; a loose bound keeps the test stable on busy CI.
    expect(performance.now() - t0).toBeLessThan(3000);
  });
});
