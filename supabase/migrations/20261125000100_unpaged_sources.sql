-- Markdown, text, HTML and DOCX sources have no pages; their chunks were stored as "page 1", which
-- every passage, citation and answer-key line then showed. Ingestion now stores no page for them;
-- this clears the page of chunks already stored from single-page, non-PDF documents.
update public.document_chunks c
   set page_start = null, page_end = null
  from public.documents d
 where c.document_id = d.id
   and d.mime_type <> 'application/pdf'
   and c.page_start is not null
   and not exists (
     select 1 from public.document_chunks o
      where o.document_id = c.document_id and coalesce(o.page_end, 1) > 1
   );
