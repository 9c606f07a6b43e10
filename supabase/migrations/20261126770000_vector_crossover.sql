-- The HNSW crossover at the level of the whole retrieval function (docs/scaling.md, "Measured: 1M
-- chunks", RUN 2 at load 1.5-7.4): with the index, a scope of 30k chunks answered as fast as the
-- exact scan (p50 94 vs 86 ms) but found 0.974 of its top-8 passages; 100k chunks is break-even at
-- p50 (171 vs 179 ms); from 300k chunks HNSW was 2.4x faster (254 vs 602 ms p50). The earlier default, 20000 chunks,
-- came from the vector stage alone. A scope now takes the index from 100000 chunks (and still at
-- least `paperwise.hnsw_min_share` of all chunks, default 0.02). Only that default changes; the
-- setting still overrides it per database, role or session.
create or replace function public.paperwise_vector_candidates(
  p_scope uuid[],
  p_scope_chunks bigint,
  p_lite vector(256),
  p_limit int
)
returns table (document_id uuid, chunk_index int)
language plpgsql
stable
as $$
#variable_conflict use_column
declare
  v_min_chunks bigint := coalesce(nullif(current_setting('paperwise.hnsw_min_chunks', true), '')::bigint, 100000);
  v_min_share double precision :=
    coalesce(nullif(current_setting('paperwise.hnsw_min_share', true), '')::double precision, 0.02);
  v_total double precision;
  v_old text[];
begin
  if p_scope_chunks >= v_min_chunks and to_regclass('public.chunk_lite_embedding_hnsw') is not null then
    select greatest(c.reltuples, 1) into v_total from pg_class c where c.oid = 'public.chunk_lite'::regclass;
    if p_scope_chunks >= v_min_share * v_total then
      -- pgvector 0.8 iterative scans: the index is read until `p_limit` rows of the scope are
      -- found (or max_scan_tuples read). The settings are the transaction's, so they are put back.
      v_old := array[coalesce(current_setting('hnsw.iterative_scan', true), 'off'),
                     coalesce(current_setting('hnsw.ef_search', true), '40'),
                     coalesce(current_setting('hnsw.max_scan_tuples', true), '20000'),
                     current_setting('enable_seqscan')];
      perform set_config('hnsw.iterative_scan', 'relaxed_order', true);
      perform set_config('hnsw.ef_search',
        coalesce(nullif(current_setting('paperwise.hnsw_ef_search', true), ''), '100'), true);
      perform set_config('hnsw.max_scan_tuples',
        coalesce(nullif(current_setting('paperwise.hnsw_max_scan_tuples', true), ''), '20000'), true);
      perform set_config('enable_seqscan', 'off', true);
      -- Which path ran, for the transaction that asked (tests, EXPLAIN-less diagnosis).
      perform set_config('paperwise.vector_path', 'hnsw', true);
      -- The filter is written so that only the vector index can serve it; relaxed_order may
      -- return rows slightly out of order, so they are sorted again.
      return query
        select h.document_id, h.chunk_index from (
          select l.document_id, l.chunk_index, l.embedding_lite <#> p_lite as dist
          from chunk_lite l
          where l.document_id::text = any (p_scope::text[])
          order by l.embedding_lite <#> p_lite
          limit p_limit
        ) h
        order by h.dist;
      perform set_config('hnsw.iterative_scan', v_old[1], true);
      perform set_config('hnsw.ef_search', v_old[2], true);
      perform set_config('hnsw.max_scan_tuples', v_old[3], true);
      perform set_config('enable_seqscan', v_old[4], true);
      return;
    end if;
  end if;
  perform set_config('paperwise.vector_path', 'exact', true);
  -- The exact scoped scan: `+ 0` keeps the order expression from matching an HNSW index, so the
  -- primary key (or a seq scan) serves the scope and exactly p_limit rows come back.
  return query
    select l.document_id, l.chunk_index
    from chunk_lite l
    where l.document_id = any (p_scope)
    order by (l.embedding_lite <#> p_lite) + 0
    limit p_limit;
end;
$$;
