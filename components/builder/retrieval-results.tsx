"use client";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Alert, Skeleton } from "@/components/ui/misc";
import type { TRetrievalAnswer, useRetrievalQuery } from "@/hooks/use-retrieval";
import { ResultCard } from "./result-card";
import { ResultsEmpty } from "./results-empty";
import { RetrievalPlan } from "./retrieval-plan";
import { passageKey } from "./use-questions-builder";

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
  return (
    <section aria-label="Results" className="flex flex-col gap-3" data-testid="results">
      <div
        className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground"
        data-testid="results-meta"
      >
        <Badge variant="outline">type: {answer.classification.type}</Badge>
        <Badge variant="outline">α {answer.classification.alpha.toFixed(2)}</Badge>
        <Badge variant={answer.confidence >= 50 ? "success" : "destructive"}>
          confidence {answer.confidence}
        </Badge>
        <span>
          {answer.debug.totalMs.toFixed(0)} ms · reranker: {answer.debug.reranker}
        </span>
        {answer.warnings.map((w) => (
          <span key={w} className="text-destructive">
            {w}
          </span>
        ))}
      </div>
      <RetrievalPlan plan={answer.plan} />
      {answer.items.length === 0 && (
        <ResultsEmpty refusal={answer.refusal} suggestions={answer.suggestions} />
      )}
      {answer.items.map((it) => {
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
          {selected} of {total} passages selected
        </span>
        <Button data-testid="use-context" disabled={selected === 0} onClick={onUse}>
          Use selected as context ({selected})
        </Button>
      </div>
    </div>
  );
}
