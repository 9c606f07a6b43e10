import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { TResourceMetadataInput } from "@/schema/resources.schema";

/** The `manifest.json` format of the OpenStax eval corpus: book metadata + one entry per chapter file. */
const ManifestSchema = z.object({
  title: z.string().optional(),
  board: z.string().optional(),
  grade: z.union([z.string(), z.number()]).optional(),
  subject: z.string().optional(),
  chapters: z.array(
    z.object({
      file: z.string(),
      chapterNumber: z.number().int().optional(),
      chapterName: z.string().optional(),
    }),
  ),
});

export interface IPlannedFile {
  file: string;
  metadata: Partial<TResourceMetadataInput>;
}

const SUPPORTED = /\.(pdf|docx|md|markdown|txt)$/i;

/**
 * Expands CLI arguments into files with metadata. A folder with a manifest.json takes board,
 * grade, subject and chapter numbers/names from it; other folders contribute their supported files.
 */
export async function planFiles(inputs: string[]): Promise<IPlannedFile[]> {
  const planned: IPlannedFile[] = [];
  for (const input of inputs) {
    const info = await stat(input);
    if (!info.isDirectory()) {
      planned.push({ file: input, metadata: {} });
      continue;
    }
    const manifestPath = path.join(input, "manifest.json");
    const manifestText = await readFile(manifestPath, "utf8").catch(() => null);
    if (manifestText) {
      const manifest = ManifestSchema.parse(JSON.parse(manifestText));
      for (const ch of manifest.chapters) {
        planned.push({
          file: path.join(input, ch.file),
          metadata: {
            board: manifest.board,
            grade: manifest.grade === undefined ? undefined : String(manifest.grade),
            subject: manifest.subject,
            chapterNumber: ch.chapterNumber,
            chapterName: ch.chapterName,
            title: ch.chapterName
              ? `${manifest.title ? `${manifest.title} — ` : ""}Ch ${ch.chapterNumber ?? ""} ${ch.chapterName}`.trim()
              : undefined,
          },
        });
      }
      continue;
    }
    const entries = (await readdir(input)).filter((f) => SUPPORTED.test(f)).sort();
    for (const f of entries) planned.push({ file: path.join(input, f), metadata: {} });
  }
  return planned;
}
