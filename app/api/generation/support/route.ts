import { generationSupportContract } from "@/contracts/generation.contract";
import { getDb } from "@/lib/db";
import { supportOf } from "@/lib/generation/generate";
import { loadContext, loadScope } from "@/lib/generation/store";
import { handle } from "@/lib/http/route";

/**
 * Per question type and Bloom level, what the selected passages can support (a cheap reading of
 * the passages, no question is built), so the blueprint can be set to what they hold. Passages the
 * user cannot read are skipped, as for generation.
 */
export const POST = handle(generationSupportContract, async ({ principal, body, rateHeaders }) => {
  const db = await getDb();
  const chunks = await loadContext(db, principal.userId, body.context);
  const scope = await loadScope(
    db,
    principal.userId,
    chunks.map((c) => c.documentId),
  );
  return Response.json({ ok: true, support: supportOf(chunks, scope) }, { headers: rateHeaders });
});
