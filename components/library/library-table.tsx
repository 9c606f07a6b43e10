"use client";

import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useConfirm } from "@/components/ui/confirm";
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

/** Rows per page of the library list. */
export const LIBRARY_PAGE = 25;

/**
 * The library list: one row per resource with its scope, type, ingestion status and actions,
 * 25 to a page (Previous / Next under the table when there are more).
 */
export function LibraryTable({ lib, role }: { lib: TLibrary; role: ERole }) {
  const [page, setPage] = useState(0);
  const pages = Math.max(1, Math.ceil(lib.rows.length / LIBRARY_PAGE));
  // A filter that leaves fewer rows keeps the page in range.
  const current = Math.min(page, pages - 1);
  const shown = lib.rows.slice(current * LIBRARY_PAGE, (current + 1) * LIBRARY_PAGE);
  return (
    // On a phone, scope, type and chunks fold into the title cell; the frame scrolls, never the page.
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="library-table">
        <thead className="text-xs text-muted-foreground">
          <tr>
            <th className="py-2">Title</th>
            <th className="hidden md:table-cell">Scope</th>
            <th className="hidden md:table-cell">Type</th>
            <th>Status</th>
            <th className="hidden md:table-cell">Chunks</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {shown.map((i) => (
            <LibraryRow key={i.id} ingestion={i} lib={lib} role={role} />
          ))}
        </tbody>
      </table>
      {pages > 1 && (
        <nav
          aria-label="Library pages"
          className="flex flex-wrap items-center gap-2 py-2 text-sm"
          data-testid="library-pages"
        >
          <Button size="sm" variant="outline" disabled={current === 0} onClick={() => setPage(current - 1)}>
            Previous
          </Button>
          <span className="text-muted-foreground" data-testid="library-page">
            {current * LIBRARY_PAGE + 1}–{current * LIBRARY_PAGE + shown.length} of {lib.rows.length}
          </span>
          <Button
            size="sm"
            variant="outline"
            disabled={current >= pages - 1}
            onClick={() => setPage(current + 1)}
            data-testid="library-next"
          >
            Next
          </Button>
        </nav>
      )}
    </div>
  );
}

/**
 * Whether this user may re-ingest, retry or delete the resource: the server lets the uploader and,
 * for shared resources, admins. A teacher sees shared resources (admins' uploads) and only their
 * own private ones, an admin shared ones and their own private ones, so the rule reads off the row.
 */
export function mayChangeResource(role: ERole, i: Pick<TIngestion, "visibility">): boolean {
  return role === "admin" || i.visibility === "private";
}

/** One resource: title and file, scope, type, status with progress, Preview / Re-ingest / Retry / Delete. */
function LibraryRow({ ingestion: i, lib, role }: { ingestion: TIngestion; lib: TLibrary; role: ERole }) {
  const confirm = useConfirm();
  const pct = ingestionPercent(i);
  const mayChange = mayChangeResource(role, i);
  return (
    <tr className="border-t border-border" data-testid="library-row">
      <td className="py-2 pr-2">
        <div className="font-medium break-words">{i.title}</div>
        <div className="text-xs text-muted-foreground">
          <span className="break-all">{i.originalFilename}</span> · {i.visibility}
        </div>
        <div className="text-xs text-muted-foreground md:hidden">
          {i.board} / {i.grade} / {i.subject}
          {i.chapterNumber !== null ? ` · ch ${i.chapterNumber}` : ""} · {i.resourceType}
          {i.chunkCount !== null ? ` · ${i.chunkCount} chunks` : ""}
        </div>
        {role === "admin" && i.instructionLike.length > 0 && (
          <Badge variant="destructive" data-testid="row-instruction-flag">
            instruction-like text in {i.instructionLike.length} passage
            {i.instructionLike.length === 1 ? "" : "s"}
          </Badge>
        )}
      </td>
      <td className="hidden pr-2 text-xs md:table-cell">
        {i.board} / {i.grade} / {i.subject}
        {i.chapterNumber !== null ? ` · ch ${i.chapterNumber}` : ""}
      </td>
      <td className="hidden pr-2 md:table-cell">
        <Badge variant="outline">{i.resourceType}</Badge>
      </td>
      <td className="pr-2 md:min-w-40">
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
            {i.status !== "ready" && <Progress value={pct} label={`Processing ${i.title}`} />}
          </div>
        )}
      </td>
      <td className="hidden pr-2 tabular-nums md:table-cell">{i.chunkCount ?? "—"}</td>
      <td className="flex flex-col gap-1 py-2 sm:flex-row">
        {i.status === "ready" && (
          <Button size="sm" variant="outline" onClick={() => lib.setPreview(i)} data-testid="row-preview">
            Preview
          </Button>
        )}
        {mayChange && i.status === "ready" && (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => lib.retryResource(i.id)}
            title="Re-ingest with the current embedder"
          >
            Re-ingest
          </Button>
        )}
        {mayChange && i.status === "failed" && (
          <Button size="sm" variant="outline" onClick={() => lib.retryResource(i.id)}>
            Retry
          </Button>
        )}
        {mayChange && (
          <Button
            size="sm"
            variant="ghost"
            data-testid="row-delete"
            onClick={async () => {
              const ok = await confirm({
                title: `Delete “${i.title}”?`,
                description:
                  "Its passages leave search at once, and the file is removed. This cannot be undone.",
                confirmLabel: "Delete",
              });
              if (ok) lib.removeResource(i.id);
            }}
          >
            Delete
          </Button>
        )}
      </td>
    </tr>
  );
}
