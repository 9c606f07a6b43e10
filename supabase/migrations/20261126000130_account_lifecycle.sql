-- Account lifecycle (issue 27): an admin can disable an account. A disabled account's sessions and
-- API tokens are refused on every request (they are also revoked when it is disabled), its
-- password no longer signs in, and in Supabase mode its Supabase JWTs are refused here as well.
-- Re-enabling clears the mark; revoked sessions and tokens stay revoked.
alter table public.profiles add column if not exists disabled_at timestamptz;
