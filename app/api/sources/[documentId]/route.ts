import { create as contentDisposition } from "content-disposition";
import { sourceFileContract } from "@/contracts/resources.contract";
import { getReadDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http/route";
import { getVisibleDocument } from "@/lib/ingestion/store";
import { getStorage } from "@/lib/storage";

/** "View source" by document id (what retrieval results carry): the original file, inline. */
export const GET = handle(sourceFileContract, async ({ principal, params }) => {
  const doc = await getVisibleDocument(await getReadDb(), principal.userId, params.documentId);
  if (!doc) throw new AppError("not_found", "Source not found");
  const bytes = await getStorage().get(doc.bucket, doc.path);
  const type = doc.mime_type.startsWith("text/") ? "text/plain; charset=utf-8" : doc.mime_type;
  const inline = doc.mime_type === "application/pdf" || doc.mime_type.startsWith("text/");
  return new Response(new Blob([bytes as BlobPart]), {
    headers: {
      "Content-Type": type,
      "Content-Disposition": contentDisposition(doc.title, { type: inline ? "inline" : "attachment" }),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "sandbox",
      "Cache-Control": "private, no-store",
    },
  });
});
