import { authorize } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { handle } from "@/lib/http/handler";
import { getManageableIngestion, getVisibleIngestion } from "@/lib/ingestion/access";
import { deleteIngestion } from "@/lib/ingestion/pipeline";
import { toIngestion } from "@/lib/ingestion/store";
import { getStorage } from "@/lib/storage";

interface IContext {
  params: Promise<{ id: string }>;
}

export const GET = handle<IContext>("resources.get", async (request, { params }) => {
  const principal = await authorize(request, { scope: "resources:read" });
  const row = await getVisibleIngestion(await getDb(), principal, (await params).id);
  return Response.json({ ok: true, ingestion: toIngestion(row) });
});

export const DELETE = handle<IContext>("resources.delete", async (request, { params }) => {
  const principal = await authorize(request, { scope: "resources:write" });
  const db = await getDb();
  const row = await getManageableIngestion(db, principal, (await params).id);
  await deleteIngestion(db, getStorage(), row);
  return Response.json({ ok: true, deleted: row.id });
});
