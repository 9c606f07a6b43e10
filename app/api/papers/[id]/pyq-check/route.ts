import { authorize } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { handle } from "@/lib/http/handler";
import { assertUuid } from "@/lib/ingestion/access";
import { findPyqMatches, PYQ_THRESHOLD } from "@/lib/papers/pyq";
import { getPaper, loadPyqChunks } from "@/lib/papers/store";

/** Items that are near-duplicates of questions in the caller's visible past papers (PYQ) of the subject. */
export const GET = handle<{ params: Promise<{ id: string }> }>(
  "papers.pyq-check",
  async (request, { params }) => {
    const principal = await authorize(request, { roles: ["teacher", "admin"], scope: "papers:read" });
    const { id } = await params;
    assertUuid(id, "paper id");
    const db = await getDb();
    const paper = await getPaper(db, principal.userId, id);
    const chunks = await loadPyqChunks(db, principal.userId, paper);
    return Response.json({
      ok: true,
      pyqChunks: chunks.length,
      threshold: PYQ_THRESHOLD,
      matches: findPyqMatches(paper, chunks),
    });
  },
);
