"use client";

import { NativeSelect } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Alert, Checkbox, Skeleton } from "@/components/ui/misc";
import { type EResourceType, RESOURCE_TYPES } from "@/types/curriculum.types";
import { ResourceSubsetPicker } from "./resource-subset-picker";
import type { TBuilderScope } from "./use-questions-builder";

const TYPE_LABEL: Record<EResourceType, string> = {
  textbook: "Textbook",
  pyq: "PYQ",
  notes: "Notes",
  other: "Other",
};

/** Board, Class, Subject, Chapter and resource-type filters: what the search is limited to. */
export function RetrievalFilters({ scope }: { scope: TBuilderScope }) {
  const { facets } = scope;
  return (
    <>
      {facets.isLoading && <Skeleton className="h-9 w-full" />}
      {facets.isError && <Alert variant="destructive">{facets.error.message}</Alert>}
      {facets.data && scope.boards.length === 0 && (
        <Alert data-testid="no-resources">
          No resources yet. A curriculum admin can upload textbooks, past papers and notes in the Library.
        </Alert>
      )}
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="board">Board</Label>
          <NativeSelect
            id="board"
            data-testid="filter-board"
            value={scope.board}
            onChange={(e) => scope.setBoard(e.target.value)}
          >
            <option value="">Select board</option>
            {scope.boards.map((b) => (
              <option key={b.board}>{b.board}</option>
            ))}
          </NativeSelect>
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="grade">Class</Label>
          <NativeSelect
            id="grade"
            data-testid="filter-grade"
            value={scope.grade}
            disabled={!scope.board}
            onChange={(e) => scope.setGrade(e.target.value)}
          >
            <option value="">Select class</option>
            {scope.grades.map((g) => (
              <option key={g.grade}>{g.grade}</option>
            ))}
          </NativeSelect>
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="subject">Subject</Label>
          <NativeSelect
            id="subject"
            data-testid="filter-subject"
            value={scope.subject}
            disabled={!scope.grade}
            onChange={(e) => scope.setSubject(e.target.value)}
          >
            <option value="">Select subject</option>
            {scope.subjects.map((s) => (
              <option key={s.subject}>{s.subject}</option>
            ))}
          </NativeSelect>
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="chapter">Chapter (optional)</Label>
          <NativeSelect
            id="chapter"
            data-testid="filter-chapter"
            value={scope.chapter}
            disabled={!scope.chapters.length}
            onChange={(e) => scope.setChapter(e.target.value)}
          >
            <option value="">Whole subject</option>
            {scope.chapters
              .filter((c) => c.number !== null)
              .map((c) => (
                <option key={`${c.number}-${c.name}`} value={String(c.number)}>
                  {c.number}. {c.name}
                </option>
              ))}
          </NativeSelect>
        </div>
      </div>
      <ResourceSubsetPicker scope={scope} />
      <fieldset className="flex flex-wrap items-center gap-4 text-sm">
        <legend className="sr-only">Resource types</legend>
        <span className="font-medium">Resource type:</span>
        <span className="text-muted-foreground">{scope.types.length === 0 ? "All" : ""}</span>
        {RESOURCE_TYPES.filter(
          (t) => t !== "other" && (scope.availableTypes.length === 0 || scope.availableTypes.includes(t)),
        ).map((t) => (
          <div key={t} className="flex items-center gap-1.5">
            <Checkbox
              id={`type-${t}`}
              checked={scope.types.includes(t)}
              onCheckedChange={(v) => scope.toggleType(t, !!v)}
            />
            <Label htmlFor={`type-${t}`} className="font-normal">
              {TYPE_LABEL[t]}
            </Label>
          </div>
        ))}
      </fieldset>
    </>
  );
}
