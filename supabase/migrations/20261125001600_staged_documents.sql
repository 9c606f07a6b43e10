-- Ingestion at scale: documents are staged before they are published, and the unused 1536-d
-- HNSW index goes.

-- 1. Staged documents. A large document is written in many short batches (so one upload never
-- holds the embedded database's only connection for a minute) and published in one short final
-- step. Until then it must be invisible to every reader. Rather than asking each reader (retrieval,
-- facets, generation, papers, sources) to filter, the table becomes `document_versions` with a
-- `state`, and `documents` becomes a view of the published versions: every query that reads
-- `documents`, today's and tomorrow's, sees published documents only. A re-ingested resource
-- keeps its published version until the new one is published in the same short step; the old one
-- is then `retired` and its rows are removed in batches.
-- Columns added to documents later go on `document_versions`, then into the view.
alter table public.documents rename to document_versions;
alter table public.document_versions
  add column if not exists state text not null default 'published'
    check (state in ('staging', 'published', 'retired'));
-- One published version per ingestion; a staging one may exist beside it.
alter table public.document_versions drop constraint if exists documents_ingestion_id_key;
create unique index if not exists document_versions_published_ingestion
  on public.document_versions (ingestion_id) where state = 'published';
create index if not exists document_versions_unpublished
  on public.document_versions (ingestion_id) where state <> 'published';

-- security_invoker: a Supabase client reading the view is held to the table's policies.
create view public.documents with (security_invoker = true) as
  select id, ingestion_id, owner_id, board, grade, subject, resource_type, chapter_number, chapter_name,
         visibility, title, bucket, path, mime_type, page_count, char_count, chunk_count, token_count,
         embedding_model, metadata, created_at
  from public.document_versions
  where state = 'published';

-- The policies named the table; a client sees published versions only, whatever the path.
drop policy if exists documents_visible on public.document_versions;
create policy documents_visible on public.document_versions for select
  using (auth.uid() is not null and state = 'published' and (visibility = 'shared' or owner_id = auth.uid()));

drop policy if exists chunks_visible on public.document_chunks;
create policy chunks_visible on public.document_chunks for select
  using (auth.uid() is not null and exists (
    select 1 from public.document_versions d
    where d.id = document_id and d.state = 'published' and (d.visibility = 'shared' or d.owner_id = auth.uid())
  ));

drop policy if exists chunk_terms_visible on public.chunk_terms;
create policy chunk_terms_visible on public.chunk_terms for select
  using (auth.uid() is not null and exists (
    select 1 from public.document_versions d
    where d.id = document_id and d.state = 'published' and (d.visibility = 'shared' or d.owner_id = auth.uid())
  ));

drop policy if exists chunk_lite_visible on public.chunk_lite;
create policy chunk_lite_visible on public.chunk_lite for select
  using (auth.uid() is not null and exists (
    select 1 from public.document_versions d
    where d.id = document_id and d.state = 'published' and (d.visibility = 'shared' or d.owner_id = auth.uid())
  ));

-- Postings and companion vectors for one batch of a document's chunks (the batch's transaction);
-- paperwise_index_chunks does the whole document at once.
create or replace function public.paperwise_index_chunk_range(p_document_id uuid, p_from int, p_to int)
returns void
language sql
as $$
  insert into public.chunk_lite (document_id, chunk_index, embedding_lite)
  select c.document_id, c.chunk_index, public.paperwise_fold256(c.embedding)
  from public.document_chunks c
  where c.document_id = p_document_id and c.chunk_index between p_from and p_to;
  insert into public.chunk_terms (document_id, chunk_index, lexeme, tf_body, tf_head, dl)
  select c.document_id, c.chunk_index, u.lexeme,
         (cardinality(u.positions) - coalesce(cardinality(array_positions(u.weights, 'A')), 0))::smallint,
         coalesce(cardinality(array_positions(u.weights, 'A')), 0)::smallint,
         c.tokens
  from public.document_chunks c, unnest(c.fts) u
  where c.document_id = p_document_id and c.chunk_index between p_from and p_to;
$$;

-- 2. The 1536-d HNSW index served no query: retrieval scans the scope exactly (see
-- paperwise_hybrid_search), and maintaining the graph row by row was most of the time of an
-- ingestion into PostgreSQL (Biology 2e: COPY 12.0 s with it, 3.8 s without). Large districts
-- build the index they need after loading (README: "Beyond one machine").
drop index if exists public.document_chunks_embedding_hnsw;
