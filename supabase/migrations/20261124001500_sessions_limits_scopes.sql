-- Revocable local sessions, shared rate-limit counters, and read scopes for API tokens.

-- One row per local sign-in. A local JWT names its row (claim session_id) and is accepted only
-- while the row is live, so logout ends a session at once. Supabase Auth keeps its own sessions.
create table if not exists public.auth_sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz
);
create index if not exists auth_sessions_user_idx on public.auth_sessions (user_id);
-- Server-side only: no policy, so a user's JWT reaches no row through PostgREST.
alter table public.auth_sessions enable row level security;

-- Counters of rate-limiter-flexible's Postgres store (the shape it expects), shared by every
-- instance on this database: API rate limits per user, failed sign-ins per account and address.
create table if not exists public.paperwise_rate_limits (
  key varchar(255) primary key,
  points integer not null default 0,
  expire bigint
);
alter table public.paperwise_rate_limits enable row level security;

-- Paper writes used to need generation:write; they now have their own scope. Tokens made before
-- keep what they could do.
update public.api_tokens set scopes = array_append(scopes, 'papers:write')
where 'generation:write' = any (scopes) and not ('papers:write' = any (scopes));
