"use client";

import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/misc";
import type { TSaveState } from "@/hooks/use-paper-editor";
import type { TPaperBuilder } from "./use-paper-builder";

const SAVE_TEXT: Record<TSaveState, string> = {
  saved: "All changes saved",
  dirty: "Unsaved changes…",
  saving: "Saving…",
  error: "Not saved",
  conflict: "Changed elsewhere",
};

/** "← All papers", the autosave state, and when a save failed: why, with Retry or Reload. */
export function SaveStatus({ builder: b }: { builder: TPaperBuilder }) {
  const { state, editor } = b;
  const failed = state === "error" || state === "conflict";
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Link href="/papers" className="text-sm text-primary hover:underline">
          ← All papers
        </Link>
        <span
          className={failed ? "text-sm text-destructive" : "text-sm text-muted-foreground"}
          aria-live="polite"
          data-testid="save-state"
          data-state={state}
        >
          {SAVE_TEXT[state]}
        </span>
      </div>
      {failed && (
        <Alert variant="destructive" data-testid="save-error">
          {editor.error}{" "}
          {state === "conflict" ? (
            <Button size="sm" variant="outline" onClick={() => void editor.reload()}>
              Reload the paper
            </Button>
          ) : (
            <Button size="sm" variant="outline" onClick={() => void editor.save().catch(() => undefined)}>
              Retry saving
            </Button>
          )}
        </Alert>
      )}
    </>
  );
}
