/**
 * npm run bench:papers — builds the 80-mark board paper from offline-generated questions on the
 * demo photosynthesis chapter, then times every export (paper and answer key) and reports sizes.
 */
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { createOfflineGenerator } from "@/lib/generation/offline-generator";
import { checkPaper } from "@/lib/papers/check";
import { exportPaper } from "@/lib/papers/export";
import { toPaperQuestion } from "@/lib/papers/store";
import { paperFromTemplate } from "@/lib/papers/templates";
import { BLOOM_LEVELS } from "@/types/bloom.types";
import type { IContextChunk, ISlot } from "@/types/generation.types";
import type { EExportFormat, EExportPart, IPaper } from "@/types/paper.types";

const RUNS = 10;

async function demoChunks(): Promise<IContextChunk[]> {
  const file = path.join(process.cwd(), "supabase/seed/demo/biology-2e/ch08-photosynthesis.md");
  const text = await readFile(file, "utf8");
  const documentId = randomUUID();
  return text
    .split(/\n(?=#{2,4} )/)
    .filter((block) => block.length > 200)
    .map((content, chunkIndex) => ({
      documentId,
      chunkIndex,
      content,
      title: "Biology 2e — Ch 8 Photosynthesis",
      bucket: "resources",
      path: "demo/ch08.md",
      pageStart: chunkIndex + 1,
    }));
}

async function boardPaper(): Promise<IPaper> {
  const chunks = await demoChunks();
  const generator = createOfflineGenerator(chunks, 7);
  const paper: IPaper = {
    id: randomUUID(),
    ...paperFromTemplate({
      template: "board-80",
      title: "Biology half-yearly examination",
      board: "CBSE",
      grade: "11",
      subject: "Biology",
    }),
    schoolName: "Green Valley School",
  };
  const counts = [20, 6, 7, 3, 3];
  let n = 0;
  for (const [si, section] of paper.sections.entries()) {
    for (let i = 0; i < counts[si]!; i++, n++) {
      const type = section.questionType === "mixed" ? "short" : section.questionType;
      const slot: ISlot = {
        id: randomUUID(),
        index: n,
        type,
        bloomLevel: BLOOM_LEVELS[n % BLOOM_LEVELS.length]!,
        marks: section.marksPerQuestion ?? 1,
        difficulty: "medium",
        sourceKeys: chunks.map((c) => `${c.documentId}:${c.chunkIndex}`).slice(n % chunks.length),
      };
      const q = generator.generate(slot) ?? generator.generate({ ...slot, bloomLevel: "Remember" });
      if (!q) throw new Error(`no question for slot ${n}`);
      section.items.push({
        id: randomUUID(),
        marks: slot.marks,
        question: toPaperQuestion(q, "8 · Photosynthesis", slot.marks),
      });
    }
  }
  return paper;
}

const paper = await boardPaper();
const check = checkPaper(paper);
console.log(
  `Board paper: ${paper.sections.reduce((a, s) => a + s.items.length, 0)} questions, ${check.countedMarks}/${paper.totalMarks} marks, problems: ${check.problems.length}`,
);
console.log("| export | part | p50 ms | max ms | bytes |\n|---|---|---:|---:|---:|");
const cases: [EExportFormat, EExportPart][] = [
  ["pdf", "paper"],
  ["pdf", "answer-key"],
  ["docx", "paper"],
  ["docx", "answer-key"],
  ["md", "paper"],
  ["gift", "paper"],
  ["qti", "paper"],
];
for (const [format, part] of cases) {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const file = await exportPaper(paper, format, part);
    times.push(performance.now() - t0);
    bytes = typeof file.body === "string" ? Buffer.byteLength(file.body) : file.body.byteLength;
  }
  times.sort((a, b) => a - b);
  console.log(
    `| ${format} | ${part} | ${times[Math.floor(RUNS / 2)]!.toFixed(1)} | ${times.at(-1)!.toFixed(1)} | ${bytes.toLocaleString("en")} |`,
  );
}
