-- Zones (lib/ingestion/zones.ts): what each chunk is — exposition, a definition, a worked example,
-- an activity, media instructions, a caption or credit, a feature box, the book's own questions, a
-- summary or a glossary — and its runs by zone ([start, end, zone], offsets into `content`).
-- Retrieval favours the lesson's zones and the offline generator skips the others. Chunks stored
-- before zones keep null: readers classify them on the fly with the same function, and
-- `npm run zones:backfill` stores the zones of existing chunks (a re-ingest stores them too).
alter table public.document_chunks add column if not exists zone text;
alter table public.document_chunks add column if not exists zone_spans jsonb;

do $$
begin
  if not exists (select 1 from pg_constraint where conname = 'document_chunks_zone_check') then
    alter table public.document_chunks add constraint document_chunks_zone_check check (
      zone is null or zone in ('exposition', 'definition', 'worked_example', 'activity', 'media', 'caption',
        'feature_box', 'book_question', 'summary', 'glossary'));
  end if;
end $$;
