"use client";

import { Button } from "@/components/ui/button";
import type { TRetrievalQueryResponse, TSessionTurn } from "@/schema/retrieval.schema";

/**
 * The builder session: the searches so far, so a follow-up ("harder ones", "not the Calvin
 * cycle", "the next section") is read against them. Kept until the teacher clears it.
 */
export function SessionTurns({
  turns,
  last,
  onClear,
}: {
  turns: readonly TSessionTurn[];
  last?: TRetrievalQueryResponse["session"];
  onClear: () => void;
}) {
  if (turns.length === 0) return null;
  return (
    <div
      className="flex flex-col gap-1 rounded-md border border-border bg-muted/40 p-2 text-xs"
      data-testid="session"
    >
      <div className="flex items-center justify-between gap-2">
        <span className="font-medium">
          This session ({turns.length} {turns.length === 1 ? "search" : "searches"}): a short follow-up such
          as “harder ones”, “more on …”, “the next section” or “not …” builds on them.
        </span>
        <Button size="sm" variant="outline" onClick={onClear} data-testid="session-clear">
          Clear session
        </Button>
      </div>
      <ol className="flex flex-wrap gap-x-2 gap-y-1 text-muted-foreground" data-testid="session-turns">
        {turns.map((t, i) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: an append-only list; a repeated search is a new turn.
            key={`${i}-${t.query}`}
            data-testid="session-turn"
          >
            {i > 0 ? "→ " : ""}“{t.query}”
            {t.resolvedQuery !== t.query ? <span> (read as “{t.resolvedQuery}”)</span> : null}
            {t.excluded?.length ? <span> · leaving out {t.excluded.join(", ")}</span> : null}
          </li>
        ))}
      </ol>
      {last?.followUp && last.reasons.length > 0 && (
        <p data-testid="session-followup">Follow-up: {last.reasons.join(" · ")}</p>
      )}
    </div>
  );
}
