import { authorize } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { handle } from "@/lib/http/handler";
import { getVisibleIngestion } from "@/lib/ingestion/access";
import { getStorage } from "@/lib/storage";

/** "View source": the original file, inline, so `#page=N` opens PDFs at the cited page. */
export const GET = handle<{ params: Promise<{ id: string }> }>(
  "resources.file",
  async (request, { params }) => {
    const principal = await authorize(request, { scope: "resources:read" });
    const row = await getVisibleIngestion(await getDb(), principal, (await params).id);
    const bytes = await getStorage().get(row.bucket, row.path);
    const inlineTypes = ["application/pdf", "text/plain", "text/markdown"];
    const disposition = inlineTypes.includes(row.mime_type) ? "inline" : "attachment";
    const asciiName = row.original_filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
    return new Response(new Blob([bytes as BlobPart]), {
      headers: {
        "Content-Type": row.mime_type.startsWith("text/") ? `${row.mime_type}; charset=utf-8` : row.mime_type,
        "Content-Disposition": `${disposition}; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(row.original_filename)}`,
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "sandbox",
        "Cache-Control": "private, max-age=300",
      },
    });
  },
);
