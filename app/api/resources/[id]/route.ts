import { deleteResourceContract, getResourceContract } from "@/contracts/resources.contract";
import { getDb } from "@/lib/db";
import { handle } from "@/lib/http/route";
import { getManageableIngestion, getVisibleIngestion } from "@/lib/ingestion/access";
import { deleteIngestion } from "@/lib/ingestion/pipeline";
import { toIngestion } from "@/lib/ingestion/store";
import { getStorage } from "@/lib/storage";

export const GET = handle(getResourceContract, async ({ principal, params }) => {
  const row = await getVisibleIngestion(await getDb(), principal, params.id);
  return { ok: true as const, ingestion: toIngestion(row) };
});

export const DELETE = handle(deleteResourceContract, async ({ principal, params }) => {
  const db = await getDb();
  const row = await getManageableIngestion(db, principal, params.id);
  await deleteIngestion(db, getStorage(), row);
  return { ok: true as const, deleted: row.id };
});
