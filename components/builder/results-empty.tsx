"use client";

import { Alert } from "@/components/ui/misc";
import type { TRetrievalQueryResponse } from "@/schema/retrieval.schema";

/** Nothing to show: why (the refusal, when there is one) and the spec's advice, once. */
export function ResultsEmpty({
  refusal,
  suggestions,
}: {
  refusal?: TRetrievalQueryResponse["refusal"];
  suggestions: readonly string[];
}) {
  return (
    <Alert data-testid="results-empty">
      <p className="font-medium">
        {refusal ? "Nothing in this scope matches the query." : "No passages matched."}
      </p>
      {refusal && (
        <p className="mt-1" data-testid="results-refusal">
          {refusal.message}
        </p>
      )}
      {suggestions.length > 0 && (
        <ul className="mt-2 list-disc pl-5" data-testid="results-advice">
          {suggestions.map((s) => (
            <li key={s}>{s}</li>
          ))}
        </ul>
      )}
    </Alert>
  );
}
