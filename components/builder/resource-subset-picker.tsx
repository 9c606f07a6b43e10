"use client";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Checkbox } from "@/components/ui/misc";
import type { TFacetResource } from "@/schema/retrieval.schema";
import type { EResourceType } from "@/types/curriculum.types";
import { groupResources, subsetSummary } from "./resource-subset";
import type { TBuilderScope } from "./use-questions-builder";

const KIND: Record<EResourceType, string> = {
  textbook: "Textbook",
  pyq: "Past paper",
  notes: "Notes",
  other: "Other",
};

/** A chapter of a book reads "Ch 5 · Structure and Function…"; anything else by its title. */
function resourceLabel(r: TFacetResource, inGroup: boolean): string {
  if (inGroup && r.chapterNumber !== null) return `Ch ${r.chapterNumber} · ${r.chapterName ?? r.title}`;
  return r.title;
}

/**
 * The scope's Resource subset (after Board → Class → Subject): which of the subject's textbooks,
 * their chapters, past papers and notes the search may use. Default: all of them.
 */
export function ResourceSubsetPicker({ scope }: { scope: TBuilderScope }) {
  const { resources, subset } = scope;
  if (!scope.subject || resources.length === 0) return null;
  const summary = subsetSummary(resources, subset);
  const isOn = (id: string) => subset === null || subset.includes(id);
  return (
    <details className="rounded-md border border-border p-3 text-sm" data-testid="resource-subset">
      <summary className="cursor-pointer">
        <span className="font-medium">Resources:</span>{" "}
        <span data-testid="resource-subset-summary" aria-live="polite">
          {summary}
        </span>
      </summary>
      <div className="mt-3 flex flex-col gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <Button
            type="button"
            size="sm"
            variant="secondary"
            data-testid="resource-subset-all"
            disabled={subset === null}
            onClick={scope.chooseAllResources}
          >
            Use all resources
          </Button>
          {subset !== null && subset.length === 0 && (
            <span className="text-destructive" role="status" data-testid="resource-subset-empty">
              Tick at least one resource.
            </span>
          )}
        </div>
        {groupResources(resources).map((g) => {
          const ids = g.resources.map((r) => r.id);
          const on = ids.filter(isOn).length;
          const groupId = `res-group-${ids[0]}`;
          const many = g.resources.length > 1;
          return (
            <fieldset key={groupId} className="flex min-w-0 flex-col gap-1.5" data-testid="resource-group">
              <legend className="sr-only">
                {KIND[g.resourceType]}: {g.group}
              </legend>
              <div className="flex min-w-0 items-center gap-2">
                {many ? (
                  <>
                    <Checkbox
                      id={groupId}
                      checked={on === ids.length ? true : on === 0 ? false : "indeterminate"}
                      onCheckedChange={(v) => scope.toggleResources(ids, v === true)}
                    />
                    <Label htmlFor={groupId} className="min-w-0 break-words font-medium">
                      {g.group}
                    </Label>
                  </>
                ) : (
                  <>
                    <Checkbox
                      id={`res-${ids[0]}`}
                      data-testid="resource-option"
                      checked={on === 1}
                      onCheckedChange={(v) => scope.toggleResources(ids, v === true)}
                    />
                    <Label htmlFor={`res-${ids[0]}`} className="min-w-0 break-words font-medium">
                      {g.resources[0]!.title}
                    </Label>
                  </>
                )}
                <Badge variant="outline" className="shrink-0">
                  {KIND[g.resourceType]}
                </Badge>
              </div>
              {many && (
                <ul className="ml-6 flex flex-col gap-1">
                  {g.resources.map((r) => (
                    <li key={r.id} className="flex min-w-0 items-center gap-2">
                      <Checkbox
                        id={`res-${r.id}`}
                        data-testid="resource-option"
                        checked={isOn(r.id)}
                        onCheckedChange={(v) => scope.toggleResources([r.id], v === true)}
                      />
                      <Label htmlFor={`res-${r.id}`} className="min-w-0 break-words font-normal">
                        {resourceLabel(r, true)}
                      </Label>
                    </li>
                  ))}
                </ul>
              )}
            </fieldset>
          );
        })}
      </div>
    </details>
  );
}
