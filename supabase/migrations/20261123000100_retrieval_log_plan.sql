-- The query planner's decisions per retrieval (shapes only: strategy, probe kinds and counts,
-- focus, refusal code, follow-up kind; never query or passage text).
alter table public.retrieval_logs add column if not exists plan jsonb;
