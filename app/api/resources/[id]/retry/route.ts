import { retryResourceContract } from "@/contracts/resources.contract";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http/route";
import { getManageableIngestion } from "@/lib/ingestion/access";
import { enqueueIngestion } from "@/lib/ingestion/queue";
import { getIngestionRow, requeueIngestion, toIngestion } from "@/lib/ingestion/store";

/** Retry a failed ingestion, or re-ingest a ready one (e.g. after changing the embedder). */
export const POST = handle(retryResourceContract, async ({ principal, params }) => {
  const db = await getDb();
  const row = await getManageableIngestion(db, principal, params.id);
  if (row.status !== "failed" && row.status !== "ready") {
    throw new AppError("conflict", `This resource is still being processed (${row.status})`);
  }
  if (row.path === "pending")
    throw new AppError("conflict", "The original file was never stored; upload it again");
  await requeueIngestion(db, row.id);
  enqueueIngestion(row.id);
  return Response.json(
    { ok: true, ingestion: toIngestion((await getIngestionRow(db, row.id))!) },
    { status: 202 },
  );
});
