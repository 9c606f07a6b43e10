"use client";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Progress } from "@/components/ui/misc";
import type { TIngestion } from "@/schema/resources.schema";
import type { ERole } from "@/types/curriculum.types";
import type { TLibrary } from "./use-library";

const STAGES = ["queued", "extracting", "chunking", "embedding", "storing", "ready"];

/** How far an ingestion has got, in percent over its stages (embedding counts its chunks). */
export function ingestionPercent(i: TIngestion): number {
  const stage = Math.max(0, STAGES.indexOf(i.status));
  if (i.status === "ready") return 100;
  return i.progressTotal
    ? Math.round((100 * (stage + i.progressDone / i.progressTotal)) / STAGES.length)
    : Math.round((100 * stage) / STAGES.length);
}

/** The library list: one row per resource with its scope, type, ingestion status and actions. */
export function LibraryTable({ lib, role }: { lib: TLibrary; role: ERole }) {
  return (
    <table className="w-full text-left text-sm" data-testid="library-table">
      <thead className="text-xs text-muted-foreground">
        <tr>
          <th className="py-2">Title</th>
          <th>Scope</th>
          <th>Type</th>
          <th>Status</th>
          <th>Chunks</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {lib.rows.map((i) => (
          <LibraryRow key={i.id} ingestion={i} lib={lib} role={role} />
        ))}
      </tbody>
    </table>
  );
}

/** One resource: title and file, scope, type, status with progress, Preview / Re-ingest / Retry / Delete. */
function LibraryRow({ ingestion: i, lib, role }: { ingestion: TIngestion; lib: TLibrary; role: ERole }) {
  const pct = ingestionPercent(i);
  return (
    <tr className="border-t border-border" data-testid="library-row">
      <td className="py-2 pr-2">
        <div className="font-medium">{i.title}</div>
        <div className="text-xs text-muted-foreground">
          {i.originalFilename} · {i.visibility}
        </div>
        {role === "admin" && i.instructionLike.length > 0 && (
          <Badge variant="destructive" data-testid="row-instruction-flag">
            instruction-like text in {i.instructionLike.length} passage
            {i.instructionLike.length === 1 ? "" : "s"}
          </Badge>
        )}
      </td>
      <td className="pr-2 text-xs">
        {i.board} / {i.grade} / {i.subject}
        {i.chapterNumber !== null ? ` · ch ${i.chapterNumber}` : ""}
      </td>
      <td className="pr-2">
        <Badge variant="outline">{i.resourceType}</Badge>
      </td>
      <td className="min-w-40 pr-2">
        {i.status === "failed" ? (
          <span className="text-xs text-destructive" data-testid="row-status">
            failed: {i.error}
          </span>
        ) : (
          <div className="flex flex-col gap-1">
            <span className="text-xs" data-testid="row-status">
              {i.status}
              {i.status === "embedding" ? ` ${i.progressDone}/${i.progressTotal}` : ""}
            </span>
            {i.status !== "ready" && <Progress value={pct} />}
          </div>
        )}
      </td>
      <td className="pr-2 tabular-nums">{i.chunkCount ?? "—"}</td>
      <td className="flex gap-1 py-2">
        {i.status === "ready" && (
          <Button size="sm" variant="outline" onClick={() => lib.setPreview(i)} data-testid="row-preview">
            Preview
          </Button>
        )}
        {i.status === "ready" && (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => lib.retry.mutate(i.id)}
            title="Re-ingest with the current embedder"
          >
            Re-ingest
          </Button>
        )}
        {i.status === "failed" && (
          <Button size="sm" variant="outline" onClick={() => lib.retry.mutate(i.id)}>
            Retry
          </Button>
        )}
        <Button
          size="sm"
          variant="ghost"
          data-testid="row-delete"
          onClick={() => {
            if (window.confirm(`Delete “${i.title}” and its chunks?`)) lib.remove.mutate(i.id);
          }}
        >
          Delete
        </Button>
      </td>
    </tr>
  );
}
