import "server-only";
import type { ISqlExecutor } from "@/lib/db";
import type { TNarrowRow } from "@/lib/db/rows.generated";
import { AppError } from "@/lib/errors";
import { compactPool } from "@/lib/generation/offline/knowledge/pool";
import { questionEditIssues, type TGenerationRequest, type TPatchQuestion } from "@/schema/generation.schema";
import type { EZone, TZoneSpan } from "@/types/chunk.types";
import {
  type IContextChunk,
  type IQuestionSummary,
  passageKey,
  type TQuestion,
} from "@/types/generation.types";

/**
 * Loads the selected chunks with the caller's visibility applied in SQL. Any chunk that does not
 * exist or belongs to another user's private resource is a 403 naming it (no partial context).
 */
export async function loadContext(
  db: ISqlExecutor,
  userId: string,
  refs: readonly { documentId: string; chunkIndex: number }[],
): Promise<IContextChunk[]> {
  const rows = await db.query<{
    document_id: string;
    chunk_index: number;
    content: string;
    title: string;
    page_start: number | null;
    page_end: number | null;
    section_path: string;
    zone: EZone | null;
    zone_spans: TZoneSpan[] | null;
  }>(
    `select c.document_id, c.chunk_index, c.content, d.title, c.page_start, c.page_end, c.section_path,
       c.zone, c.zone_spans
     from unnest($1::uuid[], $2::int[]) with ordinality as r(d, i, ord)
     join document_chunks c on c.document_id = r.d and c.chunk_index = r.i
     join documents d on d.id = c.document_id and (d.visibility = 'shared' or d.owner_id = $3)
     order by r.ord`,
    [refs.map((r) => r.documentId), refs.map((r) => r.chunkIndex), userId],
  );
  const found = new Set(rows.map((r) => `${r.document_id}:${r.chunk_index}`));
  const missing = refs.filter((r) => !found.has(passageKey(r)));
  if (missing.length > 0) {
    throw new AppError(
      "forbidden",
      `You cannot use ${missing.length} of the selected passages (missing or not visible to you)`,
      {
        details: missing.slice(0, 10).map((m) => ({ path: "context", message: passageKey(m) })),
      },
    );
  }
  const seen = new Set<string>();
  return rows
    .filter((r) => {
      const k = `${r.document_id}:${r.chunk_index}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .map((r) => ({
      documentId: r.document_id,
      chunkIndex: r.chunk_index,
      content: r.content,
      title: r.title,
      ...(r.page_start !== null ? { pageStart: r.page_start } : {}),
      ...(r.page_end !== null ? { pageEnd: r.page_end } : {}),
      sectionPath: r.section_path,
      // Zones stored at ingestion; without them the sentence source reads them from the text.
      ...(r.zone ? { zone: r.zone } : {}),
      ...(Array.isArray(r.zone_spans) ? { zoneSpans: r.zone_spans } : {}),
    }));
}

/**
 * The chapter(s) behind the selected passages: every chunk of their documents the caller may see,
 * in reading order, up to `max`; then, with `pool: true`, the option pool of `loadOptionPool`,
 * marked `optionsOnly`. The offline generator draws wrong options and investigation controls from
 * the chapter, and Remember MCQ options of the key's kind from the pool; questions never cite either.
 * The pool is off by default: round 11's blind readers rejected the definition MCQs whose options
 * it supplied (other chapters' terms of a kind a student rules out: docs/offline-generator.md).
 */
export async function loadScope(
  db: ISqlExecutor,
  userId: string,
  documentIds: readonly string[],
  max = 400,
  opts: { pool?: boolean; poolWaitMs?: number } = {},
): Promise<IContextChunk[]> {
  if (documentIds.length === 0) return [];
  const rows = await db.query<TScopeRow>(
    `select c.document_id, c.chunk_index, c.content, d.title, d.bucket, d.path, c.section_path, c.zone,
       c.zone_spans
     from document_chunks c
     join documents d on d.id = c.document_id and (d.visibility = 'shared' or d.owner_id = $2)
     where c.document_id = any($1::uuid[])
     order by c.document_id, c.chunk_index
     limit $3`,
    [[...new Set(documentIds)], userId, max],
  );
  const chapter = rows.map(scopeChunk);
  if (opts.pool !== true) return chapter;
  return [
    ...chapter,
    ...(await loadOptionPool(db, userId, documentIds, undefined, opts.poolWaitMs ?? POOL_WAIT_MS)),
  ];
}

type TScopeRow = {
  document_id: string;
  chunk_index: number;
  content: string;
  title: string;
  bucket: string;
  path: string;
  section_path: string;
  zone: EZone | null;
  zone_spans: TZoneSpan[] | null;
};

const scopeChunk = (r: TScopeRow): IContextChunk => {
  // bucket and path ride along as before (the chunk type does not name them).
  const chunk = {
    documentId: r.document_id,
    chunkIndex: r.chunk_index,
    content: r.content,
    title: r.title,
    bucket: r.bucket,
    path: r.path,
    sectionPath: r.section_path,
    ...(r.zone ? { zone: r.zone } : {}),
    ...(Array.isArray(r.zone_spans) ? { zoneSpans: r.zone_spans } : {}),
  };
  return chunk;
};

/** How long a set waits for a subject's pool that is not read yet (then it goes without). */
export const POOL_WAIT_MS = 400;

/** Pools by their documents and sizes: sets of one subject reuse one pool (a new document makes a new key). */
const poolCache = new Map<string, IContextChunk[]>();
const POOL_CACHE_MAX = 8;

/**
 * The subject's option pool: the defining sentences of the OTHER textbook and notes documents of
 * the same board, class and subject as `documentIds` that the caller may see (never another
 * subject), cut to those sentences by `compactPool` so the pool is small to pass and to re-read.
 * The subject is read once and cached by its documents (a new or re-ingested document makes a new
 * key); the SQL pre-filter keeps the scan to chunks that may define something.
 */
export async function loadOptionPool(
  db: ISqlExecutor,
  userId: string,
  documentIds: readonly string[],
  maxChunks = 6000,
  waitMs = POOL_WAIT_MS,
): Promise<IContextChunk[]> {
  if (documentIds.length === 0) return [];
  const ids = [...new Set(documentIds)];
  const docs = await db.query<{ id: string; chunk_count: number | null }>(
    `select d.id, d.chunk_count
     from documents d
     where (d.visibility = 'shared' or d.owner_id = $2)
       and d.resource_type in ('textbook', 'notes')
       and exists (
         select 1 from documents k
         where k.id = any($1::uuid[]) and k.board = d.board and k.grade = d.grade and k.subject = d.subject
       )
     order by d.chapter_number nulls last, d.id
     limit 200`,
    [ids, userId],
  );
  // The whole subject is read and cached once (every set of the subject shares it); the
  // selection's own documents are left out of what is returned (they are the chapter).
  const others = (pool: readonly IContextChunk[]) => pool.filter((c) => !ids.includes(c.documentId));
  if (docs.length <= ids.length && docs.every((d) => ids.includes(d.id))) return [];
  const key = docs.map((d) => `${d.id}:${d.chunk_count ?? 0}`).join(",");
  const hit = poolCache.get(key);
  if (hit) return others(hit);
  // A cold subject is read in the background: the request waits at most `waitMs` for it, so the
  // first set after a restart is not delayed by a scan of the whole subject (it then goes without
  // the pool, and the next set of the subject has it).
  let reading = poolReads.get(key);
  if (!reading) {
    reading = readPool(db, docs, maxChunks)
      .then((pool) => {
        if (poolCache.size >= POOL_CACHE_MAX) poolCache.delete(poolCache.keys().next().value as string);
        poolCache.set(key, pool);
        return pool;
      })
      .finally(() => poolReads.delete(key));
    poolReads.set(key, reading);
  }
  const pool = await Promise.race([reading, delay(waitMs).then(() => null)]).catch(() => null);
  return pool ? others(pool) : [];
}

/** Subjects being read, so that concurrent sets share one read. */
const poolReads = new Map<string, Promise<IContextChunk[]>>();

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.());

async function readPool(
  db: ISqlExecutor,
  docs: readonly { id: string }[],
  maxChunks: number,
): Promise<IContextChunk[]> {
  const rows = await db.query<TScopeRow>(
    `select c.document_id, c.chunk_index, c.content, d.title, d.bucket, d.path, c.section_path, c.zone,
       c.zone_spans
     from document_chunks c
     join documents d on d.id = c.document_id
     where c.document_id = any($1::uuid[])
       and c.content ~* '(is|are) (called|known as|termed|defined as|referred to as|named|an? |the )|refers? to|means|is the term for'
     order by c.document_id, c.chunk_index
     limit $2`,
    [docs.map((d) => d.id), maxChunks],
  );
  return compactPool(rows.map(scopeChunk));
}

/** Persists a finished set and its questions in one transaction: all or nothing. */
export async function saveQuestionSet(
  db: { transaction<T>(fn: (tx: ISqlExecutor) => Promise<T>): Promise<T> },
  p: {
    userId: string;
    request: TGenerationRequest;
    questions: readonly TQuestion[];
    generator: string;
    warnings: string[];
    title: string;
  },
): Promise<string> {
  return db.transaction(async (tx) => {
    const [set] = await tx.query<{ id: string }>(
      `insert into question_sets (user_id, board, grade, subject, title, request, generator, warnings)
       values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
      [
        p.userId,
        p.request.filters.board,
        p.request.filters.grade,
        p.request.filters.subject,
        p.title,
        JSON.stringify(p.request),
        p.generator,
        JSON.stringify(p.warnings),
      ],
    );
    // One statement for every question: in embedded mode PGlite runs one statement at a time for
    // the whole process and holds other requests out for the whole transaction, so 60 inserts in
    // turn kept another teacher's retrieval waiting behind the set (issue 26).
    if (p.questions.length > 0) {
      const rows = p.questions.map((q, position) => {
        const { id, type, bloomLevel, difficulty, marks, promptText, contextRefs, validation, ...body } = q;
        return {
          id,
          position,
          type,
          bloom_level: bloomLevel,
          difficulty,
          marks,
          prompt_text: promptText,
          body,
          context_refs: contextRefs,
          validation,
        };
      });
      await tx.query(
        `insert into questions (id, set_id, position, type, bloom_level, difficulty, marks, prompt_text, body, context_refs, validation)
         select r.id, $1, r.position, r.type, r.bloom_level, r.difficulty, r.marks, r.prompt_text, r.body,
           r.context_refs, r.validation
         from jsonb_to_recordset($2::jsonb) as r(id uuid, position int, type text, bloom_level text,
           difficulty text, marks int, prompt_text text, body jsonb, context_refs jsonb, validation jsonb)`,
        [set!.id, JSON.stringify(rows)],
      );
    }
    return set!.id;
  });
}

/** A `questions` row (columns from the migrations) with its enums and jsonb shapes. */
export type IQuestionRow = TNarrowRow<
  "questions",
  {
    type: TQuestion["type"];
    bloom_level: TQuestion["bloomLevel"];
    difficulty: TQuestion["difficulty"];
    body: Record<string, unknown>;
    context_refs: TStoredContextRef[];
    validation: TQuestion["validation"];
    status: "draft" | "approved" | "rejected";
  }
>;

type TStoredContextRef = TQuestion["contextRefs"][number] & { bucket?: unknown; path?: unknown };

export function rowToQuestion(
  r: IQuestionRow,
): TQuestion & { status: IQuestionRow["status"]; setId: string } {
  return {
    ...(r.body as object),
    id: r.id,
    setId: r.set_id,
    type: r.type,
    bloomLevel: r.bloom_level,
    difficulty: r.difficulty,
    marks: r.marks,
    promptText: r.prompt_text,
    // Sets saved before storage keys were kept server-side carry bucket/path in their citations.
    contextRefs: r.context_refs.map(({ bucket: _b, path: _p, ...ref }: TStoredContextRef) => ref),
    validation: r.validation,
    status: r.status,
  } as TQuestion & { status: IQuestionRow["status"]; setId: string };
}

/** A set with its questions, only for its owner (others get 404). */
export async function getQuestionSet(db: ISqlExecutor, userId: string, setId: string) {
  const [set] = await db.query<{
    id: string;
    title: string;
    board: string;
    grade: string;
    subject: string;
    generator: string;
    warnings: string[];
    created_at: string | Date;
    request: unknown;
  }>(
    "select id, title, board, grade, subject, generator, warnings, created_at, request from question_sets where id = $1 and user_id = $2",
    [setId, userId],
  );
  if (!set) throw new AppError("not_found", "Question set not found");
  const rows = await db.query<IQuestionRow>("select * from questions where set_id = $1 order by position", [
    setId,
  ]);
  // The API object is camelCase like every other one (it was `created_at` before issue 28).
  const { created_at, request, ...rest } = set;
  const stored = readStoredRequest(request, set);
  return {
    ...rest,
    createdAt: new Date(created_at).toISOString(),
    topic: stored.topic,
    filters: stored.filters,
    context: stored.context,
    questions: rows.map(rowToQuestion),
  };
}

/**
 * What a stored request says about the set: its topic, scope and passages. Requests were validated
 * before they were stored; anything unexpected in an old row reads as absent (the row's own
 * board, class and subject stand).
 */
export function readStoredRequest(
  request: unknown,
  row: { board: string; grade: string; subject: string },
): {
  topic: string | null;
  filters: { board: string; grade: string; subject: string; chapterNumber?: number; documentIds?: string[] };
  context: { documentId: string; chunkIndex: number }[];
} {
  const r = (request && typeof request === "object" ? request : {}) as Record<string, unknown>;
  const f = (r.filters && typeof r.filters === "object" ? r.filters : {}) as Record<string, unknown>;
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  const documentIds = Array.isArray(f.documentIds)
    ? f.documentIds.filter((x): x is string => typeof x === "string" && uuid.test(x))
    : [];
  const context = Array.isArray(r.context)
    ? r.context.flatMap((c) => {
        const ref = (c && typeof c === "object" ? c : {}) as Record<string, unknown>;
        return typeof ref.documentId === "string" &&
          uuid.test(ref.documentId) &&
          Number.isInteger(ref.chunkIndex)
          ? [{ documentId: ref.documentId, chunkIndex: ref.chunkIndex as number }]
          : [];
      })
    : [];
  return {
    topic: typeof r.topic === "string" && r.topic.trim() ? r.topic : null,
    filters: {
      board: row.board,
      grade: row.grade,
      subject: row.subject,
      ...(Number.isInteger(f.chapterNumber) ? { chapterNumber: f.chapterNumber as number } : {}),
      ...(documentIds.length ? { documentIds } : {}),
    },
    context,
  };
}

/**
 * The caller's recent sets, newest first, with their review counts. A "Regenerate" of one card is
 * saved as its own one-question set (its request has `avoidPrompts`): those are not listed.
 */
export async function listQuestionSets(db: ISqlExecutor, userId: string, limit: number) {
  const rows = await db.query<{
    id: string;
    title: string;
    board: string;
    grade: string;
    subject: string;
    request: unknown;
    created_at: string | Date;
    questions: number;
    approved: number;
    rejected: number;
  }>(
    `select s.id, s.title, s.board, s.grade, s.subject, s.request, s.created_at,
       count(q.id)::int as questions,
       (count(q.id) filter (where q.status = 'approved'))::int as approved,
       (count(q.id) filter (where q.status = 'rejected'))::int as rejected
     from question_sets s left join questions q on q.set_id = s.id
     where s.user_id = $1 and s.request->'avoidPrompts' is null
     group by s.id
     order by s.created_at desc, s.id
     limit $2`,
    [userId, limit],
  );
  return rows.map((r) => {
    const stored = readStoredRequest(r.request, r);
    return {
      id: r.id,
      title: r.title,
      topic: stored.topic,
      filters: stored.filters,
      createdAt: new Date(r.created_at).toISOString(),
      contextCount: stored.context.length,
      questionCount: r.questions,
      approved: r.approved,
      rejected: r.rejected,
    };
  });
}

/**
 * Past-paper questions for the few-shot strategy: question-looking lines from the caller's
 * visible PYQ resources of the same board/class/subject (style exemplars, never content).
 */
export async function loadExemplars(
  db: ISqlExecutor,
  userId: string,
  scope: { board: string; grade: string; subject: string },
  max = 5,
): Promise<string[]> {
  const rows = await db.query<{ content: string }>(
    `select c.content from document_chunks c join documents d on d.id = c.document_id
     where d.resource_type = 'pyq' and d.board = $1 and d.grade = $2 and d.subject = $3
       and (d.visibility = 'shared' or d.owner_id = $4)
     order by c.document_id, c.chunk_index limit 20`,
    [scope.board, scope.grade, scope.subject, userId],
  );
  const questions = rows
    .flatMap((r) => r.content.split("\n"))
    .map((l) => l.replace(/^\s*(?:Q\.?\s*)?\d+[.)]\s*/, "").trim())
    .filter(
      (l) =>
        l.length >= 20 &&
        l.length <= 300 &&
        /\?$|^(define|explain|describe|state|why|how|what|which|compare|calculate)\b/i.test(l),
    );
  return [...new Set(questions)].slice(0, max);
}

/**
 * The caller's saved questions for reuse, newest first, filtered by type, Bloom level, chapter
 * (number or name of the first cited document) and words of the stem. Rejected ones are left out.
 */
export async function searchQuestions(
  db: ISqlExecutor,
  userId: string,
  f: { type?: string; bloomLevel?: string; chapter?: string; q?: string; limit: number },
): Promise<IQuestionSummary[]> {
  const rows = await db.query<{
    id: string;
    set_id: string;
    set_title: string;
    subject: string;
    type: IQuestionSummary["type"];
    bloom_level: IQuestionSummary["bloomLevel"];
    difficulty: IQuestionSummary["difficulty"];
    marks: number;
    prompt_text: string;
    status: IQuestionSummary["status"];
    chapter_number: number | null;
    chapter_name: string | null;
    created_at: string | Date;
  }>(
    `select q.id, q.set_id, s.title as set_title, s.subject, q.type, q.bloom_level, q.difficulty, q.marks, q.prompt_text,
       q.status, d.chapter_number, d.chapter_name, q.created_at
     from questions q join question_sets s on s.id = q.set_id
     left join documents d on d.id = (case when jsonb_typeof(q.context_refs) = 'array'
       and q.context_refs->0->>'documentId' ~ '^[0-9a-fA-F-]{36}$'
       then (q.context_refs->0->>'documentId')::uuid end)
     where s.user_id = $1 and q.status <> 'rejected'
       and ($2::text is null or q.type = $2) and ($3::text is null or q.bloom_level = $3)
       and ($4::text is null or d.chapter_number::text = $4 or d.chapter_name ilike '%' || $4 || '%')
       and ($5::text is null or q.prompt_text ilike '%' || $5 || '%')
       and not exists (select 1 from question_sets r join questions rq on rq.set_id = r.id
         where r.user_id = $1 and r.request->>'replaces' = q.id::text and rq.status <> 'rejected')
     order by q.created_at desc, q.position limit $6`,
    [
      userId,
      f.type ?? null,
      f.bloomLevel ?? null,
      f.chapter ? escapeLike(f.chapter) : null,
      f.q ? escapeLike(f.q) : null,
      f.limit,
    ],
  );
  const earlier = await earlierVersions(
    db,
    userId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    setId: r.set_id,
    setTitle: r.set_title,
    subject: r.subject,
    type: r.type,
    bloomLevel: r.bloom_level,
    difficulty: r.difficulty,
    marks: r.marks,
    promptText: r.prompt_text,
    status: r.status,
    ...(r.chapter_number !== null || r.chapter_name
      ? { chapter: [r.chapter_number, r.chapter_name].filter((x) => x !== null && x !== "").join(" · ") }
      : {}),
    createdAt: new Date(r.created_at).toISOString(),
    ...(earlier.has(r.id) ? { earlierVersions: earlier.get(r.id) } : {}),
  }));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
type TEarlierVersion = NonNullable<IQuestionSummary["earlierVersions"]>[number];

/**
 * The versions each question replaced ("Regenerate" / "Try again" save a one-question set whose
 * request names the question it `replaces`), newest first, following the chain back (A → B → C
 * gives C two earlier versions). Only the caller's own sets and questions count.
 */
async function earlierVersions(
  db: ISqlExecutor,
  userId: string,
  ids: readonly string[],
): Promise<Map<string, TEarlierVersion[]>> {
  const out = new Map<string, TEarlierVersion[]>();
  if (ids.length === 0) return out;
  const edges = await db.query<{ id: string; replaced: string | null }>(
    `select q.id, s.request->>'replaces' as replaced from question_sets s join questions q on q.set_id = s.id
     where s.user_id = $1 and jsonb_typeof(s.request->'replaces') = 'string'`,
    [userId],
  );
  if (edges.length === 0) return out;
  const replacedBy = new Map(
    edges.flatMap((e) => (e.replaced && UUID.test(e.replaced) ? [[e.id, e.replaced]] : [])),
  );
  const chains = new Map<string, string[]>();
  for (const id of ids) {
    const chain: string[] = [];
    const seen = new Set([id]);
    for (let cur = replacedBy.get(id); cur && !seen.has(cur); cur = replacedBy.get(cur)) {
      seen.add(cur);
      chain.push(cur);
    }
    if (chain.length > 0) chains.set(id, chain);
  }
  if (chains.size === 0) return out;
  const found = await db.query<{
    id: string;
    prompt_text: string;
    status: TEarlierVersion["status"];
    created_at: string | Date;
  }>(
    `select q.id, q.prompt_text, q.status, q.created_at from questions q join question_sets s on s.id = q.set_id
     where s.user_id = $1 and q.id = any($2::uuid[])`,
    [userId, [...new Set([...chains.values()].flat())]],
  );
  const byId = new Map(found.map((f) => [f.id, f]));
  for (const [id, chain] of chains) {
    const versions = chain.flatMap((c) => {
      const f = byId.get(c);
      return f
        ? [
            {
              id: f.id,
              promptText: f.prompt_text,
              status: f.status,
              createdAt: new Date(f.created_at).toISOString(),
            },
          ]
        : [];
    });
    if (versions.length > 0) out.set(id, versions);
  }
  return out;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

const MCQ_ONLY = ["options", "correctIndex", "explanation"] as const;
const ANSWER_ONLY = ["suggestedAnswer", "markingScheme"] as const;
const CONTENT = [
  "promptText",
  "marks",
  "bloomLevel",
  "options",
  "correctIndex",
  "explanation",
  "suggestedAnswer",
  "markingScheme",
] as const;

/**
 * Review state and edits by hand of a saved question; only its owner's (others get 404, so a
 * question id does not tell whether it exists). A content edit marks the question `edited`; a
 * changed stem or option sets `checkAnswer` until the teacher confirms the key (`checkAnswer:
 * false`). The merged question must hold together (one key among distinct options, marking points
 * that add up to the marks), else 422 naming the field.
 */
export async function updateQuestion(db: ISqlExecutor, userId: string, id: string, patch: TPatchQuestion) {
  const [row] = await db.query<IQuestionRow>(
    `select q.* from questions q join question_sets s on s.id = q.set_id where q.id = $1 and s.user_id = $2`,
    [id, userId],
  );
  if (!row) throw new AppError("not_found", "Question not found");
  const current = rowToQuestion(row);
  const misplaced = (current.type === "mcq" ? ANSWER_ONLY : MCQ_ONLY).filter((k) => patch[k] !== undefined);
  if (misplaced.length > 0) {
    throw new AppError("bad_request", `A ${current.type} question has no ${misplaced.join(", ")}`, {
      details: misplaced.map((k) => ({ path: k, message: `Not a field of a ${current.type} question` })),
    });
  }
  const body = { ...(row.body as Record<string, unknown>) };
  const before = current as TQuestion & { options?: string[]; distractorRationales?: string[] };
  const options = patch.options ?? before.options;
  const correctIndex = patch.correctIndex ?? (current.type === "mcq" ? current.correctIndex : undefined);
  const marks = patch.marks ?? current.marks;
  const scheme = patch.markingScheme ?? (current.type === "mcq" ? undefined : current.markingScheme);
  // Only the fields this edit touches can make it wrong: an old scheme off by a mark does not
  // block approving the question.
  const issues = questionEditIssues({
    type: current.type,
    marks,
    options,
    correctIndex,
    markingScheme: scheme,
  }).filter((i) =>
    i.path === "markingScheme"
      ? patch.marks !== undefined || patch.markingScheme !== undefined
      : patch.options !== undefined || patch.correctIndex !== undefined,
  );
  if (issues.length > 0) {
    throw new AppError("unprocessable", issues[0]!.message, { details: issues });
  }
  const edited = CONTENT.some((k) => patch[k] !== undefined);
  if (current.type === "mcq" && (patch.options || patch.correctIndex !== undefined)) {
    // Each wrong option keeps its rationale while its text is unchanged; a new one has none yet.
    const old = new Map(
      current.options
        .map((o, i) => [o, i] as const)
        .filter(([, i]) => i !== current.correctIndex)
        .map(([o], j) => [o, current.distractorRationales[j] ?? ""] as const),
    );
    body.options = options;
    body.correctIndex = correctIndex;
    body.distractorRationales = (options ?? [])
      .filter((_, i) => i !== correctIndex)
      .map((o) => old.get(o) ?? "");
  }
  if (patch.explanation !== undefined) body.explanation = patch.explanation;
  if (patch.suggestedAnswer !== undefined) body.suggestedAnswer = patch.suggestedAnswer;
  if (patch.markingScheme !== undefined) body.markingScheme = patch.markingScheme;
  if (edited) body.edited = true;
  const questionChanged =
    (patch.promptText !== undefined && patch.promptText !== current.promptText) ||
    (patch.options !== undefined && JSON.stringify(patch.options) !== JSON.stringify(before.options));
  if (patch.checkAnswer !== undefined) body.checkAnswer = patch.checkAnswer;
  else if (questionChanged) body.checkAnswer = true;
  const [updated] = await db.query<IQuestionRow>(
    `update questions set status = coalesce($2, status), prompt_text = coalesce($3, prompt_text),
       marks = coalesce($4, marks), bloom_level = coalesce($5, bloom_level), body = $6::jsonb, updated_at = now()
     where id = $1 returning *`,
    [
      id,
      patch.status ?? null,
      patch.promptText ?? null,
      patch.marks ?? null,
      patch.bloomLevel ?? null,
      JSON.stringify(body),
    ],
  );
  return rowToQuestion(updated!);
}
