"use client";

import { Button } from "@/components/ui/button";

export function PrintButton() {
  return (
    <Button
      size="sm"
      variant="outline"
      className="print:hidden"
      onClick={() => window.print()}
      data-testid="print"
    >
      Print
    </Button>
  );
}
