"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { Toaster } from "sonner";
import { z } from "zod";
import { ConfirmProvider } from "@/components/ui/confirm";

// The pages' CSP has no 'unsafe-eval': zod's compiled fast path would probe `new Function` (and the
// browser would report each probe as a violation). Only in the browser; the server keeps it.
if (typeof window !== "undefined") z.config({ jitless: true });

export function Providers({ children }: { children: React.ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <ConfirmProvider>{children}</ConfirmProvider>
      <Toaster richColors position="top-right" />
    </QueryClientProvider>
  );
}
