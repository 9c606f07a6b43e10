import { authorize } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { handle, parseQuery } from "@/lib/http/handler";
import { assertUuid } from "@/lib/ingestion/access";
import { paperProblems } from "@/lib/papers/check";
import { exportPaper } from "@/lib/papers/export";
import { getPaper } from "@/lib/papers/store";
import { ExportQuerySchema } from "@/schema/paper.schema";

/**
 * `?format=pdf|docx|md|gift|qti&part=paper|answer-key`: the paper or its answer key as a file.
 * A paper whose marks do not add up or that has empty sections is not exported (400 with reasons).
 */
export const GET = handle<{ params: Promise<{ id: string }> }>(
  "papers.export",
  async (request, { params }) => {
    const principal = await authorize(request, { roles: ["teacher", "admin"], scope: "papers:read" });
    const { id } = await params;
    assertUuid(id, "paper id");
    const query = parseQuery(request, ExportQuerySchema);
    const paper = await getPaper(await getDb(), principal.userId, id);
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
        "Content-Disposition": `attachment; filename="${file.filename}"`,
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "private, no-store",
      },
    });
  },
);
