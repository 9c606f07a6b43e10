import "server-only";
import { randomUUID } from "node:crypto";
import type { LanguageModel } from "ai";
import type { IDatabase } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { runGeneration } from "@/lib/generation/generate";
import { loadContext, loadScope, saveQuestionSet } from "@/lib/generation/store";
import { GenerationRequestSchema } from "@/schema/generation.schema";
import type { IPaper } from "@/types/paper.types";
import { findItem, getPaper, paperToUpdate, savePaper, toPaperQuestion } from "./store";

const NO_EVENTS = { question() {}, progress() {}, error() {} };

/**
 * Regenerates one paper item in place from the passages it cites: same type, Bloom level and
 * marks, a different stem from every question already in the paper. The new question is also
 * kept as a one-question set, so it can be found and reused like any generated question.
 */
export async function regenerateItem(
  deps: { db: IDatabase; model: LanguageModel | null; timeoutMs: number },
  userId: string,
  paperId: string,
  itemId: string,
  version?: number,
): Promise<IPaper> {
  const { db } = deps;
  const paper = await getPaper(db, userId, paperId);
  if (version !== undefined && version !== paper.version) {
    throw new AppError("conflict", "The paper was changed elsewhere; reload it and try again");
  }
  const { item } = findItem(paper, itemId);
  const q = item.question;
  if (q.citations.length === 0) {
    throw new AppError(
      "unprocessable",
      "This question cites no passages to regenerate it from; swap or edit it",
    );
  }
  const chunks = await loadContext(db, userId, q.citations);
  const request = GenerationRequestSchema.parse({
    filters: { board: paper.board, grade: paper.grade, subject: paper.subject },
    context: q.citations.map((c) => ({ documentId: c.documentId, chunkIndex: c.chunkIndex })),
    blueprint: {
      items: [{ type: q.type, count: 1, bloomLevel: q.bloomLevel, marks: Math.min(20, item.marks) }],
      difficulty: q.difficulty,
    },
    avoidPrompts: paper.sections
      .flatMap((s) => s.items.flatMap((i) => [i.question.promptText, i.alternative?.promptText ?? ""]))
      .filter((p) => p.length > 0)
      .slice(0, 60)
      .map((p) => p.slice(0, 1500)),
    seed: Math.floor(Math.random() * 2 ** 31),
    // A paper item regenerates from its own one or two citations: it may draw on their section.
    useSection: true,
  });
  // The chapter of the cited passages: options for the offline generator and the rest of the
  // section when the cited passages alone cannot carry a different question.
  const scope = await loadScope(
    db,
    userId,
    chunks.map((c) => c.documentId),
  );
  const result = await runGeneration(
    { model: deps.model, timeoutMs: deps.timeoutMs, scope },
    chunks,
    request,
    NO_EVENTS,
    () => randomUUID(),
  );
  const fresh = result.questions[0];
  if (!fresh) {
    throw new AppError(
      "unprocessable",
      result.warnings[0] ?? "Could not write a different question from these passages; swap or edit it",
    );
  }
  await saveQuestionSet(db, {
    userId,
    request,
    questions: [fresh],
    generator: result.generator,
    warnings: result.warnings,
    title: `Regenerated for "${paper.title}"`.slice(0, 200),
  });
  item.question = toPaperQuestion(fresh, q.chapter, item.marks);
  item.keepDespitePyq = undefined;
  return savePaper(db, userId, paperId, paperToUpdate(paper));
}
