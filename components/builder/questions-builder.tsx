"use client";

import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Alert } from "@/components/ui/misc";
import { AdvancedSettings } from "./advanced-settings";
import { GenerationPanel } from "./generation-panel";
import { EnhancePanel, QueryEditor } from "./query-editor";
import { RecentSets } from "./recent-sets";
import { RetrievalFilters } from "./retrieval-filters";
import { RetrievalResults, SelectionBar } from "./retrieval-results";
import { SessionTurns } from "./session-turns";
import { type TQuestionsBuilder, useQuestionsBuilder } from "./use-questions-builder";

/**
 * The Questions builder: filters → query (templates, enhance) → results to select → generation.
 * State lives in `useQuestionsBuilder`; each section below is named after what the teacher sees.
 */
export function QuestionsBuilder() {
  const b = useQuestionsBuilder();
  if (b.context) {
    const { board, grade, subject } = b.scope;
    return (
      <GenerationPanel
        key={b.openedSet?.id ?? "new"}
        filters={{ board, grade, subject }}
        context={b.context}
        topic={b.draft.finalQuery}
        bloomTargets={b.settings.bloom}
        restored={b.openedSet}
        onSaved={b.setSaved}
        onLevelsChange={b.settings.setBloomFromBlueprint}
        onBack={b.backToResults}
      />
    );
  }
  return (
    <div className="flex flex-col gap-4 pb-24">
      <Card>
        <CardHeader>
          <CardTitle>Find the passages that matter</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <RetrievalFilters scope={b.scope} />
          <QueryEditor draft={b.draft} scope={b.scope} onSubmit={b.retrieve} />
          <EnhancePanel draft={b.draft} />
          <AdvancedSettings settings={b.settings} autoAlpha={b.results.data?.classification.alpha} />
          <SessionTurns turns={b.session.turns} last={b.results.data?.session} onClear={b.session.clear} />
          <RetrieveActions builder={b} />
        </CardContent>
      </Card>
      <RetrievalResults
        results={b.results}
        excluded={b.excluded}
        maxWords={b.settings.maxTokens}
        onSelect={b.setPassageSelected}
      />
      {b.openError && <Alert variant="destructive">{b.openError}</Alert>}
      <RecentSets onOpen={(id) => void b.openSet(id)} offerLatest={!b.results.data} openingId={b.opening} />
      <SelectionBar selected={b.selected.length} total={b.items.length} onUse={b.sendSelectedToGeneration} />
    </div>
  );
}

/** "Enhance" and "Retrieve", with why they are disabled and the enhancer's error. */
function RetrieveActions({ builder: b }: { builder: TQuestionsBuilder }) {
  return (
    <>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          data-testid="enhance"
          disabled={!b.scope.ready || !b.draft.query.trim() || b.enhance.isPending}
          onClick={b.runEnhance}
        >
          {b.enhance.isPending ? "Enhancing…" : "Enhance"}
        </Button>
        <Button data-testid="retrieve" disabled={!b.canRetrieve} onClick={b.retrieve}>
          Retrieve
        </Button>
        {!b.scope.ready ? (
          <span className="self-center text-sm text-muted-foreground" data-testid="retrieve-hint">
            {b.scope.subject
              ? "Tick at least one resource, or use all."
              : "Pick Board, Class and Subject first."}
          </span>
        ) : (
          !b.draft.finalQuery.trim() && (
            <span className="self-center text-sm text-muted-foreground" data-testid="retrieve-hint">
              Type what to search for, or pick a template.
            </span>
          )
        )}
      </div>
      {b.enhance.isError && <Alert variant="destructive">{b.enhance.error.message}</Alert>}
    </>
  );
}
