"use client";

import { AlertDialog } from "radix-ui";
import { createContext, useCallback, useContext, useRef, useState } from "react";
import { buttonVariants } from "./button";

interface IConfirmOptions {
  title: string;
  description?: string;
  /** The confirming button's words ("Delete"); "Cancel" is the other one and has the focus. */
  confirmLabel: string;
}

type TConfirm = (options: IConfirmOptions) => Promise<boolean>;

const ConfirmContext = createContext<TConfirm | null>(null);

/**
 * An in-app confirmation in place of the browser's `confirm()`: a Radix alert dialog (focus
 * trapped, Escape cancels, focus back where it was), styled like the app and readable by a
 * screen reader. `await confirm({ … })` is true when the teacher confirmed.
 */
export function ConfirmProvider({ children }: { children: React.ReactNode }) {
  const [options, setOptions] = useState<IConfirmOptions | null>(null);
  const resolver = useRef<((ok: boolean) => void) | null>(null);
  const confirm = useCallback<TConfirm>(
    (next) =>
      new Promise<boolean>((resolve) => {
        resolver.current?.(false);
        resolver.current = resolve;
        setOptions(next);
      }),
    [],
  );
  const settle = (ok: boolean) => {
    resolver.current?.(ok);
    resolver.current = null;
    setOptions(null);
  };
  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      <AlertDialog.Root open={options !== null} onOpenChange={(open) => !open && settle(false)}>
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
          <AlertDialog.Content
            data-testid="confirm-dialog"
            className="fixed left-1/2 top-1/2 z-50 flex w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 flex-col gap-3 rounded-lg border border-border bg-card p-5 shadow-lg"
          >
            <AlertDialog.Title className="text-base font-semibold">{options?.title}</AlertDialog.Title>
            <AlertDialog.Description className="text-sm text-muted-foreground">
              {options?.description ?? "This cannot be undone."}
            </AlertDialog.Description>
            <div className="mt-2 flex justify-end gap-2">
              <AlertDialog.Cancel
                className={buttonVariants({ variant: "outline" })}
                data-testid="confirm-cancel"
              >
                Cancel
              </AlertDialog.Cancel>
              <AlertDialog.Action
                className={buttonVariants({ variant: "destructive" })}
                data-testid="confirm-ok"
                onClick={() => settle(true)}
              >
                {options?.confirmLabel}
              </AlertDialog.Action>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
    </ConfirmContext.Provider>
  );
}

/** The in-app `confirm`: resolves true when the dialog's confirming button was pressed. */
export function useConfirm(): TConfirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error("useConfirm needs a ConfirmProvider (components/providers.tsx)");
  return confirm;
}
