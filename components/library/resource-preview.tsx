"use client";

import { useEffect, useRef } from "react";
import { ZONE_STYLE, ZonedText, ZoneLegend } from "@/components/sources/zoned-text";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Alert, Skeleton } from "@/components/ui/misc";
import { useResourceChunks } from "@/hooks/use-resources";
import type { TIngestion } from "@/schema/resources.schema";
import type { ERole } from "@/types/curriculum.types";

/**
 * Detail of one resource: who uploaded it, model, counts, and its first chunks with pages and
 * sections. Admins also see passages that read as instructions to a language model (found at
 * ingestion): such text never becomes a question, but a poisoned upload deserves a look.
 */
export function ResourcePreview({
  ingestion,
  role,
  onClose,
}: {
  ingestion: TIngestion;
  role: ERole;
  onClose: () => void;
}) {
  const flagged = new Map(ingestion.instructionLike.map((f) => [f.chunkIndex, f.phrases]));
  const chunks = useResourceChunks(ingestion.id);
  const card = useRef<HTMLDivElement>(null);
  // The preview sits below the table: bring it into view (and focus) when a row opens it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again when another row's preview opens
  useEffect(() => {
    card.current?.scrollIntoView({ behavior: "smooth", block: "start" });
    card.current?.focus({ preventScroll: true });
  }, [ingestion.id]);
  return (
    <Card data-testid="resource-preview" ref={card} tabIndex={-1} className="scroll-mt-20 outline-none">
      <CardHeader className="flex-row items-start justify-between">
        <div>
          <CardTitle>{ingestion.title}</CardTitle>
          <p className="text-xs text-muted-foreground">
            {ingestion.originalFilename}
            {/* Only a paged source (PDF) has pages to count. */}
            {ingestion.mimeType === "application/pdf" && ingestion.pageCount
              ? ` · ${ingestion.pageCount} pages`
              : ""}{" "}
            · {ingestion.chunkCount ?? 0} chunks · embedding model {ingestion.embeddingModel ?? "–"} ·
            uploaded by {ingestion.uploadedBy ?? "?"} on {new Date(ingestion.createdAt).toLocaleString()} ·{" "}
            <a
              className="text-primary underline"
              href={`/api/resources/${ingestion.id}/file`}
              target="_blank"
              rel="noreferrer"
            >
              original
            </a>
          </p>
        </div>
        <Button size="sm" variant="outline" onClick={onClose}>
          Close
        </Button>
      </CardHeader>
      <CardContent className="flex flex-col gap-2">
        {role === "admin" && flagged.size > 0 && (
          <Alert variant="destructive" data-testid="instruction-warning">
            {flagged.size === 1 ? "1 passage reads" : `${flagged.size} passages read`} like instructions to an
            AI model (chunk {[...flagged.keys()].slice(0, 10).join(", ")}
            {flagged.size > 10 ? ", …" : ""}): “{[...flagged.values()][0]?.[0]}”. Paperwise never turns such
            text into questions; check where this file came from, and delete it if it was tampered with.
          </Alert>
        )}
        {chunks.data && chunks.data.items.length > 0 && (
          <ZoneLegend zones={[...new Set(chunks.data.items.flatMap((c) => c.zoneSpans.map((s) => s[2])))]} />
        )}
        {chunks.isLoading && <Skeleton className="h-20 w-full" />}
        {chunks.isError && <Alert variant="destructive">{chunks.error.message}</Alert>}
        {chunks.data?.items.map((c) => (
          <div
            key={c.chunkIndex}
            className="rounded-md border border-border p-2 text-xs"
            data-testid="chunk-preview"
          >
            <div className="mb-1 text-muted-foreground">
              {role === "admin" && flagged.has(c.chunkIndex) && (
                <span className="mr-1 font-medium text-destructive">instruction-like text ·</span>
              )}
              chunk {c.chunkIndex} · {c.tokens} tokens
              {/* Pages only where the source has them (PDF); Markdown and DOCX have none. */}
              {c.pageStart != null &&
                ` · p. ${c.pageStart}${c.pageEnd != null && c.pageEnd !== c.pageStart ? `–${c.pageEnd}` : ""}`}
              {c.sectionPath && ` · ${c.sectionPath.split(" > ").slice(-2).join(" › ")}`}
              <span data-testid="chunk-zone"> · {ZONE_STYLE[c.zone].label.toLowerCase()}</span>
            </div>
            <p className="line-clamp-3 whitespace-pre-line">
              <ZonedText content={c.content} spans={c.zoneSpans} />
            </p>
          </div>
        ))}
        {chunks.data && chunks.data.total > chunks.data.items.length && (
          <p className="text-xs text-muted-foreground">
            Showing the first {chunks.data.items.length} of {chunks.data.total} chunks.
          </p>
        )}
      </CardContent>
    </Card>
  );
}
