import { authorize } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { handle } from "@/lib/http/handler";
import { loadFacets } from "@/lib/retrieval/facets";

export const GET = handle("retrieval.facets", async (request) => {
  const principal = await authorize(request, { scope: "retrieval:read" });
  return Response.json({ ok: true, boards: await loadFacets(await getDb(), principal.userId) });
});
