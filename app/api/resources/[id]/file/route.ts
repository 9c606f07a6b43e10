import { create as contentDisposition } from "content-disposition";
import { resourceFileContract } from "@/contracts/resources.contract";
import { getDb } from "@/lib/db";
import { handle } from "@/lib/http/route";
import { getVisibleIngestion } from "@/lib/ingestion/access";
import { getStorage } from "@/lib/storage";

const INLINE_TYPES = ["application/pdf", "text/plain", "text/markdown"];

/** "View source": the original file, inline, so `#page=N` opens PDFs at the cited page. */
export const GET = handle(resourceFileContract, async ({ principal, params }) => {
  const row = await getVisibleIngestion(await getDb(), principal, params.id);
  const bytes = await getStorage().get(row.bucket, row.path);
  return new Response(new Blob([bytes as BlobPart]), {
    headers: {
      "Content-Type": row.mime_type.startsWith("text/") ? `${row.mime_type}; charset=utf-8` : row.mime_type,
      "Content-Disposition": contentDisposition(row.original_filename, {
        type: INLINE_TYPES.includes(row.mime_type) ? "inline" : "attachment",
      }),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "sandbox",
      "Cache-Control": "private, no-store",
    },
  });
});
