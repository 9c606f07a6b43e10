"use client";

import { Badge } from "@/components/ui/badge";
import { Card, CardContent } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/misc";
import { passageSnippet } from "@/lib/text/snippet";
import type { TRetrievalItem } from "@/schema/retrieval.schema";
import { sourceHref } from "./source-link";

/** One retrieved passage: select it as context, see where it comes from and how relevant it is. */
export function ResultCard({
  item: it,
  selected,
  maxWords,
  onSelect,
}: {
  item: TRetrievalItem;
  selected: boolean;
  maxWords: number;
  onSelect: (on: boolean) => void;
}) {
  return (
    // Unselected: a dashed, tinted card. Not faded with opacity: faded text fails contrast (axe).
    <Card className={selected ? "" : "border-dashed bg-muted/60"} data-testid="result-item">
      <CardContent className="flex gap-3 pt-4">
        <Checkbox
          checked={selected}
          aria-label={`Use passage ${it.chunkIndex} of ${it.title}`}
          data-testid="result-select"
          onCheckedChange={(v) => onSelect(!!v)}
        />
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <div className="flex flex-wrap items-center gap-2 text-xs">
            <span className="font-medium text-foreground" data-testid="result-title">
              {it.title}
            </span>
            {it.pageStart !== undefined && (
              <span className="text-muted-foreground">
                p. {it.pageStart}
                {it.pageEnd !== it.pageStart ? `–${it.pageEnd}` : ""}
              </span>
            )}
            {it.sectionPath && (
              <span className="truncate text-muted-foreground">
                {it.sectionPath.split(" > ").slice(-2).join(" › ")}
              </span>
            )}
            {it.weak && (
              <Badge variant="destructive" title="Weak match: not preselected" data-testid="result-weak">
                weak match
              </Badge>
            )}
            <span className="ml-auto tabular-nums text-muted-foreground" data-testid="result-score">
              relevance {it.relevance.toFixed(2)}
            </span>
          </div>
          <p className="text-sm leading-relaxed">{passageSnippet(it.content, maxWords)}</p>
          <div className="flex flex-wrap items-start gap-x-4 gap-y-1 text-xs">
            <a
              className="text-primary underline"
              href={sourceHref(it)}
              target="_blank"
              rel="noreferrer"
              data-testid="view-source"
            >
              View source
            </a>
            {/* The search's own numbers, for whoever tunes it; not what a teacher picks by. */}
            <details className="text-muted-foreground" data-testid="result-details">
              <summary className="cursor-pointer">Details</summary>
              <span data-testid="result-chunk">chunk {it.chunkIndex}</span>
              {` · fused score ${it.fusedScore.toFixed(2)}`}
              {it.rerankScore !== undefined ? ` · rerank score ${it.rerankScore.toFixed(2)}` : ""}
            </details>
          </div>
        </div>
      </CardContent>
    </Card>
  );
}
