"use client";

import { useEffect, useRef } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Alert, Skeleton } from "@/components/ui/misc";
import type { TRetrievalAnswer, useRetrievalQuery } from "@/hooks/use-retrieval";
import { orderByRelevance } from "@/lib/retrieval/result-order";
import { plural } from "@/lib/text/plural";
import { passageKey } from "@/types/generation.types";
import { ResultCard } from "./result-card";
import { ResultsEmpty } from "./results-empty";
import { RetrievalPlan } from "./retrieval-plan";

/** Loading, error, or the answer: how the query was read, the plan, and the passages to pick from. */
export function RetrievalResults({
  results,
  excluded,
  maxWords,
  onSelect,
}: {
  results: ReturnType<typeof useRetrievalQuery>;
  excluded: Set<string>;
  maxWords: number;
  onSelect: (key: string, on: boolean) => void;
}) {
  if (results.isFetching) {
    return (
      <div className="flex flex-col gap-2" data-testid="results-loading">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-24 w-full" />
        ))}
      </div>
    );
  }
  const answer = results.data;
  return (
    <>
      {results.isError && (
        <Alert variant="destructive" data-testid="results-error">
          <div className="flex items-center justify-between gap-4">
            <span>{results.error.message}</span>
            <Button size="sm" variant="outline" onClick={() => results.refetch()} data-testid="results-retry">
              Retry
            </Button>
          </div>
        </Alert>
      )}
      {answer && (
        <AnswerSection answer={answer} excluded={excluded} maxWords={maxWords} onSelect={onSelect} />
      )}
    </>
  );
}

function AnswerSection({
  answer,
  excluded,
  maxWords,
  onSelect,
}: {
  answer: TRetrievalAnswer;
  excluded: Set<string>;
  maxWords: number;
  onSelect: (key: string, on: boolean) => void;
}) {
  // Each new answer takes the keyboard focus (Retrieve would otherwise leave it on the button, or on
  // the body once the button re-renders), so a screen reader reads the results next.
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    if (answer) section.current?.focus();
  }, [answer]);
  return (
    <section
      ref={section}
      tabIndex={-1}
      aria-label="Results"
      className="flex flex-col gap-3 focus:outline-none"
      data-testid="results"
    >
      <div className="flex flex-col gap-1 text-sm" data-testid="results-meta">
        {answer.items.length > 0 && (
          <p data-testid="results-summary">
            <span className="font-medium">{plural(answer.items.length, "passage")} found</span>
            {" · "}
            {answer.confidence >= 50 ? (
              <span className="text-success">good matches for your query</span>
            ) : (
              <span className="text-destructive">few close matches: check them, or reword the query</span>
            )}
          </p>
        )}
        {answer.warnings.map((w) => (
          <p key={w} className="text-destructive">
            {w}
          </p>
        ))}
        {/* What an engineer needs to judge the search, folded away from the teacher's view. */}
        <details className="text-xs text-muted-foreground" data-testid="results-details">
          <summary className="cursor-pointer">Details</summary>
          <div className="mt-1 flex flex-wrap items-center gap-2">
            <Badge variant="outline">type: {answer.classification.type}</Badge>
            <Badge variant="outline">α {answer.classification.alpha.toFixed(2)}</Badge>
            <Badge variant="outline">confidence {answer.confidence}</Badge>
            <span>
              {answer.debug.totalMs.toFixed(0)} ms · reranker: {answer.debug.reranker}
            </span>
          </div>
        </details>
      </div>
      <RetrievalPlan plan={answer.plan} />
      {answer.items.length === 0 && (
        <ResultsEmpty refusal={answer.refusal} suggestions={answer.suggestions} />
      )}
      {orderByRelevance(answer.items).map((it) => {
        const key = passageKey(it);
        return (
          <ResultCard
            key={key}
            item={it}
            selected={!excluded.has(key)}
            maxWords={maxWords}
            onSelect={(on) => onSelect(key, on)}
          />
        );
      })}
    </section>
  );
}

/** The bar fixed at the bottom: how many passages are selected, and "Use selected as context". */
export function SelectionBar({
  selected,
  total,
  onUse,
}: {
  selected: number;
  total: number;
  onUse: () => void;
}) {
  if (total === 0) return null;
  return (
    <div className="fixed inset-x-0 bottom-0 z-10 border-t border-border bg-card/95 p-3 backdrop-blur">
      <div className="mx-auto flex max-w-7xl items-center justify-end gap-3">
        <span className="text-sm text-muted-foreground">
          {selected} of {plural(total, "passage")} selected
        </span>
        <Button data-testid="use-context" disabled={selected === 0} onClick={onUse}>
          Use selected as context ({selected})
        </Button>
      </div>
    </div>
  );
}
