-- Personal API tokens, retrieval observability and generated question sets.

create table if not exists public.api_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  name text not null,
  -- sha256 of the secret; the secret itself is shown once and never stored.
  token_hash text not null unique,
  prefix text not null,
  scopes text[] not null,
  expires_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz,
  created_at timestamptz not null default now()
);
create index if not exists api_tokens_user_idx on public.api_tokens (user_id);

-- One row per retrieval request. No query text or chunk content: only shapes and timings.
create table if not exists public.retrieval_logs (
  id bigserial primary key,
  user_id uuid references public.profiles (id) on delete set null,
  query_type text not null,
  query_chars int not null,
  top_k int not null,
  alpha real not null,
  reranker text not null,
  confidence int not null,
  retried boolean not null default false,
  enhanced boolean not null default false,
  result_count int not null,
  top_fused real,
  top_rerank real,
  timings jsonb not null,
  created_at timestamptz not null default now()
);

create table if not exists public.question_sets (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  board text not null,
  grade text not null,
  subject text not null,
  title text not null,
  request jsonb not null,
  generator text not null,
  warnings jsonb not null default '[]'::jsonb,
  created_at timestamptz not null default now()
);
create index if not exists question_sets_user_idx on public.question_sets (user_id, created_at desc);

create table if not exists public.questions (
  id uuid primary key,
  set_id uuid not null references public.question_sets (id) on delete cascade,
  position int not null,
  type text not null check (type in ('mcq', 'short', 'long')),
  bloom_level text not null,
  difficulty text not null,
  marks int not null,
  prompt_text text not null,
  body jsonb not null,
  context_refs jsonb not null,
  validation jsonb not null,
  status text not null default 'draft' check (status in ('draft', 'approved', 'rejected')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists questions_set_idx on public.questions (set_id, position);

alter table public.api_tokens enable row level security;
alter table public.retrieval_logs enable row level security;
alter table public.question_sets enable row level security;
alter table public.questions enable row level security;

drop policy if exists api_tokens_own on public.api_tokens;
create policy api_tokens_own on public.api_tokens for all using (user_id = auth.uid());
drop policy if exists question_sets_own on public.question_sets;
create policy question_sets_own on public.question_sets for all using (user_id = auth.uid());
drop policy if exists questions_own on public.questions;
create policy questions_own on public.questions for all
  using (exists (select 1 from public.question_sets s where s.id = set_id and s.user_id = auth.uid()));
