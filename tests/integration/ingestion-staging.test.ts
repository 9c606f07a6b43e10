import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as facets } from "@/app/api/retrieval/facets/route";
import { POST as query } from "@/app/api/retrieval/query/route";
import { getEmbedder } from "@/lib/ai/embedder";
import { chunkDocument } from "@/lib/ingestion/chunk";
import { extractDocument } from "@/lib/ingestion/extract";
import { embeddingText, processIngestion, registerUpload } from "@/lib/ingestion/pipeline";
import {
  createStagedVersion,
  publishVersion,
  purgeUnpublishedVersions,
  stageBatchSize,
  stageChunks,
} from "@/lib/ingestion/stage";
import { getIngestionRow } from "@/lib/ingestion/store";
import { getStorage } from "@/lib/storage";
import type { IEmbedder } from "@/types/chunk.types";
import { DEMO_DIR } from "../support/demo-data";
import { createTestEnv, type ITestEnv, makeRequest } from "../support/test-env";

/**
 * A document is staged in batches and published in one short step (lib/ingestion/stage.ts): until
 * then no reader sees any of it, a re-ingest swaps versions atomically, a failure leaves nothing,
 * and other queries run between the batches instead of waiting for the whole document.
 */
let env: ITestEnv;
beforeAll(async () => {
  env = await createTestEnv({ PAPERWISE_INGEST_WORKER: "off" });
});
afterAll(async () => env.close());

const SCOPE = { board: "Staging", grade: "9", subject: "Botany" };
const WORD = "xylocarpine";

function markdown(title: string, paragraphs: number, word = WORD): Uint8Array {
  const body = Array.from(
    { length: paragraphs },
    (_, i) =>
      `## Part ${i + 1}\n\nThe ${word} tissue of plant ${i + 1} carries water upward from the roots through long hollow vessels, and its walls are thickened with lignin so the column does not collapse under tension.`,
  ).join("\n\n");
  return new TextEncoder().encode(`# ${title}\n\n${body}\n`);
}

async function register(name: string, bytes: Uint8Array, claimFor = "test-worker") {
  const { ingestion } = await registerUpload(env.db, getStorage(), {
    userId: env.admin.id,
    filename: name,
    bytes,
    metadata: {
      ...SCOPE,
      resourceType: "textbook",
      visibility: "shared",
      chapterName: name,
      splitChapters: false,
    },
    maxBytes: 10 * 1024 * 1024,
    claimFor,
  });
  return ingestion.id;
}

/** Extract, chunk and embed like the pipeline, then stage without publishing. */
async function stage(ingestionId: string, bytes: Uint8Array) {
  const chunks = chunkDocument(await extractDocument(bytes, "text/markdown"));
  const embedder = getEmbedder();
  const vectors = await embedder.embedDocuments(chunks.map(embeddingText));
  const versionId = await createStagedVersion(env.db, ingestionId, {
    pageCount: 1,
    charCount: bytes.byteLength,
    chunkCount: chunks.length,
    tokenCount: chunks.reduce((n, c) => n + c.tokens, 0),
    embeddingModel: embedder.modelId,
  });
  await stageChunks(env.db, versionId, chunks, vectors, embedder.modelId);
  return { versionId, chunks: chunks.length };
}

async function search(q: string) {
  const res = await query(
    makeRequest("POST", "/api/retrieval/query", {
      token: env.teacher.token,
      json: { filters: SCOPE, query: q, topK: 5 },
    }),
    {},
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { items: { documentId: string; content: string }[] }).items;
}

/** Whether retrieval in the scope returns any passage with this word. */
async function mentions(word: string): Promise<boolean> {
  return (await search(`${word} tissue`)).some((i) => i.content.includes(word));
}

async function chapters(): Promise<string[]> {
  const res = await facets(makeRequest("GET", "/api/retrieval/facets", { token: env.teacher.token }), {});
  const body = (await res.json()) as {
    boards: { board: string; grades: { subjects: { chapters: { name: string | null }[] }[] }[] }[];
  };
  return (body.boards.find((b) => b.board === SCOPE.board)?.grades ?? []).flatMap((g) =>
    g.subjects.flatMap((s) => s.chapters.map((c) => c.name ?? "")),
  );
}

async function rows(versionId: string) {
  const [r] = await env.db.query<{ chunks: number; lite: number; terms: number; versions: number }>(
    `select (select count(*)::int from document_chunks where document_id = $1) as chunks,
            (select count(*)::int from chunk_lite where document_id = $1) as lite,
            (select count(*)::int from chunk_terms where document_id = $1) as terms,
            (select count(*)::int from document_versions where id = $1) as versions`,
    [versionId],
  );
  return r!;
}

describe("staged document versions", () => {
  it("a staged document is invisible to retrieval, facets and the library until its one-step publish", async () => {
    const bytes = markdown("Xylem vessels", 12);
    const id = await register("xylem.md", bytes);
    const { versionId, chunks } = await stage(id, bytes);
    // All of it is in the tables, postings and companion vectors included …
    expect(await rows(versionId)).toMatchObject({ chunks, lite: chunks, versions: 1 });
    expect((await rows(versionId)).terms).toBeGreaterThan(chunks);
    // … and nobody can see it.
    expect(await mentions(WORD)).toBe(false);
    expect(await chapters()).not.toContain("xylem.md");
    const staged = await getIngestionRow(env.db, id);
    expect(staged).toMatchObject({ status: "extracting", document_id: null, chunk_count: null });
    const [view] = await env.db.query<{ n: number }>(
      "select count(*)::int as n from documents where id = $1",
      [versionId],
    );
    expect(view!.n).toBe(0);

    await publishVersion(env.db, id, versionId, { instructionLike: [] });
    const found = await search(`${WORD} tissue`);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((i) => i.documentId === versionId)).toBe(true);
    expect(await chapters()).toContain("xylem.md");
    expect(await getIngestionRow(env.db, id)).toMatchObject({
      status: "ready",
      document_id: versionId,
      chunk_count: chunks,
    });
  });

  it("a re-ingest keeps the old version searchable until the new one is published, then swaps them", async () => {
    const before = markdown("Phloem", 6, "sieveplate");
    const id = await register("phloem.md", before);
    const first = await stage(id, before);
    await publishVersion(env.db, id, first.versionId, {});
    const after = markdown("Phloem", 8, "companioncell");
    const second = await stage(id, after);
    expect(await mentions("sieveplate")).toBe(true);
    expect(await mentions("companioncell")).toBe(false);

    await publishVersion(env.db, id, second.versionId, {});
    expect(await mentions("sieveplate")).toBe(false);
    expect(await mentions("companioncell")).toBe(true);
    // The retired version is removed in batches, every row of it.
    expect(await purgeUnpublishedVersions(env.db, id)).toBe(1);
    expect(await rows(first.versionId)).toEqual({ chunks: 0, lite: 0, terms: 0, versions: 0 });
    expect(await getIngestionRow(env.db, id)).toMatchObject({
      document_id: second.versionId,
      chunk_count: 8,
    });
  });

  it("an embedding failure half-way leaves no rows, only a failed ingestion with a reason", async () => {
    const bytes = markdown("Stomata", 3 * stageBatchSize(env.db), "guardcell");
    const id = await register("stomata.md", bytes);
    const offline = getEmbedder();
    let calls = 0;
    let stagedBeforeFailure = 0;
    const failing: IEmbedder = {
      ...offline,
      async embedDocuments(texts) {
        if (++calls === 3) {
          const [r] = await env.db.query<{ n: number }>(
            "select count(*)::int as n from document_chunks c join document_versions v on v.id = c.document_id where v.ingestion_id = $1",
            [id],
          );
          stagedBeforeFailure = r!.n;
          throw new Error("provider went away");
        }
        return offline.embedDocuments(texts);
      },
    };
    const row = await processIngestion(env.db, getStorage(), failing, id, {
      embedBatchSize: stageBatchSize(env.db),
      stageBatchSize: stageBatchSize(env.db),
    });
    expect(row).toMatchObject({ status: "failed", document_id: null });
    expect(row.error).toMatch(/internal error/);
    // Batches were staged before the failure, and none of them survived it.
    expect(stagedBeforeFailure).toBeGreaterThan(0);
    const [left] = await env.db.query<{ versions: number; chunks: number }>(
      `select (select count(*)::int from document_versions where ingestion_id = $1) as versions,
              (select count(*)::int from document_chunks c left join document_versions v on v.id = c.document_id
                where v.id is null) as chunks`,
      [id],
    );
    expect(left).toEqual({ versions: 0, chunks: 0 });
    expect(await mentions("guardcell")).toBe(false);
  });

  it("other queries run between the batches of a large document instead of waiting for all of it", async () => {
    // The five demo chapters in one file: several hundred chunks, many batches.
    const files = [
      "biology-2e/ch04-cell-structure.md",
      "biology-2e/ch05-structure-and-function-of-plasma-membranes.md",
      "biology-2e/ch08-photosynthesis.md",
      "physics/ch01-what-is-physics.md",
      "physics/ch04-forces-and-newtons-laws-of-motion.md",
    ];
    const text = (await Promise.all(files.map((f) => readFile(path.join(DEMO_DIR, f), "utf8")))).join("\n\n");
    const id = await register("five-chapters.md", new TextEncoder().encode(text));
    let done = false;
    // PGlite's batch size on both databases (PostgreSQL would write this in two statements).
    const batch = 64;
    const processing = processIngestion(env.db, getStorage(), getEmbedder(), id, {
      embedBatchSize: batch,
      stageBatchSize: batch,
    }).finally(() => {
      done = true;
    });
    // Each observation is a statement that ran while the document was being stored.
    const seen = new Set<number>();
    while (!done) {
      const [r] = await env.db.query<{ n: number }>(
        `select count(*)::int as n from document_chunks c join document_versions v on v.id = c.document_id
         where v.ingestion_id = $1 and v.state = 'staging'`,
        [id],
      );
      seen.add(r!.n);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const row = await processing;
    expect(row.status).toBe("ready");
    const total = row.chunk_count!;
    expect(total).toBeGreaterThan(3 * batch);
    const partway = [...seen].filter((n) => n > 0 && n < total);
    expect(
      partway.length,
      `observed staged counts ${[...seen].join(", ")} of ${total}`,
    ).toBeGreaterThanOrEqual(2);
  });
});
