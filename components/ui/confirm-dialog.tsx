"use client";

import { AlertDialog } from "radix-ui";
import type * as React from "react";
import { Button } from "./button";

/**
 * A confirm dialog for an action that cannot be taken back (Radix AlertDialog: focus trapped,
 * Escape and Cancel close it, the action is not the default focus). Used instead of the browser's
 * confirm(), which a page cannot style or test and some browsers suppress.
 */
export function ConfirmDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** What happens, in the words of the person deciding. */
  children: React.ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  /** Disables the action (e.g. a choice in the dialog is still missing, or it is running). */
  confirmDisabled?: boolean;
  destructive?: boolean;
}) {
  return (
    <AlertDialog.Root open={props.open} onOpenChange={props.onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <AlertDialog.Content
          className="fixed left-1/2 top-1/2 z-50 flex w-[min(32rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 flex-col gap-3 rounded-lg border border-border bg-card p-5 shadow-lg"
          data-testid="confirm-dialog"
        >
          <AlertDialog.Title className="text-lg font-semibold">{props.title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="flex flex-col gap-2 text-sm text-muted-foreground">{props.children}</div>
          </AlertDialog.Description>
          <div className="flex justify-end gap-2 pt-2">
            <AlertDialog.Cancel asChild>
              <Button variant="outline" data-testid="confirm-cancel">
                Cancel
              </Button>
            </AlertDialog.Cancel>
            <Button
              variant={props.destructive ? "destructive" : "default"}
              disabled={props.confirmDisabled}
              onClick={props.onConfirm}
              data-testid="confirm-action"
            >
              {props.confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
