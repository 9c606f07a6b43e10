import { facetsContract } from "@/contracts/retrieval.contract";
import { getReadDb } from "@/lib/db";
import { handle } from "@/lib/http/route";
import { loadFacets } from "@/lib/retrieval/facets";
import { warmFacetScopes } from "@/lib/retrieval/scope-vocabulary";

export const GET = handle(facetsContract, async ({ principal }) => {
  const db = await getReadDb();
  const boards = await loadFacets(db, principal.userId);
  // The user's scopes are known now: their phrase indexes build before the first query (not awaited).
  void warmFacetScopes(db, principal.userId, boards);
  return Response.json({ ok: true, boards });
});
