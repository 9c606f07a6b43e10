import { create as contentDisposition } from "content-disposition";
import { exportPaperContract } from "@/contracts/papers.contract";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { withConcurrencySlot } from "@/lib/http/rate-limit";
import { handle } from "@/lib/http/route";
import { paperProblems } from "@/lib/papers/check";
import { getPaper } from "@/lib/papers/store";
import { runInPool } from "@/lib/workers/pool";
import type { EExportFormat, EExportPart } from "@/types/paper.types";

/**
 * `?format=pdf|docx|md|gift|qti&part=paper|answer-key`: the paper or its answer key as a file.
 * A paper whose marks do not add up or that has empty sections is not exported (400 with reasons).
 */
export const GET = handle(exportPaperContract, ({ principal, params, query }) =>
  // One of this user's concurrent exports (429 past the cap), held until the file is sent.
  withConcurrencySlot(principal, "export", () => exportFile(principal.userId, params.id, query)),
);

async function exportFile(
  userId: string,
  id: string,
  query: { format: EExportFormat; part: EExportPart },
): Promise<Response> {
  const paper = await getPaper(await getDb(), userId, id);
  const problems = paperProblems(paper);
  if (problems.length > 0) {
    throw new AppError("bad_request", `The paper is not ready to export: ${problems[0]!.message}`, {
      details: problems.map((p) => ({ path: p.path, message: p.message })),
    });
  }
  // Rendering (PDF/DOCX of a large paper: seconds of CPU) runs in the worker pool.
  const file = await runInPool("export", { paper, format: query.format, part: query.part });
  const body = typeof file.body === "string" ? file.body : new Blob([file.body as BlobPart]);
  return new Response(body, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": contentDisposition(file.filename),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
    },
  });
}
