import "server-only";
import type { ISqlExecutor } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { IPrincipal } from "@/types/auth.types";
import type { EVisibility } from "@/types/curriculum.types";
import { getIngestionRow, type IIngestionRow } from "./store";

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function assertUuid(id: string, what = "id"): void {
  if (!UUID_RE.test(id)) throw new AppError("bad_request", `Invalid ${what}: expected a UUID`);
}

/** Only admins publish shared resources; anyone may keep private ones for themselves. */
export function assertMayUpload(principal: IPrincipal, visibility: EVisibility): void {
  if (visibility === "shared" && principal.role !== "admin") {
    throw new AppError(
      "forbidden",
      "Only curriculum admins can publish shared resources; upload it as private",
    );
  }
}

/** A resource the caller can see; another user's private resource is a 404 (no existence leak). */
export async function getVisibleIngestion(
  db: ISqlExecutor,
  principal: IPrincipal,
  id: string,
): Promise<IIngestionRow> {
  assertUuid(id, "resource id");
  const row = await getIngestionRow(db, id);
  if (!row || (row.visibility === "private" && row.user_id !== principal.userId)) {
    throw new AppError("not_found", "Resource not found");
  }
  return row;
}

/**
 * Changing a resource (delete, retry, re-ingest). A shared resource belongs to the school: only
 * a user who is an admin *now* may change it, whoever uploaded it (the principal's role is read
 * from the account on every request, so a demoted admin loses it at once). A private resource:
 * its owner (nobody else can even see it).
 */
export async function getManageableIngestion(
  db: ISqlExecutor,
  principal: IPrincipal,
  id: string,
): Promise<IIngestionRow> {
  const row = await getVisibleIngestion(db, principal, id);
  if (row.visibility === "shared" ? principal.role !== "admin" : row.user_id !== principal.userId) {
    throw new AppError("forbidden", "Only a curriculum admin can change a shared resource");
  }
  return row;
}
