"use client";

import { Input, NativeSelect } from "@/components/ui/input";
import type { TLibrary } from "./use-library";

/** Search box, type and status filters and the sort order of the library list. */
export function LibraryFilters({ lib }: { lib: TLibrary }) {
  return (
    <div className="flex flex-wrap gap-2" data-testid="library-filters">
      <Input
        aria-label="Search by title, file, board, class or subject"
        placeholder="Search title, file, board, class, subject…"
        className="max-w-xs"
        value={lib.filter.text}
        onChange={(e) => lib.setFilter({ ...lib.filter, text: e.target.value })}
        data-testid="library-search"
      />
      <NativeSelect
        aria-label="Resource type"
        className="w-auto"
        value={lib.filter.type}
        onChange={(e) => lib.setFilter({ ...lib.filter, type: e.target.value })}
      >
        <option value="">All types</option>
        <option value="textbook">Textbook</option>
        <option value="pyq">PYQ</option>
        <option value="notes">Notes</option>
        <option value="other">Other</option>
      </NativeSelect>
      <NativeSelect
        aria-label="Status"
        className="w-auto"
        value={lib.filter.status}
        onChange={(e) => lib.setFilter({ ...lib.filter, status: e.target.value })}
      >
        <option value="">Any status</option>
        <option value="ready">Ready</option>
        <option value="failed">Failed</option>
        <option value="embedding">In progress</option>
      </NativeSelect>
      <NativeSelect
        aria-label="Sort"
        className="w-auto"
        value={lib.filter.sort}
        onChange={(e) => lib.setFilter({ ...lib.filter, sort: e.target.value })}
      >
        <option value="newest">Newest first</option>
        <option value="oldest">Oldest first</option>
        <option value="title">Title A–Z</option>
      </NativeSelect>
    </div>
  );
}
