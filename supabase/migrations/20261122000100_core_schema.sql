-- Paperwise core schema. Runs unchanged on Supabase Postgres and on PGlite (embedded mode).

create extension if not exists vector;

-- Supabase already has the auth schema and auth.uid(); PGlite gets a compatible stand-in that
-- reads the same request setting, so RLS predicates and SQL functions read alike on both.
create schema if not exists auth;
do $$
begin
  if not exists (
    select 1 from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'auth' and p.proname = 'uid'
  ) then
    execute $fn$
      create function auth.uid() returns uuid language sql stable as $body$
        select nullif(
          coalesce(
            current_setting('request.jwt.claim.sub', true),
            (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
          ), '')::uuid
      $body$
    $fn$;
  end if;
end
$$;

create table if not exists public.profiles (
  id uuid primary key default gen_random_uuid(),
  email text not null unique,
  display_name text,
  role text not null default 'teacher' check (role in ('teacher', 'admin')),
  -- Only local (embedded-mode) accounts have a password hash; Supabase Auth keeps its own.
  password_hash text,
  created_at timestamptz not null default now()
);

create table if not exists public.ingestions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  board text not null,
  grade text not null,
  subject text not null,
  resource_type text not null check (resource_type in ('textbook', 'pyq', 'notes', 'other')),
  chapter_number int,
  chapter_name text,
  visibility text not null default 'shared' check (visibility in ('shared', 'private')),
  title text not null,
  original_filename text not null,
  mime_type text not null,
  byte_size int not null,
  content_sha256 text not null,
  -- sha256 of the bytes and the metadata that shapes the result; identical uploads share it.
  dedupe_key text not null,
  status text not null default 'queued'
    check (status in ('queued', 'extracting', 'chunking', 'embedding', 'storing', 'ready', 'failed')),
  progress_done int not null default 0,
  progress_total int not null default 0,
  error text,
  bucket text not null,
  path text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create unique index if not exists ingestions_dedupe_live
  on public.ingestions (dedupe_key) where status <> 'failed';
create index if not exists ingestions_scope_idx on public.ingestions (board, grade, subject);
create index if not exists ingestions_user_idx on public.ingestions (user_id);

create table if not exists public.documents (
  id uuid primary key default gen_random_uuid(),
  ingestion_id uuid not null unique references public.ingestions (id) on delete cascade,
  -- Scope columns are copied from the ingestion so retrieval resolves the candidate set from
  -- one small table.
  owner_id uuid not null references public.profiles (id) on delete cascade,
  board text not null,
  grade text not null,
  subject text not null,
  resource_type text not null,
  chapter_number int,
  chapter_name text,
  visibility text not null,
  title text not null,
  bucket text not null,
  path text not null,
  mime_type text not null,
  page_count int not null default 0,
  char_count int not null default 0,
  chunk_count int not null default 0,
  token_count int not null default 0,
  embedding_model text not null,
  metadata jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now()
);

create index if not exists documents_scope_idx
  on public.documents (board, grade, subject, resource_type, chapter_number);
create index if not exists documents_owner_idx on public.documents (owner_id);

create table if not exists public.document_chunks (
  document_id uuid not null references public.documents (id) on delete cascade,
  chunk_index int not null,
  content text not null,
  tokens int not null,
  page_start int,
  page_end int,
  section_path text not null default '',
  char_start int not null,
  char_end int not null,
  embedding vector(1536) not null,
  embedding_model text not null,
  -- The section heading weighs above the body: a chunk under "5.2 Passive Transport" matches
  -- "passive transport" even when the body says "diffusion".
  fts tsvector generated always as (
    setweight(to_tsvector('english', coalesce(section_path, '')), 'A') ||
    setweight(to_tsvector('english', content), 'B')
  ) stored,
  primary key (document_id, chunk_index)
);

create index if not exists document_chunks_fts_idx on public.document_chunks using gin (fts);

alter table public.profiles enable row level security;
alter table public.ingestions enable row level security;
alter table public.documents enable row level security;
alter table public.document_chunks enable row level security;

-- RLS for Supabase clients that connect with a user's JWT. The server connects as the table
-- owner (bypassing RLS) and applies the same predicates in SQL (see search functions).
drop policy if exists profiles_self on public.profiles;
create policy profiles_self on public.profiles for select using (id = auth.uid());

drop policy if exists ingestions_visible on public.ingestions;
create policy ingestions_visible on public.ingestions for select
  using (visibility = 'shared' or user_id = auth.uid());

drop policy if exists documents_visible on public.documents;
create policy documents_visible on public.documents for select
  using (visibility = 'shared' or owner_id = auth.uid());

drop policy if exists chunks_visible on public.document_chunks;
create policy chunks_visible on public.document_chunks for select
  using (exists (
    select 1 from public.documents d
    where d.id = document_id and (d.visibility = 'shared' or d.owner_id = auth.uid())
  ));
