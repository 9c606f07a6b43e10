-- Curriculum is for signed-in users only. The first policies let any role read shared resources,
-- so a Supabase client holding only the public anon key (no JWT) could read every shared
-- textbook chunk through the REST API or `paperwise_hybrid_search`. Now every read needs a
-- verified user (`auth.uid()` is the JWT's `sub`; null for anon). The predicate is used rather
-- than `to authenticated` so the same migration runs on PGlite and plain PostgreSQL, which have
-- no Supabase roles. The app server connects as the table owner and is not affected.

drop policy if exists ingestions_visible on public.ingestions;
create policy ingestions_visible on public.ingestions for select
  using (auth.uid() is not null and (visibility = 'shared' or user_id = auth.uid()));

drop policy if exists documents_visible on public.documents;
create policy documents_visible on public.documents for select
  using (auth.uid() is not null and (visibility = 'shared' or owner_id = auth.uid()));

drop policy if exists chunks_visible on public.document_chunks;
create policy chunks_visible on public.document_chunks for select
  using (auth.uid() is not null and exists (
    select 1 from public.documents d
    where d.id = document_id and (d.visibility = 'shared' or d.owner_id = auth.uid())
  ));

drop policy if exists chunk_terms_visible on public.chunk_terms;
create policy chunk_terms_visible on public.chunk_terms for select
  using (auth.uid() is not null and exists (
    select 1 from public.documents d
    where d.id = document_id and (d.visibility = 'shared' or d.owner_id = auth.uid())
  ));

drop policy if exists chunk_lite_visible on public.chunk_lite;
create policy chunk_lite_visible on public.chunk_lite for select
  using (auth.uid() is not null and exists (
    select 1 from public.documents d
    where d.id = document_id and (d.visibility = 'shared' or d.owner_id = auth.uid())
  ));
