import { generationSupportContract } from "@/contracts/generation.contract";
import { getDb } from "@/lib/db";
import { loadContext, loadScope } from "@/lib/generation/store";
import { handle } from "@/lib/http/route";
import { supportIsolated } from "@/lib/workers/generation";

/**
 * Per question type and Bloom level, what the selected passages can support: the offline forms'
 * candidates that pass the quality gate (distinct facts, up to 3), the counts an offline set is
 * planned on, so the blueprint can be set to what they hold. Read in the worker pool. Passages
 * the user cannot read are skipped, as for generation.
 */
export const POST = handle(generationSupportContract, async ({ principal, body, rateHeaders }) => {
  const db = await getDb();
  const chunks = await loadContext(db, principal.userId, body.context);
  const scope = await loadScope(
    db,
    principal.userId,
    chunks.map((c) => c.documentId),
  );
  return Response.json({ ok: true, support: await supportIsolated(chunks, scope) }, { headers: rateHeaders });
});
