import { facetsContract } from "@/contracts/retrieval.contract";
import { getDb } from "@/lib/db";
import { handle } from "@/lib/http/route";
import { loadFacets } from "@/lib/retrieval/facets";

export const GET = handle(facetsContract, async ({ principal }) =>
  Response.json({ ok: true, boards: await loadFacets(await getDb(), principal.userId) }),
);
