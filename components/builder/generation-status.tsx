"use client";

import { Alert, Progress } from "@/components/ui/misc";
import type { TGenerationPanel } from "./use-generation-panel";

/**
 * What the generation is doing: its error, the evidence notices, progress ("n of m ready", the saved
 * set) and set-level errors (a provider outage answered offline is a notice, not a failure).
 */
export function GenerationStatus({ panel: p }: { panel: TGenerationPanel }) {
  const { gen } = p;
  return (
    <>
      {gen.error && (
        <Alert variant="destructive" data-testid="generation-error">
          {gen.error}
        </Alert>
      )}
      {gen.notices.map((n) => (
        <Alert key={n}>{n}</Alert>
      ))}
      {(p.running || p.parts.length > 0) && (
        <div className="flex items-center gap-3 text-sm" data-testid="generation-progress">
          <Progress
            value={p.total ? (100 * p.done) / p.total : 5}
            label="Questions generated"
            className="max-w-xs"
          />
          <span>
            {p.done} of {p.total || p.blueprint.total} ready
          </span>
          {gen.set && (
            <span className="text-muted-foreground" data-testid="set-saved">
              Saved set ({gen.set.generated}/{gen.set.requested})
            </span>
          )}
        </div>
      )}
      {gen.errors
        .filter((e) => !e.slotId)
        .map((e) =>
          // The offline generator answering for an unresponsive provider is a notice, not a failure.
          e.code === "llm_unavailable" ? (
            <Alert key={e.message} data-testid="provider-notice">
              {e.message}
            </Alert>
          ) : (
            <Alert key={e.message} variant="destructive">
              {e.message}
            </Alert>
          ),
        )}
    </>
  );
}
