/**
 * npm run scan:injection -- <files or folders…>
 * Runs ingestion's extraction, chunking and instruction-like-text detector over files without
 * storing anything, and prints each flagged chunk with its phrases: to vet a batch before upload,
 * and to check the detector for false positives on a corpus.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { chunkDocument } from "@/lib/ingestion/chunk";
import { extractDocument } from "@/lib/ingestion/extract";
import { sniffDocumentType } from "@/lib/ingestion/sniff";
import { flagInstructionLikeChunks } from "@/lib/text/injection";

const SUPPORTED = /\.(pdf|docx|md|markdown|txt)$/i;

async function filesUnder(p: string): Promise<string[]> {
  if (!(await stat(p)).isDirectory()) return [p];
  const entries = await readdir(p, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? filesUnder(path.join(p, e.name)) : [path.join(p, e.name)])),
  );
  return nested.flat().filter((f) => SUPPORTED.test(f) && path.basename(f) !== "ATTRIBUTION.md");
}

const inputs = process.argv.slice(2).filter((a) => a !== "--");
if (inputs.length === 0) {
  console.error("usage: npm run scan:injection -- <files or folders…>");
  process.exit(2);
}
let files = 0;
let chunks = 0;
let flagged = 0;
for (const file of (await Promise.all(inputs.map(filesUnder))).flat().sort()) {
  const bytes = new Uint8Array(await readFile(file));
  try {
    const { mime } = sniffDocumentType(bytes, file);
    const doc = chunkDocument(await extractDocument(bytes, mime));
    files++;
    chunks += doc.length;
    for (const f of flagInstructionLikeChunks(doc)) {
      flagged++;
      console.log(`${file}#${f.chunkIndex}: ${f.phrases.map((p) => JSON.stringify(p)).join(", ")}`);
    }
  } catch (err) {
    console.error(`${file}: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  }
}
console.log(`${files} files, ${chunks} chunks, ${flagged} with instruction-like text`);
