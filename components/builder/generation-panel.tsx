"use client";

import { Button } from "@/components/ui/button";
import { AddToPaper } from "./add-to-paper";
import { BlueprintForm } from "./blueprint-form";
import { GenerationStatus } from "./generation-status";
import { MixChart } from "./mix-chart";
import { QuestionCard } from "./question-card";
import { SupportTable } from "./support-table";
import { type IGenerationPanelProps, useGenerationPanel } from "./use-generation-panel";

/**
 * Generation from the selected passages: the blueprint form, the streamed question cards to review
 * (approve, reject, edit, regenerate), the Bloom/type mix and "Add to paper". State lives in
 * `useGenerationPanel`.
 */
export function GenerationPanel({ onBack, ...props }: IGenerationPanelProps & { onBack: () => void }) {
  const p = useGenerationPanel(props);
  const { filters, context } = props;
  const { running } = p;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center gap-3">
        <Button variant="outline" size="sm" onClick={onBack}>
          ← Back to results
        </Button>
        <span className="text-sm text-muted-foreground">
          {context.length} passages as context · {filters.board} / {filters.grade} / {filters.subject}
        </span>
      </div>
      <BlueprintForm form={p.blueprint} running={running} onGenerate={p.generate} onStop={p.gen.stop} />
      <SupportTable context={context.map((c) => ({ documentId: c.documentId, chunkIndex: c.chunkIndex }))} />
      <GenerationStatus panel={p} />
      {p.finals.length > 0 && !running && (
        <MixChart byLevel={p.byLevel} targets={p.blueprint.targets()} byType={p.byType} />
      )}
      {p.gen.set && !running && (
        <AddToPaper
          filters={filters}
          setTitle={`${filters.subject} test`}
          questionIds={p.approvedIds}
          marks={p.approvedMarks}
        />
      )}
      <div className="grid gap-3 lg:grid-cols-2" data-testid="questions">
        {p.parts.map((q, i) => (
          <QuestionCard
            key={q.slot.id}
            part={q}
            index={i}
            stopped={!running}
            regenerating={p.regenerating === q.slot.id}
            rejected={p.rejected.has(q.slot.id)}
            onReject={() => p.toggleReject(q.slot.id)}
            onEdit={(promptText) => p.editPrompt(q, promptText)}
            onRegenerate={running ? undefined : () => void p.regenerate(q.slot)}
            approved={p.approved.has(q.slot.id)}
            onApprove={() => p.toggleApprove(q.slot.id)}
          />
        ))}
      </div>
    </div>
  );
}
