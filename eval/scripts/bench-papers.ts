/**
 * npm run bench:papers — builds the 80-mark board paper from offline-generated questions on the
 * demo photosynthesis chapter, then times every export (paper and answer key) and reports sizes.
 */
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { runGeneration } from "@/lib/generation/generate";
import { checkPaper } from "@/lib/papers/check";
import { exportPaper } from "@/lib/papers/export";
import { toPaperQuestion } from "@/lib/papers/store";
import { paperFromTemplate } from "@/lib/papers/templates";
import { GenerationRequestSchema } from "@/schema/generation.schema";
import { BLOOM_LEVELS } from "@/types/bloom.types";
import type { IContextChunk, TQuestion } from "@/types/generation.types";
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
      pageStart: chunkIndex + 1,
    }));
}

/** Questions of one type and marks from the gated offline pipeline, over all six levels. */
async function generate(chunks: IContextChunk[], type: TQuestion["type"], count: number, marks: number) {
  const request = GenerationRequestSchema.parse({
    filters: { board: "CBSE", grade: "11", subject: "Biology" },
    context: chunks.slice(0, 60).map((c) => ({ documentId: c.documentId, chunkIndex: c.chunkIndex })),
    blueprint: { items: [{ type, count, marks }], bloomTargets: [...BLOOM_LEVELS] },
    seed: 7,
  });
  const none = { question: () => undefined, progress: () => undefined, error: () => undefined };
  const result = await runGeneration({ model: null, timeoutMs: 0 }, chunks.slice(0, 60), request, none, () =>
    randomUUID(),
  );
  return result.questions;
}

async function boardPaper(): Promise<IPaper> {
  const chunks = await demoChunks();
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
  for (const [si, section] of paper.sections.entries()) {
    const type = section.questionType === "mixed" ? "short" : section.questionType;
    const marks = section.marksPerQuestion ?? 1;
    const questions = await generate(chunks, type, counts[si]!, marks);
    if (questions.length === 0) throw new Error(`no ${type} questions for ${section.name}`);
    // The export cost depends on the paper's size: slots the gate left empty reuse a question.
    for (let i = 0; i < counts[si]!; i++) {
      section.items.push({
        id: randomUUID(),
        marks,
        question: toPaperQuestion(questions[i % questions.length]!, "8 · Photosynthesis", marks),
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
