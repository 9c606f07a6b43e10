"use client";

import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Alert, Skeleton } from "@/components/ui/misc";
import type { ERole } from "@/types/curriculum.types";
import { LibraryFilters } from "./library-filters";
import { LibraryTable } from "./library-table";
import { ResourcePreview } from "./resource-preview";
import { UploadForm } from "./upload-form";
import { useLibrary } from "./use-library";

/**
 * The Library: upload with metadata, live per-file progress (polling survives reloads), the list
 * with filters, retry, re-ingest, delete and a chunk preview. State lives in `useLibrary`.
 */
export function Library({ role }: { role: ERole }) {
  const lib = useLibrary();
  const { list, preview } = lib;
  return (
    <div className="flex flex-col gap-4">
      <UploadForm lib={lib} role={role} />
      <Card>
        <CardHeader>
          <CardTitle>Library</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-2">
          {list.isLoading && <Skeleton className="h-24 w-full" />}
          {list.isError && <Alert variant="destructive">{list.error.message}</Alert>}
          <LibraryFilters lib={lib} />
          <LibraryTable lib={lib} role={role} />
          {list.data?.items.length === 0 && (
            <p className="text-sm text-muted-foreground">No resources yet.</p>
          )}
        </CardContent>
      </Card>
      {preview && <ResourcePreview ingestion={preview} role={role} onClose={() => lib.setPreview(null)} />}
    </div>
  );
}
