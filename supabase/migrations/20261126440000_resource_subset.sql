-- The scope's "Resource subset" (Board → Class → Subject → Resource subset): the hybrid search
-- takes an optional list of document ids; null keeps the whole subject. The function gains a
-- 16th parameter, so the 15-parameter version is dropped first (an overload with a defaulted
-- extra parameter would make every 15-argument call ambiguous). The body is the one of
-- 20261126000420_vector_index.sql (vector stage through paperwise_vector_candidates) with one more
-- condition on the scope.
drop function if exists public.paperwise_hybrid_search(
  uuid, text, text, text, text[], int, text, text, vector, text, double precision, int,
  double precision, double precision, double precision
);

create or replace function public.paperwise_hybrid_search(
  p_user_id uuid,
  p_board text,
  p_grade text,
  p_subject text,
  p_resource_types text[],
  p_chapter_number int,
  p_chapter_name text,
  p_query text,
  p_embedding vector(1536),
  p_embedding_model text,
  p_alpha double precision,
  p_limit int,
  p_k1 double precision default 1.2,
  p_b double precision default 0.75,
  p_heading_weight double precision default 2.0,
  p_document_ids uuid[] default null
)
returns table (
  document_id uuid,
  chunk_index int,
  vector_score double precision,
  keyword_score double precision,
  fused_score double precision,
  content text,
  tokens int,
  page_start int,
  page_end int,
  section_path text,
  title text,
  bucket text,
  path text,
  resource_type text,
  chapter_number int,
  chapter_name text,
  scope_chunks int,
  vector_ms double precision,
  keyword_ms double precision
)
language plpgsql
stable
as $$
#variable_conflict use_column
declare
  v_scope uuid[];
  v_vec_scope uuid[];
  v_n double precision;
  v_avgdl double precision;
  v_lex text[];
  v_lite vector(256);
  v_vd uuid[] := '{}';
  v_vi int[] := '{}';
  v_vdist double precision[] := '{}';
  v_kd uuid[] := '{}';
  v_ki int[] := '{}';
  v_ks double precision[] := '{}';
  v_kmax double precision := 0;
  t0 timestamptz;
  t1 timestamptz;
  t2 timestamptz;
begin
  select array_agg(d.id),
         array_agg(d.id) filter (where d.embedding_model = p_embedding_model),
         sum(d.chunk_count),
         sum(d.token_count)::double precision / greatest(sum(d.chunk_count), 1)
    into v_scope, v_vec_scope, v_n, v_avgdl
  from documents d
  where d.board = p_board and d.grade = p_grade and d.subject = p_subject
    and (d.visibility = 'shared' or d.owner_id = p_user_id)
    and (p_resource_types is null or d.resource_type = any (p_resource_types))
    and (p_chapter_number is null or d.chapter_number = p_chapter_number)
    and (p_chapter_name is null or d.chapter_name ilike p_chapter_name)
    and (p_document_ids is null or d.id = any (p_document_ids));
  if v_scope is null then
    return;
  end if;

  t0 := clock_timestamp();
  if p_embedding is not null and v_vec_scope is not null then
    v_lite := public.paperwise_fold256(p_embedding);
    select coalesce(array_agg(s.d order by s.dist), '{}'), coalesce(array_agg(s.i order by s.dist), '{}'),
           coalesce(array_agg(s.dist order by s.dist), '{}')
      into v_vd, v_vi, v_vdist
    from (
      select pre.d, pre.i, (c.embedding <=> p_embedding)::double precision as dist
      from (
        select vc.document_id as d, vc.chunk_index as i
        from public.paperwise_vector_candidates(v_vec_scope, v_n::bigint, v_lite, greatest(p_limit * 4, 64)) vc
      ) pre
      join document_chunks c on c.document_id = pre.d and c.chunk_index = pre.i
      order by 3
      limit p_limit
    ) s;
  end if;
  t1 := clock_timestamp();

  -- Query lexemes come from to_tsvector, never from parsing user text as tsquery syntax.
  select array(select distinct u.lexeme from unnest(to_tsvector('english', left(coalesce(p_query, ''), 4000))) u
               order by 1 limit 48)
    into v_lex;
  if cardinality(v_lex) > 0 then
    with hits as (
      select t.document_id, t.chunk_index, t.lexeme, t.dl,
             (t.tf_body + p_heading_weight * t.tf_head)::double precision as tf
      from chunk_terms t
      where t.lexeme = any (v_lex) and t.document_id = any (v_scope)
    ),
    df as (
      select h.lexeme, count(*)::double precision as df from hits h group by h.lexeme
    ),
    bm as (
      select h.document_id, h.chunk_index,
             sum(ln(1 + (v_n - df.df + 0.5) / (df.df + 0.5))
                 * (h.tf * (p_k1 + 1)) / (h.tf + p_k1 * (1 - p_b + p_b * h.dl / v_avgdl))) as score
      from hits h join df on df.lexeme = h.lexeme
      group by h.document_id, h.chunk_index
    )
    select coalesce(array_agg(bm.document_id), '{}'), coalesce(array_agg(bm.chunk_index), '{}'),
           coalesce(array_agg(bm.score), '{}'), coalesce(max(bm.score), 0)
      into v_kd, v_ki, v_ks, v_kmax
    from bm;
  end if;
  t2 := clock_timestamp();

  return query
  with v as (
    select * from unnest(v_vd, v_vi, v_vdist) as t(d, i, dist)
  ),
  k as (
    select * from unnest(v_kd, v_ki, v_ks) as t(d, i, s)
  ),
  ktop as (
    select k.d, k.i from k order by k.s desc, k.d, k.i limit p_limit
  ),
  cand as (
    select v.d, v.i from v union select ktop.d, ktop.i from ktop
  ),
  scored as (
    select c.d, c.i, ch.content, ch.tokens, ch.page_start, ch.page_end, ch.section_path,
           case when p_embedding is null or v_vec_scope is null or not (ch.document_id = any (v_vec_scope)) then null
                else 1 / (1 + coalesce(v.dist, (ch.embedding <=> p_embedding)::double precision)) end as vs,
           case when v_kmax > 0 then coalesce(k.s, 0) / v_kmax else null end as ks
    from cand c
    join document_chunks ch on ch.document_id = c.d and ch.chunk_index = c.i
    left join v on v.d = c.d and v.i = c.i
    left join k on k.d = c.d and k.i = c.i
  )
  select s.d, s.i, s.vs, s.ks,
         case when s.vs is null then coalesce(s.ks, 0)
              when s.ks is null then s.vs
              else p_alpha * s.vs + (1 - p_alpha) * s.ks end as fused,
         s.content, s.tokens, s.page_start, s.page_end, s.section_path,
         doc.title, doc.bucket, doc.path, doc.resource_type, doc.chapter_number, doc.chapter_name,
         v_n::int,
         (extract(epoch from (t1 - t0)) * 1000)::double precision,
         (extract(epoch from (t2 - t1)) * 1000)::double precision
  from scored s
  join documents doc on doc.id = s.d
  order by fused desc, s.d, s.i
  limit p_limit;
end;
$$;
