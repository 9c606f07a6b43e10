import "server-only";
import { getConfig } from "@/lib/config/env";
import type { ISqlExecutor } from "@/lib/db";
import { AppError } from "@/lib/errors";

/**
 * The per-user upload quota (issue 26): the total bytes of originals one user keeps stored (every
 * ingestion row they own holds its original in storage), `PAPERWISE_UPLOAD_QUOTA_MB`, 0 = none.
 * An upload is checked against what is left while its body streams (lib/http/multipart.ts), so a
 * user at the quota is refused after at most the bytes left, not after the whole body.
 */
export interface IUploadQuota {
  quotaBytes: number;
  usedBytes: number;
  leftBytes: number;
}

/** Bytes of originals the user has stored. */
export async function storedUploadBytes(db: ISqlExecutor, userId: string): Promise<number> {
  const [row] = await db.query<{ bytes: string | number | null }>(
    "select coalesce(sum(byte_size), 0)::bigint as bytes from ingestions where user_id = $1",
    [userId],
  );
  return Number(row?.bytes ?? 0);
}

/** The user's quota and use, or null when no quota is configured. */
export async function uploadQuotaOf(db: ISqlExecutor, userId: string): Promise<IUploadQuota | null> {
  const quotaBytes = getConfig().isolation.uploadQuotaBytes;
  if (quotaBytes <= 0) return null;
  const usedBytes = await storedUploadBytes(db, userId);
  return { quotaBytes, usedBytes, leftBytes: Math.max(0, quotaBytes - usedBytes) };
}

const mb = (bytes: number) =>
  `${(bytes / 1048576).toLocaleString("en", { maximumFractionDigits: bytes < 10 * 1048576 ? 1 : 0 })} MB`;

/** 413 naming the quota and the current use. */
export function quotaExceeded(q: IUploadQuota): AppError {
  return new AppError(
    "payload_too_large",
    `This upload would take you past your upload quota of ${mb(q.quotaBytes)}: your stored originals use ${mb(q.usedBytes)} (${mb(q.leftBytes)} left). Delete resources you no longer need, or ask an administrator to raise PAPERWISE_UPLOAD_QUOTA_MB`,
    { details: [{ path: "file", message: `Upload quota ${mb(q.quotaBytes)}, used ${mb(q.usedBytes)}` }] },
  );
}
