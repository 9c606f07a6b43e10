import { create as contentDisposition } from "content-disposition";
import { exportPaperContract } from "@/contracts/papers.contract";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { withConcurrencySlot } from "@/lib/http/rate-limit";
import { handle } from "@/lib/http/route";
import { paperProblems } from "@/lib/papers/check";
import { asDraft, DRAFT_FORMATS } from "@/lib/papers/draft";
import { getPaper } from "@/lib/papers/store";
import { runInPool } from "@/lib/workers/pool";
import type { EExportFormat, EExportPart } from "@/types/paper.types";

/**
 * `?format=pdf|docx|md|gift|qti&part=paper|answer-key`: the paper or its answer key as a file.
 * A paper whose marks do not add up or that has empty sections is not exported (400 with reasons),
 * except as a draft (`&draft=true`, pdf/docx/md): "DRAFT" in the title and what is unmet first.
 */
export const GET = handle(exportPaperContract, ({ principal, params, query }) =>
  // One of this user's concurrent exports (429 past the cap), held until the file is sent.
  withConcurrencySlot(principal, "export", () => exportFile(principal.userId, params.id, query)),
);

async function exportFile(
  userId: string,
  id: string,
  query: { format: EExportFormat; part: EExportPart; draft: boolean },
): Promise<Response> {
  if (query.draft && !(DRAFT_FORMATS as readonly string[]).includes(query.format)) {
    throw new AppError("bad_request", "A draft can be exported as pdf, docx or md only", {
      details: [{ path: "format", message: "Use pdf, docx or md for a draft" }],
    });
  }
  const stored = await getPaper(await getDb(), userId, id);
  const paper = query.draft ? asDraft(stored) : stored;
  const problems = query.draft ? [] : paperProblems(paper);
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
