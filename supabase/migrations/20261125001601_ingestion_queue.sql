-- The ingestion queue is the ingestions table: a worker (any app instance, or `npm run worker`) claims
-- the oldest queued row with `for update skip locked`, so several workers share one database and
-- each ingestion is processed once; uploads wait in the table across restarts.
alter table public.ingestions add column if not exists attempts int not null default 0;
alter table public.ingestions add column if not exists claimed_by text;
create index if not exists ingestions_queued_idx on public.ingestions (created_at) where status = 'queued';
