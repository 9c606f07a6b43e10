import { facetsContract } from "@/contracts/retrieval.contract";
import { getReadDb } from "@/lib/db";
import { handle } from "@/lib/http/route";
import { loadFacets } from "@/lib/retrieval/facets";

export const GET = handle(facetsContract, async ({ principal }) =>
  Response.json({ ok: true, boards: await loadFacets(await getReadDb(), principal.userId) }),
);
