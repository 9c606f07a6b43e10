-- Until the postgres.js driver was told to pass JSON text through (lib/db/postgres.ts), every jsonb
-- value the app wrote on a real Postgres was stored as a JSON *string* holding the document.
-- Turn such strings back into the documents they hold. PGlite never had them: a no-op there.
update public.documents set metadata = (metadata #>> '{}')::jsonb where jsonb_typeof(metadata) = 'string';
update public.question_sets set request = (request #>> '{}')::jsonb where jsonb_typeof(request) = 'string';
update public.question_sets set warnings = (warnings #>> '{}')::jsonb where jsonb_typeof(warnings) = 'string';
update public.questions set body = (body #>> '{}')::jsonb where jsonb_typeof(body) = 'string';
update public.questions set context_refs = (context_refs #>> '{}')::jsonb
  where jsonb_typeof(context_refs) = 'string';
update public.questions set validation = (validation #>> '{}')::jsonb where jsonb_typeof(validation) = 'string';
update public.retrieval_logs set timings = (timings #>> '{}')::jsonb where jsonb_typeof(timings) = 'string';
update public.papers set instructions = (instructions #>> '{}')::jsonb where jsonb_typeof(instructions) = 'string';
update public.papers set blueprint = (blueprint #>> '{}')::jsonb where jsonb_typeof(blueprint) = 'string';
