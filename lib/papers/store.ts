import "server-only";
import { randomUUID } from "node:crypto";
import type { ISqlExecutor } from "@/lib/db";
import type { TNarrowRow } from "@/lib/db/rows.generated";
import { AppError } from "@/lib/errors";
import { type IQuestionRow, rowToQuestion } from "@/lib/generation/store";
import type { TPaperCreate, TPaperUpdate } from "@/schema/paper.schema";
import type { TQuestion } from "@/types/generation.types";
import type {
  IPaper,
  IPaperBlueprint,
  IPaperItem,
  IPaperQuestion,
  IPaperSection,
  IPaperSummary,
} from "@/types/paper.types";
import { countedMarks } from "./check";
import { paperFromTemplate } from "./templates";

/** A `papers` row (columns from the migrations) with its jsonb shapes. */
type IPaperRow = TNarrowRow<
  "papers",
  { instructions: string[]; sections: IPaperSection[]; blueprint: IPaperBlueprint | null }
>;

const iso = (d: string | Date) => new Date(d).toISOString();

function rowToPaper(r: IPaperRow): IPaper {
  return {
    id: r.id,
    title: r.title,
    ...(r.school_name ? { schoolName: r.school_name } : {}),
    board: r.board,
    grade: r.grade,
    subject: r.subject,
    durationMinutes: r.duration_minutes,
    totalMarks: r.total_marks,
    instructions: r.instructions,
    sections: r.sections,
    ...(r.blueprint ? { blueprint: r.blueprint } : {}),
    version: r.version,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

export async function listPapers(db: ISqlExecutor, userId: string): Promise<IPaperSummary[]> {
  const rows = await db.query<IPaperRow>(
    "select * from papers where user_id = $1 order by updated_at desc limit 200",
    [userId],
  );
  return rows.map((r) => {
    const p = rowToPaper(r);
    return {
      id: p.id,
      title: p.title,
      board: p.board,
      grade: p.grade,
      subject: p.subject,
      totalMarks: p.totalMarks,
      countedMarks: countedMarks(p),
      itemCount: p.sections.reduce((a, s) => a + s.items.length, 0),
      updatedAt: p.updatedAt,
    };
  });
}

/** A paper, only for its owner (others get 404, so ids do not leak). */
export async function getPaper(db: ISqlExecutor, userId: string, id: string): Promise<IPaper> {
  const [row] = await db.query<IPaperRow>("select * from papers where id = $1 and user_id = $2", [
    id,
    userId,
  ]);
  if (!row) throw new AppError("not_found", "Paper not found");
  return rowToPaper(row);
}

export async function createPaper(db: ISqlExecutor, userId: string, input: TPaperCreate): Promise<IPaper> {
  const p = paperFromTemplate(input);
  const [row] = await db.query<IPaperRow>(
    `insert into papers (user_id, title, school_name, board, grade, subject, duration_minutes, total_marks,
       instructions, sections, blueprint)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning *`,
    [
      userId,
      p.title,
      p.schoolName ?? null,
      p.board,
      p.grade,
      p.subject,
      p.durationMinutes,
      p.totalMarks,
      JSON.stringify(p.instructions),
      JSON.stringify(p.sections),
      p.blueprint ? JSON.stringify(p.blueprint) : null,
    ],
  );
  return rowToPaper(row!);
}

/**
 * Replaces the whole paper in one UPDATE, only if `version` is still the stored one: a stale
 * editor gets 409 instead of silently overwriting a newer save.
 */
export async function savePaper(
  db: ISqlExecutor,
  userId: string,
  id: string,
  update: TPaperUpdate,
): Promise<IPaper> {
  await assertOwnSources(db, userId, update.sections);
  const [row] = await db.query<IPaperRow>(
    `update papers set title = $3, school_name = $4, board = $5, grade = $6, subject = $7,
       duration_minutes = $8, total_marks = $9, instructions = $10, sections = $11, blueprint = $12,
       version = version + 1, updated_at = now()
     where id = $1 and user_id = $2 and version = $13 returning *`,
    [
      id,
      userId,
      update.title,
      update.schoolName ?? null,
      update.board,
      update.grade,
      update.subject,
      update.durationMinutes,
      update.totalMarks,
      JSON.stringify(update.instructions),
      JSON.stringify(update.sections),
      update.blueprint ? JSON.stringify(update.blueprint) : null,
      update.version,
    ],
  );
  if (row) return rowToPaper(row);
  const current = await getPaper(db, userId, id); // 404 when not the owner's
  throw new AppError(
    "conflict",
    `The paper was changed elsewhere (version ${current.version}, yours ${update.version}); reload it and try again`,
  );
}

export async function deletePaper(db: ISqlExecutor, userId: string, id: string): Promise<void> {
  const rows = await db.query("delete from papers where id = $1 and user_id = $2 returning id", [id, userId]);
  if (rows.length === 0) throw new AppError("not_found", "Paper not found");
}

/** Items may only point back at the caller's own generated questions. */
async function assertOwnSources(db: ISqlExecutor, userId: string, sections: readonly IPaperSection[]) {
  const ids = [
    ...new Set(
      sections.flatMap((s) =>
        s.items.flatMap((i) => [i.question.sourceQuestionId, i.alternative?.sourceQuestionId]),
      ),
    ),
  ].filter((x): x is string => Boolean(x));
  if (ids.length === 0) return;
  const own = await db.query<{ id: string }>(
    `select q.id from questions q join question_sets s on s.id = q.set_id
     where q.id = any($1::uuid[]) and s.user_id = $2`,
    [ids, userId],
  );
  if (own.length !== ids.length) {
    throw new AppError("forbidden", "The paper refers to questions that are not yours", {
      details: [{ path: "sections", message: `${ids.length - own.length} unknown question reference(s)` }],
    });
  }
}

/** Chapter labels ("4 · Cell Structure") of the documents questions cite. */
export async function chapterLabels(db: ISqlExecutor, documentIds: readonly string[]) {
  if (documentIds.length === 0) return new Map<string, string>();
  const rows = await db.query<{
    id: string;
    chapter_number: number | null;
    chapter_name: string | null;
    title: string;
  }>("select id, chapter_number, chapter_name, title from documents where id = any($1::uuid[])", [
    [...new Set(documentIds)],
  ]);
  return new Map(
    rows.map((r) => [
      r.id,
      r.chapter_number !== null
        ? `${r.chapter_number}${r.chapter_name ? ` · ${r.chapter_name}` : ""}`
        : (r.chapter_name ?? r.title),
    ]),
  );
}

/** Spreads marks over a marking scheme's points (largest remainder, at least 1 per point). */
export function rescaleScheme(
  scheme: readonly { point: string; marks: number }[],
  marks: number,
): { point: string; marks: number }[] {
  const points = scheme.slice(0, Math.max(1, marks));
  const total = points.reduce((a, p) => a + p.marks, 0) || points.length;
  const raw = points.map((p) => ((p.marks || 1) / total) * marks);
  const out = raw.map((r) => Math.max(1, Math.floor(r)));
  let left = marks - out.reduce((a, m) => a + m, 0);
  const order = raw.map((r, i) => [r - Math.floor(r), i] as const).sort((a, b) => b[0] - a[0]);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) out[order[k]![1]]! += 1;
  for (let i = out.length - 1; left < 0 && i >= 0; i--) {
    while (out[i]! > 1 && left < 0) {
      out[i]! -= 1;
      left++;
    }
  }
  return points.map((p, i) => ({ point: p.point, marks: out[i]! }));
}

/** A generated question copied into a paper (a snapshot, independent of later edits to the set). */
export function toPaperQuestion(q: TQuestion, chapter: string | undefined, marks: number): IPaperQuestion {
  const base: IPaperQuestion = {
    type: q.type,
    bloomLevel: q.bloomLevel,
    difficulty: q.difficulty,
    promptText: q.promptText,
    citations: q.contextRefs.slice(0, 10).map((r) => ({
      documentId: r.documentId,
      chunkIndex: r.chunkIndex,
      title: r.title,
      ...(r.pageStart !== undefined ? { pageStart: r.pageStart } : {}),
      ...(r.pageEnd !== undefined ? { pageEnd: r.pageEnd } : {}),
      quote: r.quote.slice(0, 2000),
    })),
    ...(chapter ? { chapter: chapter.slice(0, 200) } : {}),
    sourceQuestionId: q.id,
    ...(q.edited ? { edited: true } : {}),
    ...(q.checkAnswer ? { checkAnswer: true } : {}),
  };
  if (q.type === "mcq") {
    return {
      ...base,
      options: q.options,
      correctIndex: q.correctIndex,
      explanation: q.explanation,
      distractorRationales: q.distractorRationales,
    };
  }
  const scheme = q.type === "long" && q.markingScheme.length > 0 ? q.markingScheme : undefined;
  return {
    ...base,
    suggestedAnswer: q.suggestedAnswer,
    evaluatorKeywords: q.evaluatorKeywords,
    ...(scheme ? { markingScheme: rescaleScheme(scheme, marks) } : {}),
  };
}

/** Loads the caller's own generated questions by id; anything else is a 403 naming the count. */
export async function loadOwnQuestions(db: ISqlExecutor, userId: string, ids: readonly string[]) {
  const rows = await db.query<IQuestionRow>(
    `select q.* from questions q join question_sets s on s.id = q.set_id
     where q.id = any($1::uuid[]) and s.user_id = $2`,
    [[...new Set(ids)], userId],
  );
  const found = new Map(rows.map((r) => [r.id, rowToQuestion(r)]));
  const missing = [...new Set(ids)].filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new AppError(
      "forbidden",
      `You cannot add ${missing.length} of these questions (missing or not yours)`,
      {
        details: missing.slice(0, 10).map((m) => ({ path: "questionIds", message: m })),
      },
    );
  }
  return ids.map((id) => found.get(id)!);
}

/** Where an added question goes: the given section, else the first that takes its type and marks. */
export function placeQuestion(
  sections: IPaperSection[],
  q: Pick<TQuestion, "type" | "marks">,
  sectionId?: string,
): IPaperSection {
  if (sectionId) {
    const s = sections.find((x) => x.id === sectionId);
    if (!s) throw new AppError("not_found", "Section not found in this paper");
    if (s.questionType !== "mixed" && s.questionType !== q.type) {
      throw new AppError(
        "bad_request",
        `Section "${s.name}" holds ${s.questionType} questions, not ${q.type}`,
        {
          details: [{ path: "sectionId", message: `expects ${s.questionType}` }],
        },
      );
    }
    return s;
  }
  const fits = (s: IPaperSection) => s.questionType === q.type || s.questionType === "mixed";
  const found =
    sections.find((s) => fits(s) && s.marksPerQuestion === q.marks) ??
    sections.find((s) => s.questionType === q.type) ??
    sections.find(fits);
  if (found) return found;
  const letter = String.fromCharCode(65 + (sections.length % 26));
  const created: IPaperSection = {
    id: randomUUID(),
    name: `Section ${letter}`,
    questionType: q.type,
    items: [],
  };
  sections.push(created);
  return created;
}

/** Copies generated questions into the paper; questions already in it are skipped, not doubled. */
export async function addQuestions(
  db: ISqlExecutor,
  userId: string,
  paperId: string,
  input: { questionIds: string[]; sectionId?: string; version?: number },
): Promise<{ paper: IPaper; added: number; skipped: number }> {
  const paper = await getPaper(db, userId, paperId);
  if (input.version !== undefined && input.version !== paper.version) {
    throw new AppError("conflict", "The paper was changed elsewhere; reload it and try again");
  }
  const questions = await loadOwnQuestions(db, userId, input.questionIds);
  const chapters = await chapterLabels(
    db,
    questions.flatMap((q) => q.contextRefs.slice(0, 1).map((r) => r.documentId)),
  );
  const present = new Set(
    paper.sections.flatMap((s) => s.items.map((i) => i.question.sourceQuestionId).filter(Boolean)),
  );
  let added = 0;
  for (const q of questions) {
    if (present.has(q.id)) continue;
    const section = placeQuestion(paper.sections, q, input.sectionId);
    const marks = section.marksPerQuestion ?? q.marks;
    const item: IPaperItem = {
      id: randomUUID(),
      marks,
      question: toPaperQuestion(q, chapters.get(q.contextRefs[0]?.documentId ?? ""), marks),
    };
    section.items.push(item);
    present.add(q.id);
    added++;
  }
  const saved = await savePaper(db, userId, paperId, paperToUpdate(paper));
  return { paper: saved, added, skipped: questions.length - added };
}

/**
 * A similar question for "swap": same type, Bloom level and chapter, from the caller's own
 * sets, not rejected and not already in the paper; approved and recent ones first.
 */
export async function findSimilarQuestion(
  db: ISqlExecutor,
  userId: string,
  paper: IPaper,
  item: IPaperItem,
): Promise<TQuestion | null> {
  const q = item.question;
  const inPaper = paper.sections.flatMap((s) =>
    s.items.flatMap((i) => [i.question.sourceQuestionId, i.alternative?.sourceQuestionId]),
  );
  const prompts = new Set(paper.sections.flatMap((s) => s.items.map((i) => norm(i.question.promptText))));
  const rows = await db.query<IQuestionRow>(
    `select q.* from questions q join question_sets s on s.id = q.set_id
     where s.user_id = $1 and q.type = $2 and q.bloom_level = $3 and q.status <> 'rejected'
       and not (q.id = any($4::uuid[]))
     order by (q.status = 'approved') desc, q.created_at desc limit 200`,
    [userId, q.type, q.bloomLevel, inPaper.filter(Boolean)],
  );
  const candidates = rows.map(rowToQuestion).filter((c) => !prompts.has(norm(c.promptText)));
  if (candidates.length === 0) return null;
  if (!q.chapter) return candidates[0]!;
  const chapters = await chapterLabels(
    db,
    candidates.flatMap((c) => c.contextRefs.slice(0, 1).map((r) => r.documentId)),
  );
  return candidates.find((c) => chapters.get(c.contextRefs[0]?.documentId ?? "") === q.chapter) ?? null;
}

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();

/** The stored paper as a PUT body (for server-side edits that go through the same save path). */
export function paperToUpdate(paper: IPaper): TPaperUpdate {
  return {
    title: paper.title,
    ...(paper.schoolName ? { schoolName: paper.schoolName } : {}),
    board: paper.board,
    grade: paper.grade,
    subject: paper.subject,
    durationMinutes: paper.durationMinutes,
    totalMarks: paper.totalMarks,
    instructions: paper.instructions,
    sections: paper.sections,
    blueprint: paper.blueprint ?? null,
    version: paper.version,
  } as TPaperUpdate;
}

/** Finds an item by id; 404 when the paper has no such item. */
export function findItem(paper: IPaper, itemId: string): { section: IPaperSection; item: IPaperItem } {
  for (const section of paper.sections) {
    const item = section.items.find((i) => i.id === itemId);
    if (item) return { section, item };
  }
  throw new AppError("not_found", "Question not found in this paper");
}

/** Swaps an item's question for a similar one from the caller's sets (404 when there is none). */
export async function swapItem(
  db: ISqlExecutor,
  userId: string,
  paperId: string,
  itemId: string,
  version?: number,
): Promise<IPaper> {
  const paper = await getPaper(db, userId, paperId);
  if (version !== undefined && version !== paper.version) {
    throw new AppError("conflict", "The paper was changed elsewhere; reload it and try again");
  }
  const { item } = findItem(paper, itemId);
  const similar = await findSimilarQuestion(db, userId, paper, item);
  if (!similar) {
    throw new AppError(
      "not_found",
      "No similar question (same chapter, type and Bloom level) in your generated sets; regenerate it instead",
    );
  }
  item.question = toPaperQuestion(similar, item.question.chapter, item.marks);
  item.keepDespitePyq = undefined;
  return savePaper(db, userId, paperId, paperToUpdate(paper));
}

/** Past-paper chunks of the paper's subject the caller can see. */
export async function loadPyqChunks(
  db: ISqlExecutor,
  userId: string,
  scope: { board: string; grade: string; subject: string },
  limit = 5000,
) {
  const rows = await db.query<{
    document_id: string;
    title: string;
    page_start: number | null;
    content: string;
  }>(
    `select c.document_id, d.title, c.page_start, c.content from document_chunks c
     join documents d on d.id = c.document_id
     where d.resource_type = 'pyq' and d.board = $1 and d.grade = $2 and d.subject = $3
       and (d.visibility = 'shared' or d.owner_id = $4)
     order by c.document_id, c.chunk_index limit $5`,
    [scope.board, scope.grade, scope.subject, userId, limit],
  );
  return rows.map((r) => ({
    documentId: r.document_id,
    title: r.title,
    ...(r.page_start !== null ? { pageStart: r.page_start } : {}),
    content: r.content,
  }));
}
