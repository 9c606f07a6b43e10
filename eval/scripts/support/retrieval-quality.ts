import type { IDatabase } from "@/lib/db";
import { toVectorLiteral } from "@/lib/db/types";
import { dedupeSections, ndcgAt, recallAt, type TGrades } from "@/lib/eval/metrics";
import type { IEmbedder } from "@/types/chunk.types";

/**
 * The retrieval quality and latency run shared by bench:retrieval (embedded) and bench:postgres
 * (DATABASE_URL): the open queries through retrieve() beside Supabase's documented RRF
 * hybrid_search, and the synthetic scale-up, so both databases are measured the same way.
 */
export interface IQuery {
  query: string;
  type: string;
  relevant: TGrades;
}

export const FILTERS = { board: "OpenStax", grade: "11", subject: "Biology" };

export const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};

// Supabase's documented hybrid_search (weighted RRF), scoped to the same subject for fairness.
const RRF_SQL = `
with scope as (
  select id from documents where board = $1 and grade = $2 and subject = $3
),
full_text as (
  select c.document_id, c.chunk_index,
         row_number() over (order by ts_rank_cd(c.fts, websearch_to_tsquery('english', $4)) desc) as rank_ix
  from document_chunks c
  where c.document_id in (select id from scope) and c.fts @@ websearch_to_tsquery('english', $4)
  order by rank_ix
  limit least($6::int, 30) * 2
),
semantic as (
  select c.document_id, c.chunk_index, row_number() over (order by c.embedding <#> $5::vector) as rank_ix
  from document_chunks c
  where c.document_id in (select id from scope)
  order by rank_ix
  limit least($6::int, 30) * 2
)
select c.document_id, c.chunk_index, c.section_path
from full_text
full outer join semantic on full_text.document_id = semantic.document_id and full_text.chunk_index = semantic.chunk_index
join document_chunks c on c.document_id = coalesce(full_text.document_id, semantic.document_id)
  and c.chunk_index = coalesce(full_text.chunk_index, semantic.chunk_index)
order by coalesce(1.0 / (50 + full_text.rank_ix), 0.0) * 1 + coalesce(1.0 / (50 + semantic.rank_ix), 0.0) * 1 desc
limit least($6::int, 30)`;

export interface IQualityBenchInput {
  db: IDatabase;
  embedder: IEmbedder;
  userId: string;
  queries: IQuery[];
  planner: boolean;
}

export function createQualityBench({ db, embedder, userId, queries, planner }: IQualityBenchInput) {
  // Chapters as first ingested: the scale-up's copies never count as relevant.
  let sectionOfOnce: ReturnType<typeof sectionOfFor> | null = null;
  const sectionOfFor = async () => {
    const chapterOf = new Map(
      (
        await db.query<{ id: string; chapter_number: number }>("select id, chapter_number from documents")
      ).map((d) => [d.id, d.chapter_number]),
    );
    return (documentId: string, sectionPath: string | null | undefined): string | null => {
      const m = sectionPath ? /(?:^|> )(\d+)\.(\d+)\b/.exec(sectionPath) : null;
      return m && Number(m[1]) === chapterOf.get(documentId) ? `biology-2e:${m[1]}.${m[2]}` : null;
    };
  };

  /** Quality and server-side latency over every query; prints a Markdown table. */
  async function run(label: string): Promise<void> {
    const { retrieve } = await import("@/lib/retrieval/retrieve");
    sectionOfOnce ??= sectionOfFor();
    const sectionOf = await sectionOfOnce;
    const ours: number[] = [];
    const rrf: number[] = [];
    let cut = 0;
    const quality = { ours: { r: 0, n: 0 }, rrf: { r: 0, n: 0 } };
    for (const q of queries) {
      const res = await retrieve({ db, embedder, model: null, llmTimeoutMs: 0 }, userId, {
        filters: FILTERS,
        query: q.query,
        topK: 8,
        enableRerank: true,
        planner: planner,
      });
      ours.push(res.debug.totalMs);
      if (res.plan.probes.some((p) => p.note === "latency budget spent")) cut++;
      const wide = await retrieve({ db, embedder, model: null, llmTimeoutMs: 0 }, userId, {
        filters: FILTERS,
        query: q.query,
        topK: 24,
        rerankFanout: 24,
        enableRerank: true,
        planner: planner,
      });
      const oursSections = wide.items.map((i) => sectionOf(i.documentId, i.sectionPath));
      quality.ours.r += recallAt(oursSections, q.relevant, 8);
      quality.ours.n += ndcgAt(dedupeSections(oursSections), q.relevant, 10);

      const t0 = performance.now();
      const e = await embedder.embedQuery(q.query);
      const rows = await db.query<{ document_id: string; section_path: string }>(RRF_SQL, [
        FILTERS.board,
        FILTERS.grade,
        FILTERS.subject,
        q.query,
        toVectorLiteral(e),
        24,
      ]);
      rrf.push(performance.now() - t0);
      const rrfSections = rows.map((r) => sectionOf(r.document_id, r.section_path));
      quality.rrf.r += recallAt(rrfSections, q.relevant, 8);
      quality.rrf.n += ndcgAt(dedupeSections(rrfSections), q.relevant, 10);
    }
    const [{ chunks } = { chunks: 0 }] = await db.query<{ chunks: number }>(
      "select count(*)::int as chunks from document_chunks",
    );
    const n = queries.length;
    console.log(
      `\n## ${label}: ${chunks.toLocaleString("en")} chunks, ${n} queries (scope: OpenStax / 11 / Biology)`,
    );
    console.log("| method | Recall@8 | nDCG@10 | p50 ms | p95 ms | p99 ms |");
    console.log("|---|---:|---:|---:|---:|---:|");
    console.log(
      `| Paperwise hybrid (BM25 + vector, classifier, ${planner ? "planner, " : ""}rerank) | ${(quality.ours.r / n).toFixed(3)} | ${(quality.ours.n / n).toFixed(3)} | ${pct(ours, 0.5).toFixed(1)} | ${pct(ours, 0.95).toFixed(1)} | ${pct(ours, 0.99).toFixed(1)} |`,
    );
    console.log(
      `| Supabase hybrid_search (RRF k=50) | ${(quality.rrf.r / n).toFixed(3)} | ${(quality.rrf.n / n).toFixed(3)} | ${pct(rrf, 0.5).toFixed(1)} | ${pct(rrf, 0.95).toFixed(1)} | ${pct(rrf, 0.99).toFixed(1)} |`,
    );
    console.log(
      `planner: ${cut} of ${n} queries skipped an optional probe because the latency budget was spent; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
    );
  }

  /** Copies both books' chapters under synthetic subjects until about `target` chunks. */
  async function scaleUp(target: number, subjectCount: number): Promise<void> {
    const [{ chunks: have } = { chunks: 0 }] = await db.query<{ chunks: number }>(
      "select count(*)::int as chunks from document_chunks",
    );
    if (target <= have) return;
    if (target > have) {
      console.error(`scaling up from ${have} to ≈${target} chunks…`);
      const started = performance.now();
      const originals = await db.query<{ id: string; chunk_count: number }>(
        "select id, chunk_count from documents where subject in ('Biology', 'Physics') order by subject, chapter_number",
      );
      const subjects = Math.max(1, subjectCount);
      let total = have;
      let copied = 0;
      while (total < target) {
        for (const doc of originals) {
          if (total >= target) break;
          // Chapters are dealt round-robin, so every synthetic subject mixes both books.
          const subject = `Synthetic ${String((copied++ % subjects) + 1).padStart(2, "0")}`;
          await db.transaction(async (tx) => {
            const [ing] = await tx.query<{ id: string }>(
              `insert into ingestions (user_id, board, grade, subject, resource_type, chapter_number, chapter_name, visibility,
             title, original_filename, mime_type, byte_size, content_sha256, dedupe_key, status, bucket, path)
           select user_id, board, grade, $2, resource_type, chapter_number, chapter_name, visibility, title,
             original_filename, mime_type, byte_size, content_sha256, md5(random()::text), 'ready', bucket, path
           from ingestions where id = (select ingestion_id from documents where id = $1) returning id`,
              [doc.id, subject],
            );
            const [nd] = await tx.query<{ id: string }>(
              `insert into documents (ingestion_id, owner_id, board, grade, subject, resource_type, chapter_number, chapter_name,
             visibility, title, bucket, path, mime_type, page_count, char_count, chunk_count, token_count, embedding_model, metadata)
           select $2, owner_id, board, grade, $3, resource_type, chapter_number, chapter_name, visibility, title, bucket, path,
             mime_type, page_count, char_count, chunk_count, token_count, embedding_model, metadata
           from documents where id = $1 returning id`,
              [doc.id, ing!.id, subject],
            );
            await tx.query(
              `insert into document_chunks (document_id, chunk_index, content, tokens, page_start, page_end, section_path,
             char_start, char_end, embedding, embedding_model)
           select $2, chunk_index, content, tokens, page_start, page_end, section_path, char_start, char_end, embedding, embedding_model
           from document_chunks where document_id = $1`,
              [doc.id, nd!.id],
            );
            await tx.query("select paperwise_index_chunks($1)", [nd!.id]);
          });
          total += doc.chunk_count;
        }
      }
      await db.query("analyze");
      console.error(`scale-up done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
  }

  return { run, scaleUp };
}
