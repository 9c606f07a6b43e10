import { pyqCheckContract } from "@/contracts/papers.contract";
import { getDb } from "@/lib/db";
import { handle } from "@/lib/http/route";
import { findPyqMatches, PYQ_THRESHOLD } from "@/lib/papers/pyq";
import { getPaper, loadPyqChunks } from "@/lib/papers/store";

/** Items that are near-duplicates of questions in the caller's visible past papers (PYQ) of the subject. */
export const GET = handle(pyqCheckContract, async ({ principal, params }) => {
  const db = await getDb();
  const paper = await getPaper(db, principal.userId, params.id);
  const chunks = await loadPyqChunks(db, principal.userId, paper);
  return {
    ok: true as const,
    pyqChunks: chunks.length,
    threshold: PYQ_THRESHOLD,
    matches: findPyqMatches(paper, chunks),
  };
});
