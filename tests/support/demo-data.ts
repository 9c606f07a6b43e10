import { mkdtemp, writeFile } from "node:fs/promises";
import path from "node:path";
import { POST as generate } from "@/app/api/generation/route";
import { getEmbedder } from "@/lib/ai/embedder";
import { ingestFiles } from "@/lib/ingestion/ingest-files";
import { getStorage } from "@/lib/storage";
import type { TResourceMetadataInput } from "@/schema/resources.schema";
import type { ITestEnv } from "./test-env";
import { makeRequest } from "./test-env";
import { readGenerationStream } from "./ui-stream";

export const DEMO_DIR = path.join(import.meta.dirname, "../../supabase/seed/demo");
export const BIOLOGY = { board: "OpenStax", grade: "11", subject: "Biology" } as const;
const SOIL_NOTES = path.join(import.meta.dirname, "../fixtures/openstax/ch31-soil-and-plant-nutrition.md");

/**
 * The retrieval suites' scope: the shared Biology demo book (uploaded by the admin) and the
 * teacher's private notes on soil (chapter 31) in the same Board → Class → Subject.
 */
export async function seedDemoWithPrivateNotes(env: ITestEnv, notesTitle?: string): Promise<void> {
  const shared = await ingestFiles(env.db, getStorage(), getEmbedder(), {
    userId: env.admin.id,
    inputs: [path.join(DEMO_DIR, "biology-2e")],
    defaults: { resourceType: "textbook", visibility: "shared" },
    maxBytes: 50 * 1024 * 1024,
  });
  const notes = await ingestFiles(env.db, getStorage(), getEmbedder(), {
    userId: env.teacher.id,
    inputs: [SOIL_NOTES],
    defaults: {
      ...BIOLOGY,
      resourceType: "notes",
      visibility: "private",
      chapterNumber: 31,
      chapterName: "Soil and Plant Nutrition",
      ...(notesTitle ? { title: notesTitle } : {}),
    },
    maxBytes: 50 * 1024 * 1024,
  });
  const failed = [...shared, ...notes].find((r) => r.error);
  if (failed) throw new Error(`demo seeding failed: ${JSON.stringify(failed.error)}`);
}

/** Ingests one file (a path, or inline Markdown written to the env's data dir) and returns its document id. */
export async function ingestOne(
  env: ITestEnv,
  opts: {
    userId: string;
    file?: string;
    markdown?: { name: string; text: string };
    defaults: Partial<TResourceMetadataInput>;
  },
): Promise<string> {
  let input = opts.file;
  if (!input && opts.markdown) {
    const dir = await mkdtemp(path.join(env.dataDir, "inline-"));
    input = path.join(dir, opts.markdown.name);
    await writeFile(input, opts.markdown.text);
  }
  if (!input) throw new Error("ingestOne needs a file or markdown");
  const [result] = await ingestFiles(env.db, getStorage(), getEmbedder(), {
    userId: opts.userId,
    inputs: [input],
    defaults: opts.defaults,
    maxBytes: 10 * 1024 * 1024,
  });
  const documentId = result?.ingestion?.document_id;
  if (!documentId) throw new Error(`ingestion of ${input} produced no document`);
  return documentId;
}

/** Ingests one chapter of the Biology demo book as the admin's shared textbook; its document id. */
export function ingestDemoChapter(
  env: ITestEnv,
  file: string,
  chapterNumber: number,
  chapterName?: string,
): Promise<string> {
  return ingestOne(env, {
    userId: env.admin.id,
    file: path.join(DEMO_DIR, "biology-2e", file),
    defaults: {
      ...BIOLOGY,
      resourceType: "textbook",
      visibility: "shared",
      chapterNumber,
      ...(chapterName ? { chapterName } : {}),
    },
  });
}

/** How many chunks a document has. */
export async function countChunks(env: ITestEnv, documentId: string): Promise<number> {
  const [row] = await env.db.query<{ n: number }>(
    "select count(*)::int as n from document_chunks where document_id = $1",
    [documentId],
  );
  return row?.n ?? 0;
}

/** Runs the real generation route (offline generator) and returns the saved set id. */
export async function generateSet(
  token: string,
  body: {
    filters: Record<string, unknown>;
    context: unknown[];
    blueprint: unknown;
    seed?: number;
    useSection?: boolean;
    replaces?: string;
  },
): Promise<string> {
  const res = await generate(makeRequest("POST", "/api/generation", { token, json: body }), {});
  if (res.status !== 200) throw new Error(`generation failed: ${res.status} ${await res.text()}`);
  const { chunks } = await readGenerationStream(res);
  const set = (chunks as { type: string; data?: { setId?: string } }[]).find((c) => c.type === "data-set");
  if (!set?.data?.setId) throw new Error("generation stream had no data-set part");
  return set.data.setId;
}
