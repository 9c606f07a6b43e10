import { create as contentDisposition } from "content-disposition";
import { exportPaperContract } from "@/contracts/papers.contract";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http/route";
import { paperProblems } from "@/lib/papers/check";
import { exportPaper } from "@/lib/papers/export";
import { getPaper } from "@/lib/papers/store";

/**
 * `?format=pdf|docx|md|gift|qti&part=paper|answer-key`: the paper or its answer key as a file.
 * A paper whose marks do not add up or that has empty sections is not exported (400 with reasons).
 */
export const GET = handle(exportPaperContract, async ({ principal, params, query }) => {
  const paper = await getPaper(await getDb(), principal.userId, params.id);
  const problems = paperProblems(paper);
  if (problems.length > 0) {
    throw new AppError("bad_request", `The paper is not ready to export: ${problems[0]!.message}`, {
      details: problems.map((p) => ({ path: p.path, message: p.message })),
    });
  }
  const file = await exportPaper(paper, query.format, query.part);
  const body = typeof file.body === "string" ? file.body : new Blob([file.body as BlobPart]);
  return new Response(body, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": contentDisposition(file.filename),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
    },
  });
});
