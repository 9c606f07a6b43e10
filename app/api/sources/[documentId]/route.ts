import { authorize } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http/handler";
import { assertUuid } from "@/lib/ingestion/access";
import { getStorage } from "@/lib/storage";

/** "View source" by document id (what retrieval results carry): the original file, inline. */
export const GET = handle<{ params: Promise<{ documentId: string }> }>(
  "sources.get",
  async (request, { params }) => {
    const principal = await authorize(request, { scope: "resources:read" });
    const { documentId } = await params;
    assertUuid(documentId, "document id");
    const [doc] = await (await getDb()).query<{
      bucket: string;
      path: string;
      mime_type: string;
      title: string;
    }>(
      "select bucket, path, mime_type, title from documents where id = $1 and (visibility = 'shared' or owner_id = $2)",
      [documentId, principal.userId],
    );
    if (!doc) throw new AppError("not_found", "Source not found");
    const bytes = await getStorage().get(doc.bucket, doc.path);
    const type = doc.mime_type.startsWith("text/") ? "text/plain; charset=utf-8" : doc.mime_type;
    const inline = doc.mime_type === "application/pdf" || doc.mime_type.startsWith("text/");
    return new Response(new Blob([bytes as BlobPart]), {
      headers: {
        "Content-Type": type,
        "Content-Disposition": `${inline ? "inline" : "attachment"}; filename="${doc.title.replace(/[^\x20-\x7e]|["\\]/g, "_")}"`,
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "sandbox",
      },
    });
  },
);
