import { readFile } from "node:fs/promises";
import path from "node:path";
import type { IDatabase, ISqlExecutor } from "@/lib/db";
import type { IEmbedder } from "@/types/chunk.types";
import { passageKey } from "@/types/generation.types";

export interface IManifest {
  book: string;
  board: string;
  grade: string;
  subject: string;
  chapters: {
    chapterNumber: number;
    chapterName: string;
    sections: { id: string; number: string; title: string; charStart: number; charEnd: number }[];
  }[];
}

export async function readManifest(corpusDir: string): Promise<IManifest> {
  return JSON.parse(await readFile(path.join(corpusDir, "manifest.json"), "utf8")) as IManifest;
}

export async function readJsonl<T>(file: string): Promise<T[]> {
  return (await readFile(file, "utf8"))
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

export const filtersOf = (m: IManifest) => ({ board: m.board, grade: String(m.grade), subject: m.subject });

/**
 * chunk → eval section id (`book:N.M`): the `N.M` heading in the chunk's section path, else the
 * manifest's char ranges (the eval README's rule).
 */
export async function sectionMapper(db: ISqlExecutor, manifests: readonly IManifest[]) {
  const docs = await db.query<{ id: string; chapter_number: number; subject: string }>(
    "select id, chapter_number, subject from documents",
  );
  const docInfo = new Map(docs.map((d) => [d.id, d]));
  const mids = new Map(
    (
      await db.query<{ document_id: string; chunk_index: number; mid: number }>(
        "select document_id, chunk_index, (char_start + char_end) / 2 as mid from document_chunks",
      )
    ).map((r) => [`${r.document_id}:${r.chunk_index}`, r.mid]),
  );
  const bySubject = new Map(manifests.map((m) => [m.subject, m]));
  return (documentId: string, chunkIndex: number, sectionPath: string | undefined): string | null => {
    const doc = docInfo.get(documentId);
    const manifest = doc ? bySubject.get(doc.subject) : undefined;
    if (!doc || !manifest) return null;
    const m = sectionPath ? /(?:^|> )(\d+)\.(\d+)\b/.exec(sectionPath) : null;
    if (m && Number(m[1]) === doc.chapter_number) return `${manifest.book}:${m[1]}.${m[2]}`;
    const ch = manifest.chapters.find((c) => c.chapterNumber === doc.chapter_number);
    const mid = mids.get(passageKey({ documentId, chunkIndex }));
    if (!ch || mid === undefined) return null;
    return ch.sections.find((s) => mid >= s.charStart && mid < s.charEnd)?.id ?? null;
  };
}

export const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : 0;
}

/** A section of the manifest as a generation topic (its chapter for the retrieval filter). */
export interface ISectionTopic {
  id: string;
  number: string;
  title: string;
  chapter: number;
}

/** Every non-introduction section (N.0 is the chapter's opening), every `every`-th from `offset`. */
export function spreadTopics(m: IManifest, every: number, offset: number): ISectionTopic[] {
  return m.chapters
    .flatMap((c) =>
      c.sections.filter((s) => !s.number.endsWith(".0")).map((s) => ({ ...s, chapter: c.chapterNumber })),
    )
    .filter((_, i) => i % every === offset % every);
}

/**
 * The passages a teacher would select for a section, as the generation evals select them: the
 * section's title searched inside its chapter (offline, reranked), top 8, loaded as context. The
 * library is imported here, after the workspace has set the process configuration.
 */
export async function selectPassages(
  ws: { db: IDatabase; userId: string; embedder: IEmbedder },
  filters: { board: string; grade: string; subject: string },
  topic: ISectionTopic,
) {
  const { retrieve } = await import("@/lib/retrieval/retrieve");
  const { loadContext } = await import("@/lib/generation/store");
  const found = await retrieve(
    { db: ws.db, embedder: ws.embedder, model: null, llmTimeoutMs: 0 },
    ws.userId,
    {
      filters: { ...filters, chapterNumber: topic.chapter },
      query: topic.title,
      topK: 8,
      enableRerank: true,
    },
  );
  return { found, chunks: await loadContext(ws.db, ws.userId, found.items) };
}
