-- Question papers. A paper is one aggregate (sections → items → copied questions) that the
-- builder loads and saves whole, so it lives in one row: a save is a single-row UPDATE guarded by
-- `version` (optimistic concurrency), atomic even if the server dies mid-request.
create table if not exists public.papers (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  title text not null,
  school_name text,
  board text not null,
  grade text not null,
  subject text not null,
  duration_minutes int not null check (duration_minutes between 5 and 600),
  total_marks int not null check (total_marks between 1 and 1000),
  instructions jsonb not null default '[]'::jsonb,
  sections jsonb not null default '[]'::jsonb check (jsonb_typeof(sections) = 'array'),
  blueprint jsonb,
  version int not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists papers_user_idx on public.papers (user_id, updated_at desc);

alter table public.papers enable row level security;
drop policy if exists papers_own on public.papers;
create policy papers_own on public.papers for all using (user_id = auth.uid());
